/** Webhooks (docs/api.md "Webhooks"): an organization's signed event endpoints, their deliveries, replay and a test event. */
import { z } from 'zod';
import { errorAnswers, guardedErrors, IdParamsSchema, tableAnswerOf } from './common.ts';

export { IdParamsSchema as WebhookIdParamsSchema };

export const WEBHOOK_EVENT_TYPES = [
  'load.posted',
  'load.updated',
  'load.status',
  'proposal.created',
  'proposal.updated',
  'tour.status',
  'tour.event',
  'tour.position',
  'tour.pickup_held',
  'tour.pickup_released',
  'chat.message',
  'carrier.authority_changed',
  'accessorial.claimed',
  'accessorial.approved',
  'accessorial.disputed',
  'accessorial.answered',
  'accessorial.settled',
  'invoice.submitted',
  'invoice.approved',
  'invoice.disputed',
  'invoice.scheduled',
  'invoice.paid',
  'invoice.received',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Endpoints an organization keeps at most: each one is served side by side and replays on its own. */
export const MAX_WEBHOOKS = 10;
export const WEBHOOK_LIMIT_MESSAGE = `An organization keeps at most ${MAX_WEBHOOKS} webhooks: delete one first`;
export const WEBHOOK_REPLAY_RUNNING_MESSAGE =
  'A replay of this webhook is still queued: try again once its deliveries are delivered or failed';

export const WebhookBodySchema = z.object({
  url: z
    .string({ error: 'Please enter the URL' })
    .trim()
    .min(1, 'Please enter the URL')
    .max(2000, 'The URL is at most 2000 characters'),
  events: z
    .array(
      z.enum(WEBHOOK_EVENT_TYPES, { error: `Choose from ${WEBHOOK_EVENT_TYPES.join(', ')}` }),
      { error: 'Choose at least one event' },
    )
    .min(1, 'Choose at least one event')
    .max(WEBHOOK_EVENT_TYPES.length * 2, 'Choose each event once'),
  description: z.string().trim().max(500, 'The description is at most 500 characters').optional(),
});
export type WebhookBody = z.input<typeof WebhookBodySchema>;

export const WebhookReplayBodySchema = z.object({
  from: z.iso.datetime({
    offset: true,
    error: 'Please enter a time as ISO 8601, such as 2026-11-25T08:00:00Z',
  }),
});

export const WebhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  type: z.string(),
  status: z.enum(['delivered', 'retrying', 'failed']),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  at: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string(),
  createdAt: z.string(),
  lastDelivery: WebhookDeliverySchema.nullable(),
});
export type Webhook = z.infer<typeof WebhookSchema>;

export const WebhookCreatedSchema = z.object({
  id: z.string(),
  secret: z.string().meta({ description: '`whsec_` + base64: shown only in this answer' }),
});
export const WebhookDeliveriesSchema = tableAnswerOf(WebhookDeliverySchema);
export type WebhookDeliveries = z.infer<typeof WebhookDeliveriesSchema>;

const notFound = errorAnswers(400, 404);
export const webhooksAnswers = {
  list: { 200: z.array(WebhookSchema), ...guardedErrors },
  create: { 201: WebhookCreatedSchema, ...errorAnswers(400, 404, 409), ...guardedErrors },
  delete: {
    204: z.null().meta({ description: 'Deleted, with its deliveries' }),
    ...notFound,
    ...guardedErrors,
  },
  deliveries: { 200: WebhookDeliveriesSchema, ...notFound, ...guardedErrors },
  replay: {
    202: z.object({ queued: z.number().int() }),
    ...errorAnswers(400, 404, 409),
    ...guardedErrors,
  },
  test: { 202: z.object({ eventId: z.string() }), ...notFound, ...guardedErrors },
};
