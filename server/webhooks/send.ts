/**
 * One attempt of a webhook delivery: POST to the checked address (see addresses.ts), 5 s for the
 * whole exchange, at most 64 KB of the answer read (then the connection is dropped). Never throws:
 * the outcome says what happened.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolveWebhookTarget, WebhookAddressError, type Resolver } from './addresses.ts';

export const RESPONSE_LIMIT_BYTES = 64 * 1024;

export type AttemptOutcome = { ok: boolean; status: number | null; error: string | null };

export async function postWebhook(options: {
  url: string;
  body: string;
  headers: Record<string, string>;
  allowPrivate: boolean;
  timeoutMs: number;
  resolver?: Resolver;
}): Promise<AttemptOutcome> {
  let target;
  try {
    target = await resolveWebhookTarget(options.url, options.allowPrivate, options.resolver);
  } catch (error) {
    return {
      ok: false,
      status: null,
      error: error instanceof WebhookAddressError ? error.message : 'The URL could not be resolved',
    };
  }
  const { url, address, family } = target;
  // The connection goes to the address just checked, whatever the name resolves to now.
  const pinned = ((
    _hostname: string,
    lookupOptions: { all?: boolean },
    callback: (...args: unknown[]) => void,
  ) => {
    if (lookupOptions?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        agent: false,
        lookup: pinned,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(options.body),
          'user-agent': 'FreightMarketplace-Webhooks/1',
          ...options.headers,
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const outcome = {
          ok: status >= 200 && status < 300,
          status,
          error: status >= 200 && status < 300 ? null : `HTTP ${status}`,
        };
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= RESPONSE_LIMIT_BYTES) {
            finish(outcome);
            response.destroy();
          }
        });
        response.on('end', () => finish(outcome));
        response.on('error', () => finish(outcome));
        response.on('close', () => finish(outcome));
      },
    );
    const timer = setTimeout(() => {
      finish({
        ok: false,
        status: null,
        error: `No answer within ${Math.round(options.timeoutMs / 100) / 10} s`,
      });
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (error) =>
      finish({ ok: false, status: null, error: error.message || 'Connection failed' }),
    );
    request.end(options.body);
  });
}
