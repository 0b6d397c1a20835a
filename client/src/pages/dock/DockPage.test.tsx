import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAppAt, resetApp } from '../../test/renderApp.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const view = (state: 'waiting' | 'released' | 'held', triesLeft: number) => ({
  loadGuid: 'L-000123',
  carrier: 'Rivers Trucking',
  driverFirstName: 'Dana',
  tractorNumber: 'T-481',
  trailerNumber: null,
  eldDistanceMiles: 0.4,
  pickupWindow: {
    start: '2026-12-01T15:00:00.000Z',
    end: '2026-12-01T17:00:00.000Z',
    timezone: 'America/Chicago',
  },
  pickup: { name: 'Acme Warehouse', city: 'Chicago', state: 'IL' },
  state,
  reasons:
    state === 'held'
      ? [{ code: 'wrong_code', text: "The code is not the assigned driver's current release code" }]
      : [],
  triesLeft,
  expiresAt: '2026-12-01T23:00:00.000Z',
});

/** The dock's two calls, answered as the server would for a link: the right code is 123456. */
function fakeServer() {
  const state = { outcome: 'waiting' as 'waiting' | 'released' | 'held', tries: 10 };
  const calls: { method: string; url: string; body: unknown; auth: string | null }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      const body = init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
      const headers = new Headers(init?.headers);
      calls.push({ method, url, body, auth: headers.get('authorization') });
      if (url === '/api/dock/tok' && method === 'GET')
        return json(200, view(state.outcome, state.tries));
      if (url === '/api/dock/tok/release' && method === 'POST') {
        state.tries -= 1;
        const { code } = body as { code: string };
        state.outcome = code === '123456' ? 'released' : 'held';
        return json(
          200,
          state.outcome === 'released'
            ? { state: 'released' }
            : { state: 'held', reasons: view('held', 0).reasons },
        );
      }
      if (url === '/api/dock/gone')
        return json(404, { message: 'This dock link does not exist or has ended' });
      return json(404, { message: 'Not found' });
    }),
  );
  return calls;
}

describe('the dock page', () => {
  beforeEach(() => resetApp(null));
  afterEach(() => vi.unstubAllGlobals());

  it('shows who should come, holds a wrong code with the reason, and releases the right one', async () => {
    const calls = fakeServer();
    renderAppAt('/dock/tok');
    expect(await screen.findByText('Rivers Trucking')).toBeTruthy();
    expect(screen.getByText('Dana')).toBeTruthy();
    expect(screen.getByText('T-481')).toBeTruthy();
    expect(screen.getByText('0.4 mi from the pickup')).toBeTruthy();
    expect(screen.getByText('Tries left on this link: 10')).toBeTruthy();

    const code = screen.getByLabelText(/Release code/);
    fireEvent.change(code, { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check and release' }));
    expect(await screen.findByText('Please enter the 6 digits the driver shows')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.change(code, { target: { value: '654321' } });
    fireEvent.change(screen.getByLabelText(/Tractor number you see/), {
      target: { value: 'T-481' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Check and release' }));
    expect(await screen.findByRole('heading', { name: 'Held' })).toBeTruthy();
    expect(screen.getByText("The code is not the assigned driver's current code")).toBeTruthy();
    const tried = calls.find((call) => call.method === 'POST');
    expect(tried?.body).toEqual({ code: '654321', tractorNumber: 'T-481' });
    expect(tried?.auth).toBeNull();

    fireEvent.change(screen.getByLabelText(/Release code/), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check and release' }));
    expect(await screen.findByRole('heading', { name: 'Released' })).toBeTruthy();
    expect(await screen.findByText('Tries left on this link: 8')).toBeTruthy();
  });

  it('says so when the link has ended', async () => {
    fakeServer();
    renderAppAt('/dock/gone');
    expect(await screen.findByRole('heading', { name: 'This dock link has ended' })).toBeTruthy();
  });
});
