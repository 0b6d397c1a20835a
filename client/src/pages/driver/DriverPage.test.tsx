import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAppAt, resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const statusNames: Record<number, string> = {
  2: 'Ready for pickup',
  3: 'Dispatched',
  9: 'In Transit',
  10: 'Pending Delivery Confirmation',
  4: 'Delivered',
};

const stops = [
  {
    id: 's1',
    locationType: 1,
    name: 'Acme Warehouse',
    address: '1200 W Lake St, Chicago, IL 60607',
    city: 'Chicago',
    state: 'IL',
    latitude: 41.885,
    longitude: -87.66,
    arrived: false,
    departed: false,
  },
  {
    id: 's2',
    locationType: 4,
    name: 'Lone Star DC',
    address: '500 Commerce St, Dallas, TX 75202',
    city: 'Dallas',
    state: 'TX',
    latitude: 32.78,
    longitude: -96.8,
    arrived: false,
    departed: false,
  },
];

/** A small fake of the tours API for one tour assigned to the driver. */
function fakeServer(initialStatus: number, options: { failPositions?: number } = {}) {
  const state = { status: initialStatus, failPositions: options.failPositions ?? 0 };
  const calls: { method: string; url: string; body: unknown }[] = [];
  const row = () => ({
    id: 't1',
    loadId: 'l1',
    loadGuid: 'L-000123',
    status: state.status,
    statusName: statusNames[state.status],
    driver: { id: 'user-driver', name: 'Dan Driver' },
    shipper: 'Acme',
    carrier: 'Rivers Trucking',
    price: 1850,
    eldTruckName: null,
    pickup: {
      address: stops[0].address,
      city: 'Chicago',
      state: 'IL',
      time: '2026-12-01T15:00:00.000Z',
      timezone: 'America/Chicago',
    },
    dropoff: {
      address: stops[1].address,
      city: 'Dallas',
      state: 'TX',
      time: '2026-12-02T18:00:00.000Z',
      timezone: 'America/Chicago',
    },
    lastPositionAt: null,
    openedAt: '2026-11-20T10:00:00.000Z',
    shipperRated: false,
    carrierRated: false,
    actions: [1, 6, 7],
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      const body = init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
      calls.push({ method, url, body });
      if (url.startsWith('/api/tours/assigned'))
        return json(200, {
          page: 1,
          pageSize: 25,
          total: 1,
          totalPages: 1,
          data: [row()],
          actions: [],
        });
      if (url === '/api/tours/track/t1') {
        return json(200, {
          ...row(),
          status: state.status,
          statusName: statusNames[state.status],
          assignee: { id: 'user-driver', name: 'Dan Driver' },
          stops,
          trail: [],
          lastPosition: null,
          eta: null,
          nextStopId: 's1',
        });
      }
      if (url === '/api/tours/t1/events') return json(200, []);
      if (url === '/api/tours/t1/status' && method === 'PUT') {
        state.status = (body as { status: number }).status;
        return json(200, { id: 't1', status: state.status, statusName: statusNames[state.status] });
      }
      if (url === '/api/tours/t1/positions' && method === 'POST') {
        if (state.failPositions > 0) {
          state.failPositions -= 1;
          throw new TypeError('Failed to fetch');
        }
        return json(202, { accepted: (body as unknown[]).length });
      }
      return json(404, { message: 'Not found' });
    }),
  );
  return { state, calls };
}

/** A phone's GPS, driven by the test. */
function fakeGeolocation() {
  let success: PositionCallback | null = null;
  const geolocation = {
    watchPosition: vi.fn((onSuccess: PositionCallback) => {
      success = onSuccess;
      return 1;
    }),
    clearWatch: vi.fn(),
    getCurrentPosition: vi.fn(),
  };
  Object.defineProperty(navigator, 'geolocation', { value: geolocation, configurable: true });
  return {
    move: (latitude: number, longitude: number, speedMetersPerSecond: number, timestamp: number) =>
      success?.({
        coords: {
          latitude,
          longitude,
          speed: speedMetersPerSecond,
          heading: 180,
          accuracy: 8,
          altitude: null,
          altitudeAccuracy: null,
        },
        timestamp,
      } as GeolocationPosition),
  };
}

