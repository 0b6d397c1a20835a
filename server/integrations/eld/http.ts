/**
 * The one way the ELD adapters call their providers: a GET for JSON with a time limit, the
 * credentials' refusal told apart from an outage, and 429 answered by waiting as long as the
 * provider asks (Retry-After) when that is short, else passed on as a 503 with the same delay.
 */
import { CredentialsRefusedError, ProviderUnavailableError } from './provider.ts';

export type HttpOptions = {
  /** Each request, body included, must complete within this time. */
  timeoutMs?: number;
  /** A 429 whose Retry-After is at most this long is waited out and retried; a longer one is passed on. */
  maxRetryWaitMs?: number;
  /** How many times one request is retried after a 429. */
  rateLimitRetries?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
};

export const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_RETRY_WAIT_MS = 10_000;
/** When a 429 names no delay. */
const DEFAULT_RETRY_AFTER_MS = 1_000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110, 10.2.3). */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The provider's own words for a refusal, when its body has them. */
async function reasonIn(response: Response): Promise<string | null> {
  try {
    const text = await response.text();
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      for (const key of ['message', 'error_message', 'error_description', 'error']) {
        const value = body[key];
        if (typeof value === 'string' && value.trim()) return value.trim();
      }
    } catch {
      // Not JSON: a short plain-text body is still the provider's reason.
      if (text.trim() && text.length <= 200 && !text.includes('<')) return text.trim();
    }
  } catch {
    // The body could not be read; the status says enough.
  }
  return null;
}

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

export async function getJson(
  provider: string,
  url: URL,
  headers: Record<string, string>,
  options: HttpOptions = {},
): Promise<unknown> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetryWaitMs = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
  const retries = options.rateLimitRetries ?? 1;
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? delay;
  const now = options.now ?? Date.now;
  for (let attempt = 0; ; attempt++) {
    const signal = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await doFetch(url, {
        headers: { accept: 'application/json', ...headers },
        signal,
      });
    } catch (error) {
      if (isTimeout(error))
        throw new ProviderUnavailableError(
          `${provider} did not answer within ${Math.round(timeoutMs / 100) / 10} seconds`,
        );
      throw new ProviderUnavailableError(`${provider} could not be reached`);
    }
    if (response.status === 401 || response.status === 403) {
      const reason = await reasonIn(response);
      throw new CredentialsRefusedError(
        provider,
        `${provider} refused the credentials${reason ? `: ${reason}` : ` (${response.status})`}`,
      );
    }
    if (response.status === 429) {
      const waitMs =
        retryAfterMs(response.headers.get('retry-after'), now()) ?? DEFAULT_RETRY_AFTER_MS;
      await response.body?.cancel().catch(() => undefined);
      if (attempt < retries && waitMs <= maxRetryWaitMs) {
        await sleep(waitMs);
        continue;
      }
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new ProviderUnavailableError(
        `${provider} is limiting requests: please try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
        seconds,
      );
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new ProviderUnavailableError(
        `${provider} answered with an error (${response.status}): please try again later`,
      );
    }
    try {
      return await response.json();
    } catch (error) {
      if (isTimeout(error))
        throw new ProviderUnavailableError(
          `${provider} did not answer within ${Math.round(timeoutMs / 100) / 10} seconds`,
        );
      throw new ProviderUnavailableError(`${provider} sent an answer that is not JSON`);
    }
  }
}

/** A finite number, or null. */
export const numberOrNull = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** An ISO time from a provider's timestamp, or null when it is not one. */
export const isoOrNull = (value: unknown): string | null => {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
};

export const validCoordinates = (latitude: number | null, longitude: number | null): boolean =>
  latitude !== null &&
  longitude !== null &&
  Math.abs(latitude) <= 90 &&
  Math.abs(longitude) <= 180 &&
  !(latitude === 0 && longitude === 0);
