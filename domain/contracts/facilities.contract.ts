/** Facilities (docs/api.md "Facilities"): a facility's page, drivers' tags and shippers' replies. */
import { z } from 'zod';
import { facilityTags, REPLY_MAX } from '../facilities/facility.ts';
import { errorAnswers, guardedErrors, IdParamsSchema } from './common.ts';

export const FacilityTagsBodySchema = z.object({
  tags: z
    .array(z.enum(facilityTags, { error: `A tag is one of ${facilityTags.join(', ')}` }), {
      error: 'tags must be a list of tags',
    })
    .min(1, { error: 'Choose at least one tag' })
    .max(facilityTags.length, { error: `At most ${facilityTags.length} tags` }),
});
export type FacilityTagsBody = z.infer<typeof FacilityTagsBodySchema>;

export const FacilityReplyBodySchema = z.object({
  text: z
    .string({ error: 'Please write your reply' })
    .trim()
    .min(1, { error: 'Please write your reply' })
    .max(REPLY_MAX, { error: `The reply can have at most ${REPLY_MAX} characters` }),
});
export type FacilityReplyBody = z.infer<typeof FacilityReplyBodySchema>;

/** GET facilities/{id}: figures are null under three visits behind them. */
export const FacilitySchema = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  /** Visits with a recorded arrival and departure. */
  visits: z.number().int(),
  /** Minutes from arrival to departure. */
  timeOnSite: z.object({ median: z.number().nullable(), p75: z.number().nullable() }),
  /** Per weekday (1 Monday to 7 Sunday) and hour of arrival, in the stop's time zone. */
  byWeekday: z.array(
    z.object({
      weekday: z.number().int(),
      hour: z.number().int(),
      median: z.number().nullable(),
      visits: z.number().int(),
    }),
  ),
  /** 0 to 1: arrivals by the appointment plus the grace. */
  onTimeShare: z.number().nullable(),
  /** The arrivals with an appointment behind `onTimeShare`. */
  onTimeVisits: z.number().int(),
  /** 0 to 1: visits with a detention claim. */
  detentionShare: z.number().nullable(),
  tags: z.array(z.object({ tag: z.enum(facilityTags), count: z.number().int() })),
  replies: z.array(
    z.object({
      id: z.string(),
      text: z.string(),
      at: z.string(),
      organization: z.string().nullable(),
    }),
  ),
  /** The caller may tag it (a driver whose tour left it) and reply (its shipper). */
  canTag: z.boolean(),
  canReply: z.boolean(),
});
export type FacilityAnswer = z.infer<typeof FacilitySchema>;

/** A stop's facility beside a load: its median time on site (null under three visits) and its visits. */
export const FacilityBadgeSchema = z.object({
  timeOnSiteMedian: z.number().nullable(),
  visits: z.number().int(),
});
export type FacilityBadge = z.infer<typeof FacilityBadgeSchema>;

/** A marketplace row's pickup and delivery facilities, each null until the read model has it. */
const EndFacilitySchema = z.object({ facilityId: z.string(), facility: FacilityBadgeSchema });
export const LoadEndFacilitiesSchema = z.object({
  pickup: EndFacilitySchema.nullable(),
  delivery: EndFacilitySchema.nullable(),
});

/** GET tours/{id}/facilities: each stop's facility, in route order. */
export const TourFacilitySchema = z.object({
  stopId: z.string(),
  facilityId: z.string(),
  facility: FacilityBadgeSchema,
});
export type TourFacility = z.infer<typeof TourFacilitySchema>;

export const facilitiesContract = {
  ofTour: {
    params: IdParamsSchema,
    response: { 200: z.array(TourFacilitySchema), ...guardedErrors, ...errorAnswers(400, 404) },
  },
  get: {
    params: IdParamsSchema,
    response: { 200: FacilitySchema, ...guardedErrors, ...errorAnswers(400, 404) },
  },
  tags: {
    params: IdParamsSchema,
    body: FacilityTagsBodySchema,
    response: { 201: FacilitySchema, ...guardedErrors, ...errorAnswers(400, 404) },
  },
  replies: {
    params: IdParamsSchema,
    body: FacilityReplyBodySchema,
    response: { 201: FacilitySchema, ...guardedErrors, ...errorAnswers(400, 404) },
  },
};
