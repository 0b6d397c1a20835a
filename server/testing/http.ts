/**
 * Requests to the app under test as one signed-in user: `as(shipper).post('/api/loads', body)`
 * answers the status, the parsed JSON body (the text when the answer is not JSON) and the headers.
 * Requests go through `app.inject`, the whole Fastify pipeline without a socket.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { App } from '../app.ts';

export type Reply<Body = any> = {
  status: number;
  /** The parsed JSON answer; the text when it is not JSON; null when empty. */
  body: Body;
  text: string;
  raw: Buffer;
  headers: IncomingHttpHeaders;
};

/** Who sends: a signed-in test user (anything with a token), a bare access token, or nobody. */
export type Sender = { token: string } | string | null;

/** A table's query string: strings as they are, anything else (filters, order) as JSON. */
export type Query = Record<string, unknown>;

export type Upload = {
  /** Plain form fields, sent before the files (e.g. `status: '14'`). */
  fields?: Record<string, string>;
  /** Sent as the `data` field, JSON-encoded. */
  data?: unknown;
  files?: Record<string, { content: Buffer; filename?: string; type?: string }>;
};

export type Requester = {
  get(url: string, query?: Query, headers?: Record<string, string>): Promise<Reply>;
  post(url: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  put(url: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  patch(url: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  delete(url: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** A multipart/form-data request (POST unless told otherwise). */
  upload(url: string, form: Upload, method?: 'POST' | 'PUT'): Promise<Reply>;
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const tokenOf = (sender: Sender): string | null =>
  sender === null ? null : typeof sender === 'string' ? sender : sender.token;

export const withQuery = (url: string, query: Query = {}): string => {
  const entries = Object.entries(query).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return url;
  const search = new URLSearchParams(
    entries.map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
  );
  return `${url}${url.includes('?') ? '&' : '?'}${search}`;
};

/** A multipart/form-data body: plain fields first, then `data` as JSON, then each file. */
export function formData(form: Upload): { payload: Buffer; contentType: string } {
  const boundary = `----test${randomUUID().replaceAll('-', '')}`;
  const parts: Buffer[] = [];
  const field = (name: string, value: string) =>
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  for (const [name, value] of Object.entries(form.fields ?? {})) field(name, value);
  if (form.data !== undefined) field('data', JSON.stringify(form.data));
  for (const [name, file] of Object.entries(form.files ?? {})) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename ?? `${name}.bin`}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

function parsed(text: string, contentType: string | undefined): unknown {
  if (!text) return null;
  if (!contentType?.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `const as = requester(app)`, then `as(member).get(url)`; `as(null)` sends no token. */
export function requester(app: App): (sender: Sender) => Requester {
  return (sender) => {
    const token = tokenOf(sender);
    const send = async (
      method: Method,
      url: string,
      payload: unknown,
      headers: Record<string, string> = {},
    ): Promise<Reply> => {
      const response = await app.inject({
        method,
        url,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
        ...(payload === undefined ? {} : { payload: payload as string }),
      });
      return {
        status: response.statusCode,
        body: parsed(response.body, response.headers['content-type'] as string | undefined),
        text: response.body,
        raw: response.rawPayload,
        headers: response.headers as IncomingHttpHeaders,
      };
    };
    return {
      get: (url, query, headers) => send('GET', withQuery(url, query), undefined, headers),
      post: (url, body, headers) => send('POST', url, body, headers),
      put: (url, body, headers) => send('PUT', url, body, headers),
      patch: (url, body, headers) => send('PATCH', url, body, headers),
      delete: (url, body, headers) => send('DELETE', url, body, headers),
      upload: (url, form, method = 'POST') => {
        const { payload, contentType } = formData(form);
        return send(method, url, payload, { 'content-type': contentType });
      },
    };
  };
}
