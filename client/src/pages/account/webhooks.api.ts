import { apiDelete, apiGet, apiPost } from '../../api/http.ts';
import type {
  Webhook,
  WebhookBody,
  WebhookDeliveries,
} from '../../../../domain/contracts/webhooks.contract.ts';

export { WEBHOOK_EVENT_TYPES } from '../../../../domain/contracts/webhooks.contract.ts';
export type { Webhook, WebhookDelivery } from '../../../../domain/contracts/webhooks.contract.ts';

/** docs/api.md "Webhooks": the organization's endpoints, their deliveries, replay and a test event. */
export const listWebhooks = (signal?: AbortSignal) => apiGet<Webhook[]>('/webhooks', { signal });
export const createWebhook = (body: WebhookBody) =>
  apiPost<{ id: string; secret: string }>('/webhooks', body);
export const deleteWebhook = (id: string) => apiDelete<null>(`/webhooks/${encodeURIComponent(id)}`);
export const webhookDeliveries = (id: string, signal?: AbortSignal) =>
  apiGet<WebhookDeliveries>(`/webhooks/${encodeURIComponent(id)}/deliveries?page=1&pageSize=20`, {
    signal,
  });
export const replayWebhook = (id: string, from: string) =>
  apiPost<{ queued: number }>(`/webhooks/${encodeURIComponent(id)}/replay`, { from });
export const testWebhook = (id: string) =>
  apiPost<{ eventId: string }>(`/webhooks/${encodeURIComponent(id)}/test`);
