import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import {
  fakeServer,
  get,
  renderMarketplaceAt,
  tableOf,
  type Received,
} from '../../test/marketplace.testing.tsx';
import { publishRealtime } from '../../realtime/useRealtime.ts';

const load = {
  id: 'l1',
  guid: 'L-000101',
  status: 4,
  statusName: 'Created',
  shipper: 'Acme Foods',
  postedAt: '2030-01-01T00:00:00.000Z',
  pickupTimestampStart: '2030-01-10T14:00:00.000Z',
  pickupTimestampEnd: null,
  pickupTimezone: 'America/Chicago',
  dropOffTimestampStart: '2030-01-11T20:00:00.000Z',
  dropOffTimestampEnd: null,
  dropoffTimezone: 'America/Chicago',
  expiration: '2030-01-09T14:00:00.000Z',
  expirationTimezone: 'America/Chicago',
  loadTypeId: 1,
  carriersSortingTypeId: 1,
  loadAccessories: [4],
  loadEquipment: [15],
  description: 'Keep at -10 °F',
  weight: 42000,
  commodity: 'Frozen berries',
  refNumber: 'PO-1',
  locations: [
    {
      id: 's1',
      locationType: 1,
      address: 'Chicago, IL 60601',
      city: 'Chicago',
      state: 'IL',
      name: 'Chicago Cold Storage',
      latitude: 41.88,
      longitude: -87.63,
      contactName: null,
      contactPhone: null,
      number: null,
    },
    {
      id: 's2',
      locationType: 4,
      address: 'Dallas, TX 75201',
      city: 'Dallas',
      state: 'TX',
      name: 'Dallas DC',
      latitude: 32.78,
      longitude: -96.8,
      contactName: null,
      contactPhone: null,
      number: null,
    },
  ],
  contactsHidden: true,
  acceptedProposalId: null,
  price: null,
  tourId: null,
  contractFileId: null,
  cancelMessage: null,
  canEdit: false,
};
const offer = (overrides: Record<string, unknown>) => ({
  id: 'p1',
  loadId: 'l1',
  loadGuid: 'L-000101',
  status: 10,
  statusName: 'Submitted Proposal',
  price: 2150,
  counterPrice: null,
  message: 'Team drivers',
  eldTruckName: 'Truck 12',
  submittedAt: '2030-01-02T00:00:00.000Z',
  updatedAt: null,
  carrier: { id: 'c', name: 'Rivers Trucking', ratings: {} },
  tourId: null,
  contractFileId: null,
  actions: [1, 5, 15],
  ...overrides,
});

/** The offer endpoints with an offer that changes as the carrier and the shipper act. */
function offerServer(options: { eld: boolean }) {
  let current: Record<string, unknown> | null = null;
  const server = fakeServer(
    get('/api/loads/l1', load),
    get(
      '/api/organization-services',
      options.eld
        ? [
            { id: 'samsara', name: 'Samsara', status: 'Installed' },
            { id: 'motive', name: 'Motive', status: null },
          ]
        : [],
    ),
    get('/api/services/samsara/trucks/41.88/-87.63', [
      { id: 't1', name: 'Truck 12', latitude: 41.9, longitude: -87.6, distance: 3.2 },
      { id: 't2', name: 'Truck 7', latitude: 40, longitude: -88, distance: 140.5 },
    ]),
    (request: Received) => {
      if (request.method === 'GET' && request.path.startsWith('/api/proposal/l1'))
        return current
          ? { body: tableOf([current]) }
          : { status: 404, body: { message: 'Load not found' } };
      if (request.method === 'POST' && request.path === '/api/proposal/l1') {
        const body = request.body as Record<string, unknown>;
        current = offer({
          price: body.price,
          message: body.message,
          eldTruckName: body.eldTruckName,
        });
        return { status: 201, body: { id: 'p1', message: 'Offer submitted' } };
      }
      if (request.method === 'PUT' && request.path === '/api/proposal/p1') {
        current = offer({
          ...current,
          status: 10,
          statusName: 'Submitted Proposal',
          price: 1900,
          counterPrice: null,
        });
        return { body: { id: 'p1', status: 10 } };
      }
      return undefined;
    },
  );
  return {
    ...server,
    counter: (price: number) => {
      current = offer({
        ...current,
        status: 11,
        statusName: 'Pending Acceptance',
        counterPrice: price,
      });
    },
  };
}

