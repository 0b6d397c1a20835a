/**
 * Tracking a tour: the positions the driver sends, the trail and the ETA the parties read, and the
 * documentation of the positions' body and query.
 */
import { roundCoordinate } from '../shared/coordinates.ts';
import { z } from 'zod';
import { observedTime } from '../schemas/observedTime.ts';
import { isSaneInstant, saneTimeMessage } from '../schemas/saneTime.ts';
import { TermsSchema } from './terms.contract.ts';
import { TourDetailSchema, TourStopSchema } from './tourTables.contract.ts';

/** A position as the assigned driver sends it (speed in mph, heading in degrees clockwise from north). */
export const PositionBody = z.object({
  latitude: z
    .number({ error: 'latitude must be a number' })
    .min(-90)
    .max(90)
    .transform(roundCoordinate),
  longitude: z
    .number({ error: 'longitude must be a number' })
    .min(-180)
    .max(180)
    .transform(roundCoordinate),
  /** Miles per hour. */
  speed: z
    .number()
    .min(0)
    .max(200)
    .nullish()
    .transform((value) => value ?? null),
  heading: z
    .number()
    .min(0)
    .max(360)
    .nullish()
    .transform((value) => value ?? null),
  accuracy: z
    .number()
    .min(0)
    .max(100_000)
    .nullish()
    .transform((value) => value ?? null),
  recordedAt: observedTime('recordedAt', Date.now).optional(),
});
export const PositionListBody = z
  .array(PositionBody)
  .min(1, { error: 'Send at least one position' })
  .max(1000, { error: 'Send at most 1000 positions at once' });
/** A position as the driver's app sends it to POST /api/tours/{id}/positions: always with its time. */
export type PositionInput = Required<z.output<typeof PositionBody>>;
export const PositionsQuery = z.object(
  {
    since: z.iso
      .datetime({ offset: true, error: 'since must be an ISO 8601 time', abort: true })
      .refine((text) => isSaneInstant(Date.parse(text)), { error: saneTimeMessage('since') }),
  },
  { error: 'since must be an ISO 8601 time' },
);

export const TrackPositionSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  /** Miles per hour. */
  speed: z.number().nullable(),
  heading: z.number().nullable(),
  recordedAt: z.string(),
});
export type TrackPosition = z.infer<typeof TrackPositionSchema>;

/** A stop as tracking shows it: with the facility's contacts, which every party of the tour may see. */
export const TrackStopSchema = TourStopSchema.extend({
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  number: z.string().nullable(),
});

export type TrackStop = z.infer<typeof TrackStopSchema>;
/** A stop as either answer gives it: tracking adds the facility's contacts. */
export type TourStopView = z.infer<typeof TourStopSchema> &
  Partial<Pick<TrackStop, 'contactName' | 'contactPhone' | 'number'>>;

/**
 * What the detention clock of the driver's page and the tracking page needs, counted as the claims
 * are (docs/domain.md "Accessorial terms and claims"): the agreed terms (null: none), and each
 * stop's appointment with its zone: the pickup's start at the first stop, the dropoff's at the
 * last, none between.
 */
export const TrackDetentionSchema = z.object({
  terms: TermsSchema.nullable(),
  appointments: z.array(
    z.object({
      stopId: z.string(),
      at: z.string().nullable(),
      timezone: z.string().nullable(),
    }),
  ),
});
export type TrackDetention = z.infer<typeof TrackDetentionSchema>;

/** GET /api/tours/track/{id}: the tour with its recent trail, last position and ETA. */
export const TourTrackSchema = TourDetailSchema.extend({
  stops: z.array(TrackStopSchema),
  trail: z.array(TrackPositionSchema),
  lastPosition: TrackPositionSchema.nullable(),
  eta: z.object({ at: z.string(), remainingMiles: z.number() }).nullable(),
  nextStopId: z.string().nullable(),
  detention: TrackDetentionSchema.optional(),
});
export type TourTrack = z.infer<typeof TourTrackSchema>;

export const TourPositionSchema = TrackPositionSchema.extend({ tourId: z.string() });

/**
 * The positions' body: one position or a list. Declared for the documentation only (an `anyOf` of
 * the two); the handler tells them apart and validates each, so that a 400 names the field
 * ('1.recordedAt') where a union would answer 'Invalid input'.
 */
export const PositionsBodyDoc = z.unknown().meta({
  description:
    'One position or a list of 1 to 1000 (speed in mph, recordedAt ISO 8601, now when absent)',
  anyOf: [
    z.toJSONSchema(PositionBody, { io: 'input', target: 'openapi-3.0' }),
    z.toJSONSchema(PositionListBody, { io: 'input', target: 'openapi-3.0' }),
  ],
});

/**
 * The query of GET /api/tours/{id}/positions, declared for the documentation: `since` is required and
 * checked by the handler after the tour, so that another organization's tour answers 404 whatever the query.
 */
export const PositionsQueryDoc = z.object({
  since: z.string().optional().meta({ description: 'Required: an ISO 8601 time with its offset' }),
});
