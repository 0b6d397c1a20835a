import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LoadRowPayload } from '../../../../domain/realtime/events.ts';
import { realtimeStatusAtom } from '../../realtime/socket.ts';
import { publishRealtime } from '../../realtime/useRealtime.ts';
import { appStore } from '../../state/session.ts';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import { emptySearch } from './CarrierSearchForm.tsx';
import { fakeServer, renderMarketplaceAt, tableOf } from '../../test/marketplace.testing.tsx';
import { applyPushedLoad, matchesSearch } from './marketplaceRows.ts';

const place = (city: string, state: string, latitude: number, longitude: number) => ({
  address: `${city}, ${state}`,
  city,
  state,
  latitude,
  longitude,
  timezone: 'America/Chicago',
});
/** A `load:posted` / `load:updated` payload as the server pushes it. */
const pushed = (overrides: Partial<LoadRowPayload>): LoadRowPayload => ({
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
  status: 4,
  statusName: 'Created',
  shipper: 'Prairie Foods Inc.',
  open: true,
  ...overrides,
});
const tableRow = (overrides: Partial<LoadRowPayload>) => ({
  ...pushed(overrides),
  myProposal: null,
  actions: [1, 5],
});

describe("the carriers' marketplace applies pushed rows", { timeout: 60_000 }, () => {
  beforeEach(() => resetApp(users.carrier));

  it('adds a posted load, replaces a changed one and drops one that left, without reading the table again', async () => {
    const server = fakeServer((request) =>
      request.path.startsWith('/api/loads/carrier')
        ? {
            body: tableOf([
              tableRow({}),
              tableRow({ id: 'l2', guid: 'L-000102', commodity: 'Apples' }),
            ]),
          }
        : undefined,
    );
    renderMarketplaceAt('/loads/carrier');
    await screen.findByText('L-000101');
    await waitFor(() => expect(server.calls('GET', '/api/loads/carrier').length).toBe(2)); // the table and the map
    const reads = server.calls('GET', '/api/loads/carrier').length;

    await act(async () =>
      publishRealtime('load:posted', pushed({ id: 'l3', guid: 'L-000103', commodity: 'Cheese' })),
    );
    const added = (await screen.findByText('L-000103')).closest('tr')!;
    expect(within(added).getByText('New')).toBeTruthy();
    expect(within(added).getByText('Cheese')).toBeTruthy();

    await act(async () =>
      publishRealtime('load:updated', pushed({ id: 'l2', guid: 'L-000102', commodity: 'Pears' })),
    );
    expect(await screen.findByText('Pears')).toBeTruthy();
    expect(screen.queryByText('Apples')).toBeNull();

    await act(async () =>
      publishRealtime(
        'load:updated',
        pushed({ id: 'l1', open: false, status: 5, statusName: 'Accepted' }),
      ),
    );
    await waitFor(() => expect(screen.queryByText('L-000101')).toBeNull());
    expect(screen.getByText('L-000102')).toBeTruthy();
    expect(server.calls('GET', '/api/loads/carrier').length).toBe(reads);
  });

  it("shows each load's terms in one line, and 'No terms' for a load without", async () => {
    fakeServer((request) =>
      request.path.startsWith('/api/loads/carrier')
        ? {
            body: tableOf([
              tableRow({
                terms: {
                  freeTimeHours: { pickup: 2, delivery: 3 },
                  detentionPerHour: 50,
                  detentionCap: 500,
                  tonu: 150,
                  layoverPerDay: 250,
                  lumper: 'carrier-reimbursed',
                  graceMinutes: 30,
                  disputeWindowHours: 48,
                },
              }),
              tableRow({ id: 'l2', guid: 'L-000102', terms: null }),
            ]),
          }
        : undefined,
    );
    renderMarketplaceAt('/loads/carrier');
    expect(await screen.findByRole('columnheader', { name: 'Accessorial terms' })).toBeTruthy();
    const withTerms = (await screen.findByText('L-000101')).closest('tr')!;
    expect(
      within(withTerms).getByText(
        'Free 2 h / 3 h · detention $50.00/h, cap $500.00 · TONU $150.00',
      ),
    ).toBeTruthy();
    const without = screen.getByText('L-000102').closest('tr')!;
    expect(within(without).getByText('No terms')).toBeTruthy();
  });

  it("shows the pickup's measured time on site as a link to its facility, and nothing under three visits", async () => {
    fakeServer((request) =>
      request.path.startsWith('/api/loads/carrier')
        ? {
            body: tableOf([
              {
                ...tableRow({}),
                facilities: {
                  pickup: { facilityId: 'f1', facility: { timeOnSiteMedian: 75, visits: 82 } },
                  delivery: { facilityId: 'f2', facility: { timeOnSiteMedian: null, visits: 2 } },
                },
              },
            ]),
          }
        : undefined,
    );
    renderMarketplaceAt('/loads/carrier');
    const row = (await screen.findByText('L-000101')).closest('tr')!;
    const link = within(row).getByRole('link', {
      name: 'Facility: 1 h 15 min on site, median of 82 visits · Facility page',
    });
    expect(link.getAttribute('href')).toBe('/facilities/f1');
    expect(link.textContent).toContain('1 h 15 min');
    expect(within(row).getAllByRole('link', { name: /^Facility:/ })).toHaveLength(1);
  });

  it("says 'Live' only while the connection is up, and 'Reconnecting…' otherwise", async () => {
    fakeServer((request) =>
      request.path.startsWith('/api/loads/carrier') ? { body: tableOf([]) } : undefined,
    );
    renderMarketplaceAt('/loads/carrier');
    const badge = (await screen.findByText('Reconnecting…')).closest('.live-indicator')!;
    expect(badge.textContent).toContain('Reconnecting…');
    await act(async () => appStore.set(realtimeStatusAtom, 'live'));
    await waitFor(() => expect(badge.textContent).toContain('Live'));
    await act(async () => appStore.set(realtimeStatusAtom, 'reconnecting'));
    await waitFor(() => expect(badge.textContent).toContain('Reconnecting…'));
  });
});