describe('making an offer', { timeout: 60_000 }, () => {
  beforeEach(() => resetApp(users.carrier));

  it('shows the load, offers the ELD trucks nearest the pickup, refuses a missing price and sends the offer', async () => {
    const server = offerServer({ eld: true });
    renderMarketplaceAt('/offer/load?id=l1');

    expect(await screen.findByText('Chicago Cold Storage')).toBeTruthy();
    expect(screen.getByText('Frozen berries')).toBeTruthy();
    expect(screen.getByText('Keep at -10 °F')).toBeTruthy();
    expect(screen.getAllByText('Contacts are shared once your offer is accepted')).toHaveLength(2);
    expect(await screen.findByText('Your ELD trucks, nearest to the pickup first.')).toBeTruthy();
    // Only the installed service is asked, for the pickup's coordinates.
    expect(server.calls('GET', '/api/services/').map((call) => call.path)).toEqual([
      '/api/services/samsara/trucks/41.88/-87.63',
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Send the offer' }));
    expect(await screen.findByText('Please enter a price greater than 0')).toBeTruthy();
    expect(server.calls('POST', '/api/proposal/l1')).toHaveLength(0);

    const price = screen.getByLabelText(/^Price \(USD\)/);
    fireEvent.paste(price, { clipboardData: { getData: () => '2150' } });
    fireEvent.click(
      document
        .querySelector('#offer-truck')!
        .closest('.p-dropdown')!
        .querySelector('.p-dropdown-trigger')!,
    );
    const options = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('.p-dropdown-panel [role=option]')];
      expect(found.length).toBeGreaterThan(0);
      return found;
    });
    expect(options.map((option) => option.textContent)).toEqual([
      'Truck 12 · 3 mi from the pickup',
      'Truck 7 · 141 mi from the pickup',
    ]);
    fireEvent.click(options[0]);
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Team drivers' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send the offer' }));

    await waitFor(() => expect(server.calls('POST', '/api/proposal/l1')).toHaveLength(1));
    expect(server.calls('POST', '/api/proposal/l1')[0].body).toEqual({
      price: 2150,
      message: 'Team drivers',
      eldTruckName: 'Truck 12',
    });
    expect(await screen.findByRole('button', { name: 'Revise the offer' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Withdraw the offer' })).toBeTruthy();
  });

  it('takes a free-text truck without ELD, and answers a counter-offer that arrives live', async () => {
    const server = offerServer({ eld: false });
    renderMarketplaceAt('/offer/load?id=l1');
    expect(await screen.findByText("No ELD trucks found: type the truck's name.")).toBeTruthy();

    fireEvent.paste(screen.getByLabelText(/^Price \(USD\)/), {
      clipboardData: { getData: () => '2150' },
    });
    fireEvent.change(screen.getByLabelText('Truck'), { target: { value: 'Unit 44' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send the offer' }));
    await waitFor(() => expect(server.calls('POST', '/api/proposal/l1')).toHaveLength(1));
    expect(
      (server.calls('POST', '/api/proposal/l1')[0].body as { eldTruckName: string }).eldTruckName,
    ).toBe('Unit 44');
    await screen.findByRole('button', { name: 'Revise the offer' });

    server.counter(1900);
    await act(async () =>
      publishRealtime('proposal:updated', {
        loadId: 'l1',
        proposalId: 'p1',
        status: 11,
        price: 2150,
        counterPrice: 1900,
      }),
    );
    expect(await screen.findByText('The shipper proposes $1,900.00.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Accept the counter-offer' }));
    await waitFor(() => expect(server.calls('PUT', '/api/proposal/p1')).toHaveLength(1));
    expect(server.calls('PUT', '/api/proposal/p1')[0].body).toEqual({ status: 10 });
    await waitFor(() => expect(screen.queryByText('The shipper proposes $1,900.00.')).toBeNull());
  });
  it('says the load is not on the marketplace any more when the server answers 404', async () => {
    fakeServer(
      get('/api/loads/l9', { message: 'Load not found' }, 404),
      get('/api/proposal/l9', { message: 'Load not found' }, 404),
      get('/api/organization-services', []),
    );
    renderMarketplaceAt('/offer/load?id=l9');
    expect(
      await screen.findByText(
        'This load is not on the marketplace any more: another carrier may have booked it, or the shipper closed it.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('Something went wrong!')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to the loads' })).toBeTruthy();
  });
});
