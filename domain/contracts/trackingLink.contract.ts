/**
 * Tracking shared with a receiver (docs/api.md "Tracking shared with a receiver"): the tour's shipper
 * or carrier makes a read-only link; anyone holding it sees where the load is, without prices,
 * contacts or people's names, until it expires or is revoked.
 */
import { z } from 'zod';
import { emailSchema } from '../schemas/fields.ts';
import { errorAnswers, guardedErrors, IdParamsSchema } from './common.ts';
import { TrackPositionSchema } from './tours.contract.ts';

export const SHARE_DEFAULT_HOURS = 24;
export const SHARE_MAX_HOURS = 168;

export const ShareBody = z.object({
  expiresInHours: z
    .number({ error: 'expiresInHours must be a number of hours' })
    .int({ error: 'expiresInHours must be a whole number of hours' })
    .min(1, { error: 'A link lasts at least 1 hour' })
    .max(SHARE_MAX_HOURS, { error: `A link lasts at most ${SHARE_MAX_HOURS} hours` })
    .optional(),
  /** Also e-mail the link to this address (the receiver's). */
  email: emailSchema.optional(),
});

/** A token is 43 base64url characters; anything else is simply not found. */
const Token = z.string().min(1).max(200);
export const ShareTokenParams = z.object({ token: Token });
export const TrackingLinkParams = IdParamsSchema.extend({ token: Token });

export const ShareCreatedSchema = z.object({
  token: z.string(),
  /** The client page, relative to the site: `/shared/track/<token>`. */
  url: z.string(),
  expiresAt: z.string(),
  /** With `email`: whether the e-mail went out (the link works either way). */
  emailed: z.boolean().optional(),
});
export type ShareCreated = z.infer<typeof ShareCreatedSchema>;

export const stopKinds = ['pickup', 'dropoff'] as const;
export const SharedStopSchema = z.object({
  type: z.enum(stopKinds),
  city: z.string().nullable(),
  state: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  /** The load's pickup or dropoff window start. */
  scheduledAt: z.string().nullable(),
  arrivedAt: z.string().nullable().optional(),
  leftAt: z.string().nullable().optional(),
});
export type SharedStop = z.infer<typeof SharedStopSchema>;

export const SharedTrackSchema = z.object({
  loadGuid: z.string(),
  status: z.number(),
  statusName: z.string(),
  stops: z.array(SharedStopSchema),
  lastPosition: TrackPositionSchema.nullable(),
  eta: z.object({ at: z.string(), remainingMiles: z.number() }).nullable(),
  trail: z.array(TrackPositionSchema),
  /** When the link stops working. */
  expiresAt: z.string(),
});
export type SharedTrack = z.infer<typeof SharedTrackSchema>;

export const trackingLinkContract = {
  // The body may be left out (24 hours): declared optional, checked inside after the tour.
  share: {
    params: IdParamsSchema,
    body: ShareBody.nullish(),
    response: { 201: ShareCreatedSchema, ...guardedErrors, ...errorAnswers(400, 404, 409) },
  },
  revoke: {
    params: TrackingLinkParams,
    response: {
      204: z.null().meta({ description: 'The link no longer works' }),
      ...guardedErrors,
      ...errorAnswers(400, 404, 409),
    },
  },
  track: {
    params: ShareTokenParams,
    response: { 200: SharedTrackSchema, ...errorAnswers(400, 404, 429) },
  },
};
