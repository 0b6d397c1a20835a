import { messageOfCode } from '../../../domain/contracts/errorCodes.ts';
import {
  clearTokens,
  readTokenHandOvers,
  readTokens,
  recordTokenHandOver,
  signOutLocally,
  writeTokens,
} from '../state/session.ts';

/** One problem the server found in the input: a field (`path`) or, for imports, a row and field. */
export interface ApiFieldError {
  message: string;
  path?: string;
  row?: number;
  field?: string;
  /** The stable code of `message` (domain/contracts/errorCodes.ts), when it has one. */
  code?: string;
}

/** The specification's text when the server's answer carries no message of its own (section 8). */
export const SOMETHING_WENT_WRONG = 'Something went wrong!';

/**
 * A non-2xx answer with its stable `code` and `errors` (docs/api.md "Conventions"). The client
 * translates by code: `message` (and each field error's) is the catalog's text of the code
 * (domain/contracts/errorCodes.ts), which the message tables translate however the server words it
 * today, else the server's own text.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: ApiFieldError[];
  readonly code: string | undefined;

  constructor(status: number, message: string, errors: ApiFieldError[] = [], code?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.code = code;
  }
}

export interface RequestOptions {
  signal?: AbortSignal;
  headers?: HeadersInit;
  /** Send the bearer token and refresh it on a 401 (default). Off for sign-in and the public calls. */
  auth?: boolean;
}

/** After a failed refresh the user is signed out this much later (specification section 4). */
export const SIGN_OUT_DELAY_MS = 500;

const apiBase = '/api';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isFieldError(value: unknown): value is ApiFieldError {
  return isRecord(value) && typeof value.message === 'string';
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // not JSON (a proxy's error page, say): the status speaks instead
  }
}

function url(path: string): string {
  return `${apiBase}${path.startsWith('/') ? path : `/${path}`}`;
}

/**
 * The consistency token (docs/api.md "Consistency"): a command's answer names the log position of
 * its change in `X-Log-Position`; the next reads carry the newest one, so the server answers them
 * from read models that hold the change. Dropped once a read that carried it succeeded.
 */
export const LOG_POSITION_HEADER = 'X-Log-Position';
let logPosition: string | null = null;

const positionOf = (token: string): [bigint, bigint] | null => {
  const match = /^(\d{1,20})\.(\d{1,20})$/.exec(token);
  return match ? [BigInt(match[1]!), BigInt(match[2]!)] : null;
};

/** Keeps the newer of the stored token and the one an answer brought. */
function rememberLogPosition(response: Response): void {
  const token = response.headers?.get(LOG_POSITION_HEADER);
  const next = token ? positionOf(token) : null;
  if (!token || !next) return;
  const known = logPosition ? positionOf(logPosition) : null;
  if (!known || next[0] > known[0] || (next[0] === known[0] && next[1] > known[1]))
    logPosition = token;
}

async function send(
  method: string,
  path: string,
  body: unknown,
  options: RequestOptions,
  token: string | null,
): Promise<Response> {
  const headers = new Headers(options.headers);
  headers.set('Accept', 'application/json');
  const carried = method === 'GET' ? logPosition : null;
  if (carried) headers.set(LOG_POSITION_HEADER, carried);
  const multipart = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !multipart) headers.set('Content-Type', 'application/json');
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const response = await fetch(url(path), {
    method,
    headers,
    body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
    signal: options.signal,
  });
  // The server waited for the carried position before this answer: later reads need not.
  if (carried && response.ok && logPosition === carried) logPosition = null;
  rememberLogPosition(response);
  return response;
}

async function toApiError(response: Response): Promise<ApiError> {
  const payload = parseBody(await response.text());
  const data = isRecord(payload) ? payload : {};
  const code = typeof data.code === 'string' ? data.code : undefined;
  const message =
    messageOfCode(code) ??
    (typeof data.message === 'string' && data.message !== '' ? data.message : SOMETHING_WENT_WRONG);
  const errors = (Array.isArray(data.errors) ? data.errors.filter(isFieldError) : []).map(
    (item) => ({ ...item, message: messageOfCode(item.code) ?? item.message }),
  );
  return new ApiError(response.status, message, errors, code);
}

// Concurrent 401s share one refresh: a refresh token is single use.
let refreshing: Promise<string | null> | null = null;
let signOutTimer: ReturnType<typeof setTimeout> | null = null;

