import { act } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  appStore,
  authStatusAtom,
  authUserAtom,
  readTokens,
  writeTokens,
} from '../state/session.ts';
import { users } from '../test/users.ts';
import { ApiError, apiGet, apiPost, SIGN_OUT_DELAY_MS } from './http.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A tiny fake of the server's token rules: one valid access token, single-use refresh tokens. */
function fakeServer({ refreshWorks }: { refreshWorks: boolean }) {
  const calls: { url: string; auth: string | null }[] = [];
  let validAccess = 'access-2';
  const fetchFake = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const auth = new Headers(init?.headers).get('Authorization');
    calls.push({ url, auth });
    if (url === '/api/refresh-token') {
      const { refreshToken } = JSON.parse(String(init?.body)) as { refreshToken: string };
      if (!refreshWorks || refreshToken !== 'refresh-1')
        return json(401, { message: 'Refresh token not valid' });
      validAccess = 'access-2';
      return json(200, { accessToken: 'access-2', refreshToken: 'refresh-2' });
    }
    if (auth !== `Bearer ${validAccess}`) return json(401, { message: 'Token expired' });
    return json(200, { ok: true, url });
  });
  vi.stubGlobal('fetch', fetchFake);
  return { calls, fetchFake };
}

describe('the HTTP client', () => {
  beforeEach(() => {
    window.localStorage.clear();
    writeTokens({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    appStore.set(authUserAtom, users.shipper);
    appStore.set(authStatusAtom, 'signedIn');
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the bearer token, and on a 401 refreshes once and retries with the new token', async () => {
    const { calls } = fakeServer({ refreshWorks: true });
    expect(await apiGet('/profile')).toEqual({ ok: true, url: '/api/profile' });
    expect(calls.map((call) => [call.url, call.auth])).toEqual([
      ['/api/profile', 'Bearer access-1'],
      ['/api/refresh-token', null],
      ['/api/profile', 'Bearer access-2'],
    ]);
    expect(readTokens()).toEqual({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    expect(window.localStorage.getItem('token')).toBe('access-2');
  });

  it('shares one refresh between calls that fail together (a refresh token is single use)', async () => {
    const { calls } = fakeServer({ refreshWorks: true });
    await Promise.all([apiGet('/a'), apiGet('/b'), apiGet('/c')]);
    expect(calls.filter((call) => call.url === '/api/refresh-token')).toHaveLength(1);
    expect(calls.filter((call) => call.auth === 'Bearer access-2')).toHaveLength(3);
  });

  it('signs the user out 500 ms after a failed refresh and clears the stored tokens', async () => {
    vi.useFakeTimers();
    const { calls } = fakeServer({ refreshWorks: false });
    await expect(apiGet('/profile')).rejects.toMatchObject({ status: 401 });
    expect(calls.filter((call) => call.url === '/api/profile')).toHaveLength(1);
    expect(readTokens()).toBeNull();
    expect(appStore.get(authUserAtom)).not.toBeNull();

    await act(async () => {
      vi.advanceTimersByTime(SIGN_OUT_DELAY_MS - 1);
    });
    expect(appStore.get(authStatusAtom)).toBe('signedIn');
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(appStore.get(authUserAtom)).toBeNull();
    expect(appStore.get(authStatusAtom)).toBe('signedOut');
  });

  it("carries the server's message, or 'Something went wrong!' when it sent none", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        String(input) === '/api/loads'
          ? json(409, {
              message: 'Load L-000001 is in transit',
              errors: [{ path: 'status', message: 'No' }],
            })
          : new Response('<html>', { status: 502 }),
      ),
    );
    const refused = await apiGet('/loads').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      status: 409,
      message: 'Load L-000001 is in transit',
      errors: [{ path: 'status', message: 'No' }],
    });
    await expect(apiGet('/other')).rejects.toMatchObject({
      status: 502,
      message: 'Something went wrong!',
    });
  });

  it("sends a command's consistency token with the next read, the newest one, until a read carried it", async () => {
    const sent: { method: string; url: string; position: string | null }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const method = init?.method ?? 'GET';
        sent.push({
          method,
          url: String(input),
          position: new Headers(init?.headers).get('X-Log-Position'),
        });
        const position =
          String(input) === '/api/loads' && method === 'POST'
            ? '901.77'
            : String(input) === '/api/loads/old'
              ? '900.5'
              : null;
        return new Response(JSON.stringify({ ok: true }), {
          status: 200,
          headers: {
            'Content-Type': 'application/json',
            ...(position ? { 'X-Log-Position': position } : {}),
          },
        });
      }),
    );
    await apiPost('/loads', { weight: 1 });
    await apiPost('/loads/old', { weight: 1 });
    await apiGet('/loads/shipper');
    await apiGet('/loads/shipper');
    expect(sent.map((call) => [call.method, call.url, call.position])).toEqual([
      ['POST', '/api/loads', null],
      ['POST', '/api/loads/old', null],
      ['GET', '/api/loads/shipper', '901.77'],
      ['GET', '/api/loads/shipper', null],
    ]);
  });
});
