/** One problem the server found in the input: a field (`path`) or, for imports, a row and field. */
export interface ApiFieldError {
  message: string;
  path?: string;
  row?: number;
  field?: string;
}

/** A non-2xx answer, carrying the server's own `message` and `errors` (API.md, Conventions). */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: ApiFieldError[];

  constructor(status: number, message: string, errors: ApiFieldError[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
  }
}

export interface RequestOptions {
  signal?: AbortSignal;
  headers?: HeadersInit;
}

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

async function request<T>(method: string, path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
  const headers = new Headers(options.headers);
  headers.set('Accept', 'application/json');
  if (body !== undefined) headers.set('Content-Type', 'application/json');

  const response = await fetch(`${apiBase}${path.startsWith('/') ? path : `/${path}`}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: options.signal,
  });
  const data = parseBody(await response.text());

  if (!response.ok) {
    const payload = isRecord(data) ? data : {};
    const message =
      typeof payload.message === 'string' && payload.message !== ''
        ? payload.message
        : `${response.status} ${response.statusText}`.trim();
    const errors = Array.isArray(payload.errors) ? payload.errors.filter(isFieldError) : [];
    throw new ApiError(response.status, message, errors);
  }
  return data as T;
}

export function apiGet<T>(path: string, options?: RequestOptions): Promise<T> {
  return request<T>('GET', path, undefined, options);
}

export function apiPost<T>(path: string, body: unknown, options?: RequestOptions): Promise<T> {
  return request<T>('POST', path, body, options);
}
