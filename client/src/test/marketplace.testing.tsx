import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../app/App.tsx';
import { writeTokens } from '../state/session.ts';

/** One request the fake server received. */
export interface Received {
  method: string;
  path: string;
  body: unknown;
}

type Handler = (request: Received) => { status?: number; body?: unknown } | undefined;

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? '' : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/**
 * A stand-in for the server's HTTP answers (no network in tests): each handler may answer a
 * request; the first that does wins, anything else is a 404. Every request is recorded.
 */
export function fakeServer(...handlers: Handler[]) {
  const received: Received[] = [];
  writeTokens({ accessToken: 'access', refreshToken: 'refresh' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const raw = init?.body;
      const body = typeof raw === 'string' ? JSON.parse(raw) : raw;
      const request: Received = {
        method: init?.method ?? 'GET',
        path: `${url.pathname}${url.search}`,
        body,
      };
      received.push(request);
      for (const handler of handlers) {
        const answer = handler(request);
        if (answer) return json(answer.status ?? 200, answer.body);
      }
      return json(404, { message: 'Not found' });
    }),
  );
  return {
    received,
    calls: (method: string, prefix: string) =>
      received.filter((r) => r.method === method && r.path.startsWith(prefix)),
  };
}

/** Answers `GET <prefix>` (query ignored) with `body`. */
export const get =
  (prefix: string, body: unknown, status = 200): Handler =>
  (request) =>
    request.method === 'GET' && request.path.split('?')[0] === prefix
      ? { status, body }
      : undefined;

/** A table answer of the table protocol. */
export const tableOf = (rows: unknown[], actions: { id: number; name: string }[] = []) => ({
  page: 1,
  pageSize: 10,
  total: rows.length,
  totalPages: 1,
  data: rows,
  actions,
});

/** Renders the whole app at a path (query included), as the user would open it. */
export function renderMarketplaceAt(path: string) {
  const location = memoryLocation({ path, record: true });
  const view = render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <App />
    </Router>,
  );
  return { location, current: () => location.history?.at(-1), ...view };
}
