/**
 * A local HTTP server for the ELD adapter tests: answers as a provider's API documents it, records
 * every request, and can be told to answer the next requests differently (a 429, a slow answer).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
};
export type FakeResponse = {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  delayMs?: number;
};

export type FakeServer = {
  url: string;
  requests: FakeRequest[];
  /** The next `times` requests get this answer instead of the API's. */
  queue(response: FakeResponse, times?: number): void;
  close(): Promise<void>;
};

export async function startFakeServer(
  handle: (request: FakeRequest) => FakeResponse,
): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  const queued: FakeResponse[] = [];
  const server = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? '/', 'http://localhost');
    const request: FakeRequest = {
      method: incoming.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: incoming.headers,
    };
    requests.push(request);
    const response = queued.shift() ?? handle(request);
    const send = () => {
      if (outgoing.destroyed) return;
      outgoing.writeHead(response.status, {
        'content-type': 'application/json',
        ...response.headers,
      });
      outgoing.end(response.body === undefined ? '' : JSON.stringify(response.body));
    };
    if (response.delayMs) setTimeout(send, response.delayMs).unref();
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    queue(response, times = 1) {
      for (let i = 0; i < times; i++) queued.push(response);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A truck as a test places it; each fake writes it in its provider's shape. */
export type FakeVehicle = {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  heading?: number;
  speed?: number;
  time?: string;
};
