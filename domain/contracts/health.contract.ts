/** Liveness and readiness of one server process, for load balancers and orchestrators: open to everyone, no tenant data. */
import { z } from 'zod';

/** GET /api/health/live: the process answers. */
export const LivenessSchema = z
  .object({
    status: z.literal('live'),
    /** Seconds since the process started. */
    uptimeSeconds: z.number(),
  })
  .meta({ id: 'Liveness' });
export type Liveness = z.infer<typeof LivenessSchema>;

/**
 * GET /api/health/ready: 200 `ready` when the migrations are done, the event store answers and every
 * read model is caught up here or run by another live process; 503 otherwise (`starting` while this
 * process catches up, `draining` from SIGTERM on, `unavailable` when the event store does not answer),
 * with the reasons in words.
 */
export const ReadinessSchema = z
  .object({
    status: z.enum(['ready', 'starting', 'draining', 'unavailable']),
    reasons: z.array(z.string()),
    checks: z.object({
      migrations: z.enum(['ok']),
      eventStore: z.enum(['ok', 'unavailable']),
      readModels: z.enum(['ok', 'catching-up', 'unknown']),
    }),
    /** When the drain began (ISO), null while serving. */
    drainingSince: z.string().nullable(),
  })
  .meta({ id: 'Readiness' });
export type Readiness = z.infer<typeof ReadinessSchema>;

export const livenessContract = { response: { 200: LivenessSchema } };
export const readinessContract = { response: { 200: ReadinessSchema, 503: ReadinessSchema } };
