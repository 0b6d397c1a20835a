/**
 * Tours: the tables, assignment, statuses, timeline, positions, tracking, chat and ratings. Dates
 * are ISO strings; a time of a stop is read in its `timezone`.
 */
import { roundCoordinate } from '../shared/coordinates.ts';
import { z } from 'zod';
import { TourStatus, tourStatuses, type TourStatusId } from '../catalog.ts';
import { observedTime } from '../schemas/observedTime.ts';
import { isSaneInstant, saneTimeMessage } from '../schemas/saneTime.ts';
import { manualTourEventTypes } from '../tours/tour.types.ts';
import {
  errorAnswers,
  guardedErrors,
  IdParamsSchema,
  MessageAnswerSchema,
  tableAnswerOf,
} from './common.ts';

export const AssignParams = z.object({
  id: z.uuid('Not a valid id'),
  assigneeId: z.uuid('Not a valid id'),
});

export const StatusBody = z.object({
  status: z
    .number({ error: 'Please choose a status' })
    .refine((status) => tourStatuses.some((entry) => entry.id === status), {
      error: 'Unknown tour status',
    }),
  message: z
    .string()
    .trim()
    .max(2000, { error: 'A message can have at most 2000 characters' })
    .default(''),
});
export const EventBody = z.object({
  type: z.enum(manualTourEventTypes, {
    error: `type is one of ${manualTourEventTypes.join(', ')}`,
  }),
  message: z
    .string()
    .trim()
    .max(2000, { error: 'A message can have at most 2000 characters' })
    .default(''),
  stopId: z
    .string()
    .trim()
    .max(100)
    .nullish()
    .transform((value) => value || null),
});
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
export const ChatBody = z.object({
  message: z
    .string({ error: 'Please enter a message' })
    .max(2000, { error: 'A message can have at most 2000 characters' }),
});
export const RatingEntrySchema = z.object({
  criteria: z.number().int().min(1).max(1000),
  rating: z.number(),
});
export type RatingEntry = z.infer<typeof RatingEntrySchema>;
export const RateBody = z.object({
  ratings: z
    .array(RatingEntrySchema)
    .min(1, { error: 'Rate every criterion once' })
    .max(20, { error: 'Rate every criterion once' }),
});

const Person = z.object({ id: z.string(), name: z.string().nullable() });

/** A pickup or dropoff as a tours row shows it; `time` is ISO, read in `timezone`. */
export const TourPlaceSchema = z.object({
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  time: z.string().nullable(),
  timezone: z.string().nullable(),
});
export type TourPlace = z.infer<typeof TourPlaceSchema>;

/** One row of GET /api/tours and /api/tours/assigned. */
export const TourRowSchema = z.object({
  id: z.string(),
  loadId: z.string(),
  loadGuid: z.string(),
  status: z.number(),
  statusName: z.string(),
  driver: Person.nullable(),
  shipper: z.string().nullable(),
  carrier: z.string().nullable(),
  /** The agreed price; null for a driver. */
  price: z.number().nullable(),
  eldTruckName: z.string().nullable(),
  pickup: TourPlaceSchema,
  dropoff: TourPlaceSchema,
  lastPositionAt: z.string().nullable(),
  openedAt: z.string().nullable(),
  shipperRated: z.boolean(),
  carrierRated: z.boolean(),
  actions: z.array(z.number()),
});
export type TourRow = z.infer<typeof TourRowSchema>;
export const ToursTableSchema = tableAnswerOf(TourRowSchema);

export const TourStopSchema = z.object({
  id: z.string(),
  locationType: z.number(),
  name: z.string(),
  address: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  arrived: z.boolean(),
  departed: z.boolean(),
});

/** GET /api/tours/{id}. */
export const TourDetailSchema = z.object({
  id: z.string(),
  loadId: z.string(),
  loadGuid: z.string(),
  proposalId: z.string(),
  shipperOrganizationId: z.string(),
  carrierOrganizationId: z.string(),
  status: z.literal(Object.values(TourStatus) as TourStatusId[]),
  statusName: z.string(),
  assignee: Person.nullable(),
  /** The agreed price; null for a driver, who is refused the contract and the rate confirmation too. */
  price: z.number().nullable(),
  eldTruckName: z.string().nullable(),
  contractFileId: z.string().nullable(),
  stops: z.array(TourStopSchema),
  ratings: z.object({ shipperRated: z.boolean(), carrierRated: z.boolean() }),
  openedAt: z.string(),
  updatedAt: z.string(),
});
export type TourDetail = z.infer<typeof TourDetailSchema>;

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