async function refreshAccessToken(): Promise<string | null> {
  const refreshToken = readTokens()?.refreshToken;
  if (!refreshToken) return null;
  try {
    const response = await send('POST', '/refresh-token', { refreshToken }, {}, null);
    if (!response.ok) return null;
    const answer = parseBody(await response.text());
    if (!isRecord(answer) || typeof answer.accessToken !== 'string') return null;
    const next = typeof answer.refreshToken === 'string' ? answer.refreshToken : refreshToken;
    writeTokens({ accessToken: answer.accessToken, refreshToken: next });
    return answer.accessToken;
  } catch {
    return null;
  }
}

/** Runs `body` while no other tab of this origin runs it (Web Locks); at once where there are none. */
function inEveryTabAlone<T>(name: string, body: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? locks.request(name, body) : body();
}

/**
 * A fresh access token (stored for every caller), or null when the session cannot be refreshed.
 * Everyone shares one refresh at a time: 401s of the HTTP client and the realtime socket's renewal,
 * in this tab and in the others (the tokens are shared, and a refresh token is single use: two tabs
 * refreshing with the same one would end the session). `stale` is the access token the caller found
 * wanting: when another tab has stored a different one meanwhile, that one is the answer.
 */
export function refreshOnce(
  stale: string | null = readTokens()?.accessToken ?? null,
): Promise<string | null> {
  refreshing ??= inEveryTabAlone('freight-token-refresh', async () => {
    const stored = readTokens()?.accessToken ?? null;
    if (stored && stored !== stale) return stored;
    // Another tab may have replaced this token (and maybe its successor) while this one waited.
    const handOvers = stale ? await readTokenHandOvers() : [];
    const newest = handOvers.at(-1);
    if (newest && handOvers.some((handOver) => handOver.replaced === stale)) {
      writeTokens(newest.tokens);
      return newest.tokens.accessToken;
    }
    const fresh = await refreshAccessToken();
    const tokens = readTokens();
    if (fresh && stale && tokens) await recordTokenHandOver({ replaced: stale, tokens });
    return fresh;
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** The refresh failed: stored tokens are cleared and the user is signed out after 500 ms. */
function scheduleSignOut(): void {
  clearTokens();
  if (signOutTimer) return;
  signOutTimer = setTimeout(() => {
    signOutTimer = null;
    signOutLocally();
  }, SIGN_OUT_DELAY_MS);
}

/**
 * One call to the API, answered as a Response. A 401 triggers one token refresh and one retry with
 * the new token; when the refresh fails, the user is signed out 500 ms later.
 */
async function fetchWithAuth(
  method: string,
  path: string,
  body: unknown,
  options: RequestOptions,
): Promise<Response> {
  const auth = options.auth ?? true;
  const token = auth ? (readTokens()?.accessToken ?? null) : null;
  let response = await send(method, path, body, options, token);

  if (response.status === 401 && auth && token) {
    const fresh = await refreshOnce(token);
    if (fresh) response = await send(method, path, body, options, fresh);
    else scheduleSignOut();
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

/** One call to the API, its JSON answer parsed (undefined for an empty answer). */
export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const response = await fetchWithAuth(method, path, body, options);
  if (response.status === 204) return undefined as T;
  return parseBody(await response.text()) as T;
}

/** A stored file (a document, a signature) as a Blob, fetched with the bearer token. */
export async function apiGetBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  return (await fetchWithAuth('GET', path, undefined, options)).blob();
}

export function apiGet<T>(path: string, options?: RequestOptions): Promise<T> {
  return request<T>('GET', path, undefined, options);
}

export function apiPost<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
  return request<T>('POST', path, body, options);
}

export function apiPut<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
  return request<T>('PUT', path, body, options);
}

export function apiDelete<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
  return request<T>('DELETE', path, body, options);
}

/** A multipart request as docs/api.md describes it: the JSON fields in `data`, each file in its own field. */
export function multipartBody(
  data: unknown,
  files: Record<string, File | Blob | null | undefined> = {},
): FormData {
  const form = new FormData();
  form.append('data', JSON.stringify(data));
  for (const [name, file] of Object.entries(files)) if (file) form.append(name, file);
  return form;
}

/** The text to show for a failed call: the server's message, or 'Something went wrong!'. */
export function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : SOMETHING_WENT_WRONG;
}
