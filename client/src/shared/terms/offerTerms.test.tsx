import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeServer, get, type Received } from '../../test/marketplace.testing.tsx';
import { renderMarketplaceAt } from '../../test/marketplace.testing.tsx';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import type { AccessorialTerms } from './terms.ts';

// The first render loads the page's chunk on demand.

const terms: AccessorialTerms = {
  freeTimeHours: { pickup: 2, delivery: 2 },
  detentionPerHour: 75,
  detentionCap: 600,
  tonu: 250,
  layoverPerDay: 300,
  lumper: 'shipper',
  graceMinutes: 30,
  disputeWindowHours: 48,
};
const stop = (id: string, locationType: number, name: string, latitude: number) => ({
  id,
  locationType,
  address: `${name} address`,
  city: null,
  state: null,
  name,
  latitude,
  longitude: -90,
  contactName: null,
  contactPhone: null,
  number: null,
});
const load = {
  id: 'l1',
  guid: 'L-000101',
  status: 4,
  statusName: 'Created',
  shipper: 'Acme Foods',
  pickupTimestampStart: '2030-01-10T14:00:00.000Z',
  pickupTimestampEnd: null,
  pickupTimezone: 'America/Chicago',
  dropOffTimestampStart: '2030-01-11T20:00:00.000Z',
  dropOffTimestampEnd: null,
  dropoffTimezone: 'America/Chicago',
  expiration: '2030-01-09T14:00:00.000Z',
  expirationTimezone: 'America/Chicago',
  loadTypeId: 1,
  loadAccessories: [],
  loadEquipment: [15],
  description: '',
  weight: 42000,
  commodity: 'Frozen berries',
  refNumber: 'PO-1',
  locations: [stop('s1', 1, 'Chicago Cold Storage', 41.88), stop('s2', 4, 'Dallas DC', 32.78)],
  contactsHidden: true,
  acceptedProposalId: null,
  contractFileId: null,
  terms,
};

describe('terms on the offer screen', { timeout: 60_000 }, () => {
  beforeEach(() => resetApp(users.carrier));

  it("shows the load's terms before the carrier offers, and an offer may propose its own", async () => {
    const server = fakeServer(
      get('/api/loads/l1', load),
      get('/api/organization-services', []),
      (request: Received) =>
        request.method === 'GET' && request.path.startsWith('/api/proposal/l1')
          ? { status: 404, body: { message: 'Load not found' } }
          : request.method === 'POST' && request.path === '/api/proposal/l1'
            ? { status: 201, body: { id: 'p1', message: 'Offer submitted' } }
            : undefined,
    );
    renderMarketplaceAt('/offer/load?id=l1');
    const details = await screen.findByRole('region', { name: 'Accessorial terms' });
    expect(
      within(details).getByText('Detention: $75.00 per hour, up to $600.00 a stop'),
    ).toBeTruthy();
    expect(within(details).getByText('Lumper: paid by the shipper')).toBeTruthy();

    // Off: the offer takes the load's terms.
    expect(screen.getByText('Same terms as the load')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByLabelText('Propose other terms with this offer'));
    });
    const rate = screen.getByLabelText('Detention per hour');
    // Started from the load's terms.
    expect((rate as HTMLInputElement).value).toBe('$75.00');
    await act(async () => {
      fireEvent.input(rate, { target: { value: '90' } });
      fireEvent.blur(rate);
    });
    fireEvent.paste(screen.getByLabelText(/^Price \(USD\)/), {
      clipboardData: { getData: () => '2150' },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send the offer' }));
    });
    await waitFor(() => expect(server.calls('POST', '/api/proposal/l1')).toHaveLength(1));
    expect(server.calls('POST', '/api/proposal/l1')[0]!.body).toMatchObject({
      price: 2150,
      terms: { ...terms, detentionPerHour: 90 },
    });
  });
});
