import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import { fakeServer, get, renderMarketplaceAt, tableOf } from '../../test/marketplace.testing.tsx';
import { publishRealtime } from '../../realtime/useRealtime.ts';

const place = (city: string, state: string, time: string) => ({
  address: `${city}, ${state}`,
  city,
  state,
  latitude: 41,
  longitude: -87,
  time,
  timeEnd: null,
  timezone: 'America/Chicago',
});
const row = (overrides: Record<string, unknown>) => ({
  id: 'l1',
  guid: 'L-000101',
  loadStatus: 4,
  pickup: place('Chicago', 'IL', '2030-01-10T14:00:00.000Z'),
  dropoff: place('Dallas', 'TX', '2030-01-11T20:00:00.000Z'),
  pickupTime: '2030-01-10T14:00:00.000Z',
  dropoffTime: '2030-01-11T20:00:00.000Z',
  expiration: '2030-01-09T14:00:00.000Z',
  expirationTimezone: 'America/Chicago',
  loadType: 'FTL',
  equipment: [15],
  equipmentNames: ['53 ft Reefer'],
  accessories: [4],
  weight: 42000,
  commodity: 'Berries',
  refNumber: 'PO-1',
  distance: 925,
  stopsCount: 2,
  status: null,
  statusKey: 'bidSubmitted',
  statusName: 'Bid Submitted',
  proposals: 2,
  openProposals: 2,
  newProposals: 2,
  bestPrice: 2150,
  price: null,
  tourId: null,
  driver: null,
  actions: [1, 2, 3, 4, 11, 12],
  trust: { state: 'ready', reasons: [] },
  ...overrides,
});

describe("the shipper's loads", { timeout: 60_000 }, () => {
  beforeEach(() => resetApp(users.shipper));

  it('shows each load with its status chip, new-offer badge, best bid and the actions the server allows', async () => {
    fakeServer(
      get(
        '/api/loads/shipper',
        tableOf([
          row({}),
          row({
            id: 'l2',
            guid: 'L-000102',
            statusKey: 'inTransit',
            statusName: 'In Transit',
            newProposals: 0,
            proposals: 3,
            price: 1980,
            tourId: 't2',
            actions: [1, 4, 6, 7, 12],
          }),
        ]),
      ),
    );
    const { current } = renderMarketplaceAt('/loads/shipper');

    const first = (await screen.findByText('L-000101')).closest('tr')!;
    expect(within(first).getByText('Bid Submitted')).toBeTruthy();
    expect(within(first).getByText('2 new')).toBeTruthy();
    expect(within(first).getByText('$2,150.00')).toBeTruthy();
    expect(within(first).getByText('Chicago, IL')).toBeTruthy();
    expect(within(first).getByText(/Jan 10, 8:00\s?AM CST/)).toBeTruthy();
    expect(within(first).getByText('42,000 lbs')).toBeTruthy();
    expect(
      within(first)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['View', 'Edit', 'Offers', 'Extend expiration', 'History', 'Cancel the load']);

    const second = screen.getByText('L-000102').closest('tr')!;
    expect(within(second).getByText('In Transit')).toBeTruthy();
    expect(within(second).queryByText(/new$/)).toBeNull();
    expect(
      within(second)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['View', 'Offers', 'Track', 'Chat', 'History']);

    fireEvent.click(within(second).getByRole('button', { name: 'Track' }));
    await waitFor(() => expect(current()).toBe('/track/tour?id=t2'));
  });

  it("shows each booking's trust: Ready, Flagged with its reasons, Protected", async () => {
    fakeServer(
      get(
        '/api/loads/shipper',
        tableOf([
          row({}),
          row({
            id: 'l2',
            guid: 'L-000102',
            trust: {
              state: 'flagged',
              reasons: [
                {
                  code: 'no_tractor_number',
                  text: 'The driver was assigned without a tractor number',
                },
              ],
            },
          }),
          row({ id: 'l3', guid: 'L-000103', trust: { state: 'protected', reasons: [] } }),
        ]),
      ),
    );
    renderMarketplaceAt('/loads/shipper');
    const first = (await screen.findByText('L-000101')).closest('tr')!;
    expect(within(first).getByText('Ready')).toBeTruthy();
    const flagged = within(screen.getByText('L-000102').closest('tr')!).getByText('Flagged');
    expect(flagged.closest('[title]')?.getAttribute('title')).toBe(
      'The driver was assigned without a tractor number',
    );
    expect(within(screen.getByText('L-000103').closest('tr')!).getByText('Protected')).toBeTruthy();
  });

  it('reads the table again when a new offer arrives on the realtime channel', async () => {
    let newOffers = 1;
    const server = fakeServer((request) =>
      request.path.startsWith('/api/loads/shipper')
        ? { body: tableOf([row({ newProposals: newOffers })]) }
        : undefined,
    );
    renderMarketplaceAt('/loads/shipper');
    expect(await screen.findByText('1 new')).toBeTruthy();

    newOffers = 2;
    await act(async () =>
      publishRealtime('proposal:new', {
        loadId: 'l1',
        loadGuid: 'L-000101',
        proposalId: 'p9',
        carrier: { id: 'c1', name: 'Blue Ridge Freight LLC' },
        price: 2000,
        at: '2030-01-01T10:00:00.000Z',
      }),
    );
    expect(await screen.findByText('2 new')).toBeTruthy();
    expect(server.calls('GET', '/api/loads/shipper').length).toBeGreaterThanOrEqual(2);
  });

  it('cancels a load only with a message', async () => {
    const server = fakeServer(get('/api/loads/shipper', tableOf([row({})])), (request) =>
      request.method === 'PUT' && request.path === '/api/loads/l1/status'
        ? { body: { message: 'Load canceled' } }
        : undefined,
    );
    renderMarketplaceAt('/loads/shipper');
    const first = (await screen.findByText('L-000101')).closest('tr')!;
    fireEvent.click(within(first).getByRole('button', { name: 'Cancel the load' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel the load' }));
    expect(await within(dialog).findByText('Please enter a message')).toBeTruthy();
    expect(server.calls('PUT', '/api/loads/l1/status')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/Message to the carriers/), {
      target: { value: 'Customer postponed' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel the load' }));
    await waitFor(() => expect(server.calls('PUT', '/api/loads/l1/status')).toHaveLength(1));
    expect(server.calls('PUT', '/api/loads/l1/status')[0].body).toEqual({
      status: 7,
      message: 'Customer postponed',
    });
  });

  it('says what to do when there are no loads yet', async () => {
    fakeServer(get('/api/loads/shipper', tableOf([])));
    renderMarketplaceAt('/loads/shipper');
    expect(await screen.findByText('No loads yet: post your first load.')).toBeTruthy();
  });
});
