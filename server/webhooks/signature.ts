/**
 * Standard Webhooks signing (docs/api.md "Webhooks"): the secret is `whsec_` + base64 of random
 * bytes; a delivery carries `webhook-id`, `webhook-timestamp` (Unix seconds) and
 * `webhook-signature: v1,<base64 HMAC-SHA256(secret bytes, "<id>.<timestamp>.<body>")>`.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** A new secret: 32 random bytes. */
export const newWebhookSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

const secretBytes = (secret: string) =>
  Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', secretBytes(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers of one attempt. */
export function webhookHeaders(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, id, timestamp, body),
  };
}
