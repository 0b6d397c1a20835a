/** Read models in trouble (Superadmin): where each stands, its parked events, retrying one, rebuilding one. */
import { z } from 'zod';
import { errorAnswers, guardedErrors } from './common.ts';
import { LogPositionSchema } from './platform.contract.ts';

export const ReadModelSchema = z.object({
  projection: z.string(),
  version: z.number(),
  status: z.enum(['running', 'catching-up', 'stalled', 'rebuilding']),
  position: LogPositionSchema,
  lag: z.number(),
  parked: z.number(),
  /** While rebuilding: how far the new tables are (progress from 0 to 1). */
  rebuild: z.object({ progress: z.number(), position: LogPositionSchema }).nullable(),
});
export type ReadModel = z.infer<typeof ReadModelSchema>;
export type ReadModelStatus = ReadModel['status'];

/**
 * A reactor on the log (the pickup truck check, the webhooks) as the Superadmin sees it beside the
 * read models: where its checkpoint stands and how many events it is behind. Stalled: run by no
 * process, never started, or behind and not moving.
 */
export const ReactorLagSchema = z.object({
  reactor: z.string(),
  status: z.enum(['running', 'catching-up', 'stalled']),
  position: LogPositionSchema,
  lag: z.number(),
  /** When its checkpoint last moved; null before it ever ran. */
  updatedAt: z.string().nullable(),
});
export type ReactorLag = z.infer<typeof ReactorLagSchema>;

/** An event a read model set aside because applying it failed. */
export const ParkedEventSchema = z.object({
  eventId: z.string(),
  streamId: z.string(),
  type: z.string(),
  position: z.string(),
  error: z.string(),
  at: z.string(),
});
export type ParkedEvent = z.infer<typeof ParkedEventSchema>;

export const ProjectionNameParams = z.object({ name: z.string().min(1).max(100) });
export const ParkedEventParams = ProjectionNameParams.extend({
  eventId: z.uuid('Not a valid event id'),
});

export const RetryAnswerSchema = z.object({ eventId: z.string(), applied: z.literal(true) });
export type RetryAnswer = z.infer<typeof RetryAnswerSchema>;
export const RebuildAnswerSchema = z.object({
  projection: z.string(),
  status: z.literal('rebuilding'),
});
export type RebuildAnswer = z.infer<typeof RebuildAnswerSchema>;

export const projectionsContract = {
  list: { response: { 200: z.array(ReadModelSchema), ...guardedErrors } },
  reactors: { response: { 200: z.array(ReactorLagSchema), ...guardedErrors } },
  parked: {
    params: ProjectionNameParams,
    response: { 200: z.array(ParkedEventSchema), ...guardedErrors, ...errorAnswers(400, 404) },
  },
  /** 409 with the error when the event still fails. */
  retry: {
    params: ParkedEventParams,
    response: { 200: RetryAnswerSchema, ...guardedErrors, ...errorAnswers(400, 404, 409) },
  },
  rebuild: {
    params: ProjectionNameParams,
    response: { 202: RebuildAnswerSchema, ...guardedErrors, ...errorAnswers(400, 404) },
  },
};