/** GET /api/tours/track/{id}: the tour with its recent trail, last position and ETA. */
export const TourTrackSchema = TourDetailSchema.extend({
  stops: z.array(TrackStopSchema),
  trail: z.array(TrackPositionSchema),
  lastPosition: TrackPositionSchema.nullable(),
  eta: z.object({ at: z.string(), remainingMiles: z.number() }).nullable(),
  nextStopId: z.string().nullable(),
});
export type TourTrack = z.infer<typeof TourTrackSchema>;

export const TourPositionSchema = TrackPositionSchema.extend({ tourId: z.string() });

export const timelineTypes = ['status', 'note', 'arrived', 'departed', 'delay', 'issue'] as const;
export type TimelineType = (typeof timelineTypes)[number];
export const TimelineEntrySchema = z.object({
  id: z.string(),
  type: z.enum(timelineTypes),
  message: z.string(),
  stopId: z.string().nullable(),
  at: z.string(),
  user: Person.nullable(),
});
export type TimelineEntry = z.infer<typeof TimelineEntrySchema>;

export const AssigneeSchema = z.object({
  id: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  openTours: z.array(z.object({ id: z.string(), loadGuid: z.string() })),
});
export type Assignee = z.infer<typeof AssigneeSchema>;

/** GET /api/tours/rating/{id}: the criteria of the caller's side, its own rating and the other side's. */
export const RatingAnswerSchema = z.object({
  tourId: z.string(),
  status: z.number(),
  open: z.boolean(),
  side: z.enum(['shipper', 'carrier']),
  criteria: z.array(z.object({ id: z.number(), name: z.string() })),
  mine: z.array(RatingEntrySchema).nullable(),
  theirs: z.array(RatingEntrySchema).nullable(),
});
export type RatingAnswer = z.infer<typeof RatingAnswerSchema>;

export const ChatMessageSchema = z.object({
  id: z.string(),
  user: z.object({ id: z.string(), name: z.string() }),
  organizationId: z.string().nullable(),
  text: z.string(),
  at: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const CreatedIdSchema = z.object({ id: z.string() });
export const StatusChangedSchema = z.object({
  id: z.string(),
  status: z.number(),
  statusName: z.string(),
});
export const AcceptedPositionsSchema = z.object({ accepted: z.number() });
export type CreatedId = z.infer<typeof CreatedIdSchema>;
export type StatusChanged = z.infer<typeof StatusChangedSchema>;
export type AcceptedPositions = z.infer<typeof AcceptedPositionsSchema>;

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

const idErrors = { ...guardedErrors, ...errorAnswers(400, 404) };

export const toursContract = {
  table: { response: { 200: ToursTableSchema, ...guardedErrors, ...errorAnswers(400) } },
  assignees: { response: { 200: z.array(AssigneeSchema), ...guardedErrors } },
  rating: { params: IdParamsSchema, response: { 200: RatingAnswerSchema, ...idErrors } },
  rate: {
    params: IdParamsSchema,
    body: RateBody,
    response: { 201: MessageAnswerSchema, ...idErrors, ...errorAnswers(409) },
  },
  positions: {
    params: IdParamsSchema,
    querystring: PositionsQueryDoc,
    response: { 200: z.array(TourPositionSchema), ...idErrors },
  },
  track: { params: IdParamsSchema, response: { 200: TourTrackSchema, ...idErrors } },
  tour: { params: IdParamsSchema, response: { 200: TourDetailSchema, ...idErrors } },
  assign: {
    params: AssignParams,
    response: { 200: MessageAnswerSchema, ...idErrors, ...errorAnswers(409) },
  },
  changeStatus: {
    params: IdParamsSchema,
    body: StatusBody,
    response: { 200: StatusChangedSchema, ...idErrors, ...errorAnswers(409) },
  },
  events: { params: IdParamsSchema, response: { 200: z.array(TimelineEntrySchema), ...idErrors } },
  addEvent: {
    params: IdParamsSchema,
    body: EventBody,
    response: { 201: CreatedIdSchema, ...idErrors, ...errorAnswers(409) },
  },
  recordPositions: {
    params: IdParamsSchema,
    body: PositionsBodyDoc,
    response: { 202: AcceptedPositionsSchema, ...idErrors, ...errorAnswers(409) },
  },
  chat: { params: IdParamsSchema, response: { 200: z.array(ChatMessageSchema), ...idErrors } },
  postChat: {
    params: IdParamsSchema,
    body: ChatBody,
    response: { 201: CreatedIdSchema, ...idErrors, ...errorAnswers(409) },
  },
};
