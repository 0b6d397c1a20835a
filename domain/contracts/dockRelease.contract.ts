/**
 * Who comes to the dock (docs/api.md "Pickup release"): the truck named with the driver, the
 * driver's rotating release code, the shipper's dock link and the dock's release or hold.
 */
import { z } from 'zod';
import { emailSchema } from '../schemas/fields.ts';
import { errorAnswers, guardedErrors, IdParamsSchema } from './common.ts';

const truckNumber = (what: string) =>
  z
    .string({ error: `The ${what} number is text` })
    .trim()
    .min(1, { error: `Please enter the ${what} number` })
    .max(20, { error: `A ${what} number has at most 20 characters` });

/** The truck sent with the driver (optional: older callers send no body). */
export const AssignBody = z.object({
  tractorNumber: truckNumber('tractor'),
  trailerNumber: truckNumber('trailer')
    .nullish()
    .or(z.literal('').transform(() => null)),
});

export const ReleaseCodeSchema = z.object({
  code: z.string().regex(/^\d{6}$/),
  /** When this code stops being shown (the next one comes then). */
  validUntil: z.string(),
});
export type ReleaseCode = z.infer<typeof ReleaseCodeSchema>;

export const DockLinkBody = z.object({
  /** Also e-mail the link to this address (the pickup dock's), besides the pickup contact's. */
  email: emailSchema.optional(),
});

export const DockLinkCreatedSchema = z.object({
  token: z.string(),
  /** The client page, relative to the site: `/dock/<token>`. */
  url: z.string(),
  expiresAt: z.string(),
  /** Whether the link went out by e-mail (only when there was an address to send it to). */
  emailed: z.boolean().optional(),
});
export type DockLinkCreated = z.infer<typeof DockLinkCreatedSchema>;

const Token = z.string().min(1).max(200);
export const DockTokenParams = z.object({ token: Token });
export const DockLinkParams = IdParamsSchema.extend({ token: Token });

export const dockStates = ['waiting', 'released', 'held'] as const;
export type DockState = (typeof dockStates)[number];

export const HoldReasonSchema = z.object({
  code: z.enum(['wrong_code', 'tractor_mismatch', 'truck_far_away']),
  text: z.string(),
});
export type HoldReason = z.infer<typeof HoldReasonSchema>;

export const DockViewSchema = z.object({
  loadGuid: z.string(),
  carrier: z.string(),
  driverFirstName: z.string().nullable(),
  tractorNumber: z.string().nullable(),
  trailerNumber: z.string().nullable(),
  /** Miles from the truck's last ELD position to the pickup; null when the truck reports none. */
  eldDistanceMiles: z.number().nullable(),
  pickupWindow: z.object({ start: z.string(), end: z.string(), timezone: z.string() }),
  pickup: z.object({ name: z.string(), city: z.string().nullable(), state: z.string().nullable() }),
  state: z.enum(dockStates),
  /** The reasons of the last hold, when `state` is 'held'. */
  reasons: z.array(HoldReasonSchema),
  /** Tries left on this link (10 in all). */
  triesLeft: z.number(),
  expiresAt: z.string(),
});
export type DockView = z.infer<typeof DockViewSchema>;

export const DockReleaseBody = z.object({
  code: z.string({ error: 'Please enter the 6-digit code' }).trim().max(20),
  tractorNumber: z
    .string()
    .trim()
    .max(20, { error: 'A tractor number has at most 20 characters' })
    .nullish()
    .transform((value) => value || null),
});

export const DockReleaseSchema = z.union([
  z.object({ state: z.literal('released') }),
  z.object({ state: z.literal('held'), reasons: z.array(HoldReasonSchema) }),
]);
export type DockRelease = z.infer<typeof DockReleaseSchema>;

export const dockReleaseContract = {
  releaseCode: {
    params: IdParamsSchema,
    response: { 200: ReleaseCodeSchema, ...guardedErrors, ...errorAnswers(400, 404, 409) },
  },
  createLink: {
    params: IdParamsSchema,
    body: DockLinkBody.nullish(),
    response: { 201: DockLinkCreatedSchema, ...guardedErrors, ...errorAnswers(400, 404, 409) },
  },
  revokeLink: {
    params: DockLinkParams,
    response: {
      204: z.null().meta({ description: 'The link no longer works' }),
      ...guardedErrors,
      ...errorAnswers(400, 404, 409),
    },
  },
  view: {
    params: DockTokenParams,
    response: { 200: DockViewSchema, ...errorAnswers(400, 404, 429) },
  },
  release: {
    params: DockTokenParams,
    body: DockReleaseBody,
    response: { 200: DockReleaseSchema, ...errorAnswers(400, 404, 429) },
  },
};
