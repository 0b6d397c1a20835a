/**
 * Tours: the routes of /api/tours with assignment, statuses and the timeline; the tables, tracking,
 * chat and ratings each have their own module, re-exported here. Dates are ISO strings; a time of a
 * stop is read in its `timezone`.
 */
import { z } from 'zod';
import { tourStatuses } from '../catalog.ts';
import { manualTourEventTypes } from '../tours/tour.types.ts';
import {
  checkedInside,
  errorAnswers,
  guardedErrors,
  IdParamsSchema,
  MessageAnswerSchema,
} from './common.ts';
import { AssignBody } from './dockRelease.contract.ts';
import { ChatBody, ChatMessageSchema } from './tourChat.contract.ts';
import { RateBody, RatingAnswerSchema } from './tourRatings.contract.ts';
import {
  AssigneeSchema,
  TimelineEntrySchema,
  TourDetailSchema,
  ToursTableSchema,
} from './tourTables.contract.ts';
import {
  PositionsBodyDoc,
  PositionsQueryDoc,
  TourPositionSchema,
  TourTrackSchema,
} from './tourTracking.contract.ts';

export * from './tourChat.contract.ts';
export * from './tourRatings.contract.ts';
export * from './tourTables.contract.ts';
export * from './tourTracking.contract.ts';

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
    // Optional (older callers send none): checked inside, after the tour.
    body: checkedInside(AssignBody).nullish(),
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