describe('which pushed loads the search keeps', () => {
  const search = () => ({
    ...emptySearch(),
    origin: { latitude: 41.88, longitude: -87.63, radius: 50, label: 'Chicago' },
    originRadius: 50,
    equipment: [15],
    maxWeight: '45000',
  });

  it('keeps a load inside the origin circle with a matching trailer and weight; not one outside any of them', () => {
    expect(matchesSearch(pushed({}), search())).toBe(true);
    expect(
      matchesSearch(pushed({ pickup: place('Milwaukee', 'WI', 43.04, -87.91) }), search()),
    ).toBe(false);
    expect(matchesSearch(pushed({ equipment: [1] }), search())).toBe(false);
    expect(matchesSearch(pushed({ weight: 46000 }), search())).toBe(false);
    expect(matchesSearch(pushed({}), search(), 'berr')).toBe(true);
    expect(matchesSearch(pushed({}), search(), 'steel')).toBe(false);
  });

  it('drops a row that no longer matches or left the marketplace, and does not add one that does not match', () => {
    const rows = [tableRow({}) as never];
    expect(applyPushedLoad(rows, pushed({ weight: 50000 }), search())).toMatchObject({
      rows: [],
      delta: -1,
    });
    expect(applyPushedLoad(rows, pushed({ open: false }), search())).toMatchObject({
      rows: [],
      delta: -1,
    });
    expect(
      applyPushedLoad(rows, pushed({ expiration: '2020-01-01T00:00:00.000Z' }), search()),
    ).toMatchObject({ rows: [], delta: -1 });
    expect(applyPushedLoad([], pushed({ id: 'l9', equipment: [1] }), search())).toMatchObject({
      rows: [],
      delta: 0,
      added: false,
    });
    expect(applyPushedLoad([], pushed({ id: 'l9' }), search()).rows.map((row) => row.id)).toEqual([
      'l9',
    ]);
  });
});
