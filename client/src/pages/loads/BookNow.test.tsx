import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import type { LoadRowPayload } from '../../../../domain/realtime/events.ts';
import { publishRealtime } from '../../realtime/useRealtime.ts';
import { fakeServer, renderMarketplaceAt, tableOf } from '../../test/marketplace.testing.tsx';

const place = (city: string, state: string, latitude: number, longitude: number) => ({
  address: `${city}, ${state}`,
  city,
  state,
  latitude,
  longitude,
  time: '2030-01-10T14:00:00.000Z',
  timeEnd: null,
  timezone: 'America/Chicago',
});
/** A marketplace row as GET /api/loads/carrier answers it. */
const row = (overrides: Record<string, unknown>) => ({
  id: 'l1',
  guid: 'L-000101',
  loadStatus: 4,
  loadStatusName: 'Created',
  pickup: place('Chicago', 'IL', 41.88, -87.63),
  dropoff: place('Dallas', 'TX', 32.78, -96.8),
  pickupTime: '2030-01-10T14:00:00.000Z',
  dropoffTime: '2030-01-11T20:00:00.000Z',
  expiration: '2030-01-09T14:00:00.000Z',
  expirationTimezone: 'America/Chicago',
  loadTypeId: 1,
  loadType: 'FTL',
  equipment: [15],
  equipmentNames: ['53 ft Reefer'],
  accessories: [],
  weight: 42000,
  commodity: 'Berries',
  refNumber: 'PO-1',
  distance: 925,
  stopsCount: 2,
  terms: null,
  bookNowPrice: null,
  status: 4,
  statusName: 'Created',
  shipper: 'Prairie Foods Inc.',
  originDistance: null,
  destinationDistance: null,
  myProposal: null,
  actions: [1, 5],
  ...overrides,
});
/** A URL with its query decoded however many times it was encoded. */
const fullyDecoded = (text: string): string => {
  const once = decodeURIComponent(text);
  return once === text ? text : fullyDecoded(once);
};
const rows = [
  row({ bookNowPrice: 2450 }),
  row({ id: 'l2', guid: 'L-000102', commodity: 'Apples', bookNowPrice: null }),
];

describe('Book Now on the marketplace', { timeout: 60_000 }, () => {
  beforeEach(() => resetApp(users.carrier));

  it("shows 'Book Now $X' with a button only on a load with a price; the confirmation names the price and nothing is sent until confirmed", async () => {
    const server = fakeServer((request) => {
      if (request.path.startsWith('/api/loads/carrier')) return { body: tableOf(rows) };
      if (request.method === 'POST' && request.path === '/api/loads/l1/book')
        return { status: 201, body: { proposalId: 'p1', tourId: 't1' } };
      return undefined;
    });
    const view = renderMarketplaceAt('/loads/carrier');
    expect(await screen.findByRole('columnheader', { name: 'Book Now' })).toBeTruthy();
    const bookable = (await screen.findByText('L-000101')).closest('tr')!;
    expect(within(bookable).getByText('Book Now $2,450.00')).toBeTruthy();
    const offersOnly = screen.getByText('L-000102').closest('tr')!;
    expect(within(offersOnly).queryByText(/Book Now \$/)).toBeNull();
    expect(within(offersOnly).queryByRole('button', { name: /Book now/ })).toBeNull();

    // Asked first, with the price; 'Not now' sends nothing.
    fireEvent.click(within(bookable).getByRole('button', { name: /Book now/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Book load L-000101' });
    expect(within(dialog).getByText('Book load L-000101')).toBeTruthy();
    expect(
      within(dialog).getByText(
        'Book this load at $2,450.00? The load is yours at once at that price and its tour opens.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.calls('POST', '/api/loads/l1/book')).toEqual([]);

    // Confirmed: booked, and the carrier lands on the tour.
    fireEvent.click(within(bookable).getByRole('button', { name: /Book now/ }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Book load L-000101' })).getByRole(
        'button',
        { name: 'Book it' },
      ),
    );
    await waitFor(() => expect(server.calls('POST', '/api/loads/l1/book').length).toBe(1));
    expect(server.calls('POST', '/api/loads/l1/book')[0]!.body).toEqual({});
    await waitFor(() => expect(view.current()).toBe('/track/tour/t1'));
  });

  it('tells the carrier when another carrier booked the load first, and stays on the marketplace', async () => {
    fakeServer((request) => {
      if (request.path.startsWith('/api/loads/carrier')) return { body: tableOf(rows) };
      if (request.method === 'POST' && request.path === '/api/loads/l1/book')
        return {
          status: 409,
          body: {
            statusCode: 409,
            error: 'Conflict',
            message: 'This load has already been booked',
            code: 'load_already_booked',
          },
        };
      return undefined;
    });
    const view = renderMarketplaceAt('/loads/carrier');
    const bookable = (await screen.findByText('L-000101')).closest('tr')!;
    fireEvent.click(within(bookable).getByRole('button', { name: /Book now/ }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Book load L-000101' })).getByRole(
        'button',
        { name: 'Book it' },
      ),
    );
    expect(await screen.findByText('This load has already been booked')).toBeTruthy();
    expect(view.current()).toBe('/loads/carrier');
  });

  it('tells the carrier why the confirmation closed when the load leaves the marketplace meanwhile', async () => {
    const server = fakeServer((request) =>
      request.path.startsWith('/api/loads/carrier') ? { body: tableOf(rows) } : undefined,
    );
    renderMarketplaceAt('/loads/carrier');
    const bookable = (await screen.findByText('L-000101')).closest('tr')!;
    fireEvent.click(within(bookable).getByRole('button', { name: /Book now/ }));
    expect(await screen.findByRole('dialog', { name: 'Book load L-000101' })).toBeTruthy();

    // Another carrier books it: the row leaves the list live, and its dialog with it.
    await act(async () =>
      publishRealtime(
        'load:updated',
        row({
          open: false,
          status: 5,
          statusName: 'Accepted',
          bookNowPrice: 2450,
        }) as unknown as LoadRowPayload,
      ),
    );
    await waitFor(() => expect(screen.queryByText('L-000101')).toBeNull());
    expect(
      await screen.findByText(
        'Load L-000101 left the marketplace while you were confirming: another carrier booked it, or the shipper took it off.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Book load L-000101' })).toBeNull();
    expect(server.calls('POST', '/api/loads/l1/book')).toEqual([]);
  });

  it("'Book Now only' asks the server for the loads with a Book Now price", async () => {
    const server = fakeServer((request) =>
      request.path.startsWith('/api/loads/carrier') ? { body: tableOf(rows) } : undefined,
    );
    renderMarketplaceAt('/loads/carrier');
    await screen.findByText('L-000101');
    await act(async () => {
      fireEvent.click(screen.getByLabelText('Book Now only'));
    });
    await waitFor(() =>
      expect(
        server
          .calls('GET', '/api/loads/carrier')
          .some((call) => fullyDecoded(call.path).includes('{"name":"bookNow","value":[true]}')),
      ).toBe(true),
    );
  });
});
