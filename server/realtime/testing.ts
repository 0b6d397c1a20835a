/**
 * Test helpers for realtime: real socket.io clients that keep what they hear, tokens made to
 * measure (expired, or expiring soon), and a shipment driven through HTTP up to a running tour.
 */
import { createSigner } from 'fast-jwt';
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import type { Logger } from 'pino';
import type { Test } from 'tap';
import { TOKEN_AUDIENCE, TOKEN_ISSUER, type AccessClaims } from '../auth/tokens.ts';
import { bearer, multipart, PASSWORD, PDF } from '../identity/fixtures.ts';
import type { Config } from '../config.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

export type Heard = { event: string; payload: any; at: number };

/** A connected socket.io client and everything it heard since the last `clear`. */
export type Listener = {
  name: string;
  socket: Socket;
  heard: Heard[];
  clear(): void;
  close(): void;
};

export function connectSocket(
  baseUrl: string,
  token: unknown,
  options: { transports?: ('websocket' | 'polling')[]; headers?: Record<string, string> } = {},
): Socket {
  return io(baseUrl, {
    path: '/socket.io',
    auth: token === undefined ? {} : { token },
    transports: options.transports ?? ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 5000,
    ...(options.headers ? { extraHeaders: options.headers } : {}),
  });
}

/** Resolves once connected; rejects with the server's refusal (its message) when refused. */
export function connected(socket: Socket): Promise<Socket> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => reject(error));
  });
}

export async function listen(baseUrl: string, name: string, token: string): Promise<Listener> {
  const socket = await connected(connectSocket(baseUrl, token));
  const heard: Heard[] = [];
  socket.onAny((event: string, payload: unknown) =>
    heard.push({ event, payload, at: performance.now() }),
  );
  return {
    name,
    socket,
    heard,
    clear: () => {
      heard.length = 0;
    },
    close: () => {
      socket.disconnect();
    },
  };
}

/** `tour:watch` with its acknowledgement. */
export const watchTour = (
  socket: Socket,
  tourId: unknown,
): Promise<{ ok: boolean; error?: string }> =>
  socket.timeout(5000).emitWithAck('tour:watch', { tourId });

/** Resolves with the time the socket was closed by the server (performance.now()) and the reason. */
export const closedByServer = (socket: Socket): Promise<{ at: number; reason: string }> =>
  new Promise((resolve) =>
    socket.once('disconnect', (reason) => resolve({ at: performance.now(), reason })),
  );

export const decodeClaims = (token: string): AccessClaims =>
  JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

/** An access token with the claims of `like`, signed with the server's secret, valid from `iat` to `exp` (seconds). */
export function tokenLike(
  secret: string,
  like: string,
  times: { iat: number; exp: number },
): string {
  const sign = createSigner({
    key: secret,
    algorithm: 'HS256',
    iss: TOKEN_ISSUER,
    aud: TOKEN_AUDIENCE,
  });
  const { sub, org, role, sid } = decodeClaims(like);
  return sign({ sub, org, role, sid, typ: 'access', ...times });
}

export async function waitUntil(
  check: () => boolean,
  timeoutMs = 3000,
  label = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Http = (
  method: string,
  url: string,
  token: string | null,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<{ status: number; json: any }>;

/** HTTP over a real port (fetch), for tests that talk to a listening server or a separate process. */
export const httpClient =
  (baseUrl: string): Http =>
  async (method, url, token, body, headers = {}) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        ...(token ? bearer(token) : {}),
        ...(body !== undefined && !(body instanceof Buffer)
          ? { 'content-type': 'application/json' }
          : {}),
        ...headers,
      },
      body:
        body === undefined
          ? undefined
          : body instanceof Buffer
            ? new Uint8Array(body)
            : JSON.stringify(body),
    });
    const text = await response.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: response.status, json };
  };

export async function login(
  http: Http,
  email: string,
  password = PASSWORD,
): Promise<{ accessToken: string; refreshToken: string }> {
  const { status, json } = await http('POST', '/api/login', null, { email, password });
  if (status !== 200) throw new Error(`login of ${email}: ${status} ${JSON.stringify(json)}`);
  return json;
}

export async function expectStatus(
  response: Promise<{ status: number; json: any }>,
  status: number,
  label: string,
) {
  const answer = await response;
  if (answer.status !== status)
    throw new Error(`${label}: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json;
}

export const postLoad = async (
  http: Http,
  shipperToken: string,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; guid: string }> =>
  expectStatus(http('POST', '/api/loads', shipperToken, loadBody(overrides)), 201, 'post load');

export const submitOffer = async (
  http: Http,
  carrierToken: string,
  loadId: string,
  price: number,
): Promise<string> =>
  (
    await expectStatus(
      http('POST', `/api/proposal/${loadId}`, carrierToken, { price, message: 'Ready' }),
      201,
      'offer',
    )
  ).id;

/** The signed contract upload (multipart `status` 14 and the `contract` PDF). */
export async function uploadContract(http: Http, carrierToken: string, loadId: string) {
  const form = multipart(undefined, {
    contract: { content: PDF, filename: 'signed.pdf', type: 'application/pdf' },
  });
  const boundary = form.headers['content-type']!.split('boundary=')[1];
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="status"\r\n\r\n14\r\n`),
    form.payload,
  ]);
  return expectStatus(
    http('POST', `/api/proposal/load/${loadId}`, carrierToken, payload, form.headers),
    200,
    'contract',
  );
}

/**
 * The app on a loopback port, for HTTP and real sockets: its base URL, an HTTP client, and a list
 * where a test puts the sockets it opens; all of them and the app close when `t` ends.
 */
export async function startListeningApp(t: Test, overrides: Partial<Config> = {}, logger?: Logger) {
  const { app, platform, close } = await startTestApp(overrides, undefined, logger);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const sockets: Listener[] = [];
  t.teardown(async () => {
    for (const listener of sockets) listener.close();
    await close();
  });
  return { app, platform, baseUrl, http: httpClient(baseUrl), sockets };
}