describe('the driver page', () => {
  beforeEach(async () => {
    await resetApp(users.driver);
  });
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'geolocation');
  });

  it('shows the next stop and one big button per status step, each confirmed and sent to the server', async () => {
    const { calls } = fakeServer(2);
    renderAppAt('/driver');

    expect(
      await screen.findByRole('heading', { name: 'My tour', level: 1 }, { timeout: 20_000 }),
    ).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Acme Warehouse' })).toBeTruthy();
    expect(
      screen.getByText('1200 W Lake St, Chicago, IL 60607', { selector: 'address' }),
    ).toBeTruthy();

    fireEvent.click(await screen.findByRole('button', { name: 'Start the trip' }));
    const dialog = await screen.findByRole('dialog', { name: 'Start the trip for load L-000123?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start the trip' }));

    expect(await screen.findByRole('button', { name: 'Loaded, on the road' })).toBeTruthy();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([
      { method: 'PUT', url: '/api/tours/t1/status', body: { status: 3, message: '' } },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Loaded, on the road' }));
    const second = await screen.findByRole('dialog', {
      name: 'Loaded and leaving with load L-000123?',
    });
    fireEvent.change(within(second).getByRole('textbox', { name: 'Message (optional)' }), {
      target: { value: 'Sealed, 22 pallets' },
    });
    fireEvent.click(within(second).getByRole('button', { name: 'Loaded, on the road' }));

    expect(await screen.findByRole('button', { name: 'Unloaded, delivered' })).toBeTruthy();
    expect(calls.filter((call) => call.method === 'PUT').at(-1)?.body).toEqual({
      status: 9,
      message: 'Sealed, 22 pallets',
    });
  });

  it('offers no step while the shipper has to confirm the delivery', async () => {
    fakeServer(10);
    renderAppAt('/driver');
    expect(
      await screen.findByText(
        'Delivered. Waiting for the shipper to confirm.',
        {},
        { timeout: 20_000 },
      ),
    ).toBeTruthy();
    expect(
      screen.queryByRole('button', {
        name: /Start the trip|Loaded, on the road|Unloaded, delivered|Confirm delivery/,
      }),
    ).toBeNull();
  });

  it('shares the position in batches with the speed in mph, and keeps them through a network failure', async () => {
    const { calls } = fakeServer(9, { failPositions: 1 });
    const gps = fakeGeolocation();
    renderAppAt('/driver');
    expect(await screen.findByText('Finding your position…', {}, { timeout: 20_000 })).toBeTruthy();

    // Ten fixes, 15 s and a few hundred metres apart: one full batch, sent at once.
    const start = Date.parse('2026-12-01T16:00:00Z');
    for (let index = 0; index < 10; index++)
      gps.move(41.885 - index * 0.01, -87.66, 26.8224, start + index * 15_000);

    expect(await screen.findByText('On: the truck shows live on the map.')).toBeTruthy();
    // The first attempt fails (no network): the positions wait and the page says so.
    expect(await screen.findByText('10 · no connection, retrying')).toBeTruthy();
    await waitFor(
      () => expect(calls.filter((call) => call.url === '/api/tours/t1/positions')).toHaveLength(2),
      { timeout: 20_000 },
    );

    const sent = calls.filter((call) => call.url === '/api/tours/t1/positions').at(-1)?.body as {
      latitude: number;
      speed: number;
      heading: number;
      recordedAt: string;
    }[];
    expect(sent).toHaveLength(10);
    expect(sent[0]).toMatchObject({
      latitude: 41.885,
      speed: 60,
      heading: 180,
      recordedAt: '2026-12-01T16:00:00.000Z',
    });
    await waitFor(() => expect(screen.queryByText('Positions waiting')).toBeNull());

    // Switched off, the page says so and stops watching.
    fireEvent.click(screen.getByRole('switch', { name: 'Share my location' }));
    expect(
      await screen.findByText('Off: the shipper and your dispatcher cannot see the truck.'),
    ).toBeTruthy();
  });
  it("asks for the phone's location on the driver's tap, never by itself as the page opens", async () => {
    fakeServer(9);
    const gps = fakeGeolocation();
    // A phone whose browser has not been allowed yet: asking now would open its prompt unasked.
    const status = new EventTarget() as EventTarget & { state: PermissionState };
    status.state = 'prompt';
    Object.defineProperty(navigator, 'permissions', {
      value: { query: vi.fn(async () => status) },
      configurable: true,
    });
    try {
      renderAppAt('/driver');
      const start = await screen.findByRole(
        'button',
        { name: 'Share my location now' },
        { timeout: 20_000 },
      );
      expect(
        screen.getByText(
          'Your phone has not been allowed to share its location yet: tap below, then allow it.',
        ),
      ).toBeTruthy();
      expect(navigator.geolocation.watchPosition).not.toHaveBeenCalled();

      fireEvent.click(start);
      expect(await screen.findByText('Finding your position…')).toBeTruthy();
      expect(navigator.geolocation.watchPosition).toHaveBeenCalledTimes(1);
      gps.move(41.885, -87.66, 20, Date.parse('2026-12-01T16:00:00Z'));
      // The driver allowed it: the permission changes and sharing goes on without a second watch.
      status.state = 'granted';
      status.dispatchEvent(new Event('change'));
      expect(await screen.findByText('On: the truck shows live on the map.')).toBeTruthy();
      expect(navigator.geolocation.watchPosition).toHaveBeenCalledTimes(1);
      expect(window.localStorage.getItem('driver.shareLocation')).toBe('on');
    } finally {
      Reflect.deleteProperty(navigator, 'permissions');
    }
  });
});
