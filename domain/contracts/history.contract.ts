/**
 * A load's audit trail: every event of its streams in log order with who and when; with `at`, the
 * load, its offers and its tour as they stood then. `format=csv` downloads the events.
 */
import { z } from 'zod';
import { isSaneInstant, saneTimeMessage } from '../schemas/saneTime.ts';
import { errorAnswers, guardedErrors, IdParamsSchema } from './common.ts';

export { IdParamsSchema as HistoryParamsSchema };
export const HistoryQuerySchema = z.object({
  at: z.iso
    .datetime({ offset: true, error: 'at must be an ISO 8601 time', abort: true })
    .refine((text) => isSaneInstant(Date.parse(text)), { error: saneTimeMessage('at') })
    .optional(),
  format: z.enum(['json', 'csv'], { error: 'format is json or csv' }).default('json'),
});

const NamedSchema = z.object({ id: z.string(), name: z.string().nullable() });

/** One event of the trail, with the user and organization named as they were when it was written. */
export const HistoryEventSchema = z.object({
  position: z.string(),
  at: z.string(),
  type: z.string(),
  stream: z.string(),
  user: NamedSchema.nullable(),
  organization: NamedSchema.nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type HistoryEvent = z.infer<typeof HistoryEventSchema>;

const HistoryStopSchema = z.looseObject({
  id: z.string(),
  locationType: z.number().int(),
  address: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  name: z.string(),
});
export type HistoryStop = z.infer<typeof HistoryStopSchema>;

/** The load as it stood (a posted load's state, domain/loads/load.types.ts). */
export const LoadSnapshotSchema = z.looseObject({
  loadId: z.string(),
  guid: z.string(),
  status: z.number().int(),
  price: z.number().nullable(),
  carrierOrganizationId: z.string().nullable(),
  cancelMessage: z.string().nullable(),
  updatedAt: z.string(),
  details: z.looseObject({
    pickupStart: z.string(),
    pickupTimezone: z.string(),
    dropoffStart: z.string(),
    dropoffTimezone: z.string(),
    expiration: z.string(),
    expirationTimezone: z.string(),
    weight: z.number(),
    commodity: z.string(),
    refNumber: z.string(),
    equipment: z.array(z.number()),
    stops: z.array(HistoryStopSchema),
  }),
});
export type LoadSnapshot = z.infer<typeof LoadSnapshotSchema>;

/** An offer as it stood, its carrier named as it was then (a later rename does not show). */
export const OfferSnapshotSchema = z.looseObject({
  proposalId: z.string(),
  carrierOrganizationId: z.string(),
  status: z.number().int(),
  price: z.number(),
  counterPrice: z.number().nullable(),
  message: z.string(),
  eldTruckName: z.string().nullable(),
  submittedAt: z.string(),
  updatedAt: z.string(),
  carrierOrganization: NamedSchema,
});
export type OfferSnapshot = z.infer<typeof OfferSnapshotSchema>;

/** The tour as it stood. */
export const TourSnapshotSchema = z.looseObject({
  tourId: z.string(),
  status: z.number().int(),
  assigneeName: z.string().nullable(),
  arrivedStopIds: z.array(z.string()),
  departedStopIds: z.array(z.string()),
  ratings: z.object({
    shipper: z.array(z.unknown()).nullable(),
    carrier: z.array(z.unknown()).nullable(),
  }),
  updatedAt: z.string(),
});
export type TourSnapshot = z.infer<typeof TourSnapshotSchema>;

/** GET loads/{id}/history: `load`, `proposals` and `tour` only with `at`. */
export const HistoryAnswerSchema = z.object({
  loadId: z.string(),
  guid: z.string(),
  at: z.string().nullable(),
  events: z.array(HistoryEventSchema),
  load: LoadSnapshotSchema.nullable().optional(),
  proposals: z.array(OfferSnapshotSchema).optional(),
  tour: TourSnapshotSchema.nullable().optional(),
});
export type HistoryAnswer = z.infer<typeof HistoryAnswerSchema>;

export const historyAnswers = {
  200: {
    content: {
      'application/json': { schema: HistoryAnswerSchema },
      'text/csv': { schema: z.string().meta({ description: 'format=csv: one line per event' }) },
    },
  },
  ...errorAnswers(400, 404),
  ...guardedErrors,
};
