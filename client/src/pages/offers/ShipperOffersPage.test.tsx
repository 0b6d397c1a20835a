import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import { fakeServer, get, renderMarketplaceAt, tableOf } from '../../test/marketplace.testing.tsx';

const stop = (id: string, locationType: number, city: string, state: string) => ({
  id,
  locationType,
  address: `${city}, ${state}`,
  city,
  state,
  name: `${city} DC`,
  latitude: 41.88,
  longitude: -87.63,
  contactName: null,
  contactPhone: null,
  number: null,
});
const load = {
  id: 'l1',
  guid: 'L-000101',
  status: 4,
  statusName: 'Created',
  shipperOrganizationId: 's',
  shipper: 'Acme Foods',
  postedAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  pickupTimestampStart: '2030-01-10T14:00:00.000Z',
  pickupTimestampEnd: null,
  pickupTimezone: 'America/Chicago',
  dropOffTimestampStart: '2030-01-11T20:00:00.000Z',
  dropOffTimestampEnd: null,
  dropoffTimezone: 'America/Chicago',
  expiration: '2030-01-09T14:00:00.000Z',
  expirationTimezone: 'America/Chicago',
  loadTypeId: 1,
  rate: 1,
  rateTypeId: 1,
  carriersSortingTypeId: 1,
  loadAccessories: [4],
  loadEquipment: [15],
  description: '',
  weight: 42000,
  commodity: 'Frozen berries',
  refNumber: 'PO-1',
  locations: [stop('s1', 1, 'Chicago', 'IL'), stop('s2', 4, 'Dallas', 'TX')],
  contactsHidden: false,
  acceptedProposalId: null,
  carrierOrganizationId: null,
  price: null,
  tourId: null,
  contractFileId: null,
  cancelMessage: null,
  canEdit: true,
  trust: { state: 'ready', reasons: [] },
  terms: null as unknown,
};
const loadTerms = {
  freeTimeHours: { pickup: 2, delivery: 2 },
  detentionPerHour: 50,
  detentionCap: 500,
  tonu: 150,
  layoverPerDay: 250,
  lumper: 'carrier-reimbursed',
  graceMinutes: 30,
  disputeWindowHours: 48,
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
  eldTruckName: null,
  submittedAt: '2030-01-02T00:00:00.000Z',
  updatedAt: null,
  carrier: { id: 'c1', name: 'Rivers Trucking', ratings: {} },
  tourId: null,
  contractFileId: null,
  actions: [1],
  canAccept: true,
  canCounter: true,
  canDecline: true,
  trust: { state: 'ready', reasons: [] },
  terms: null,
  counterTerms: null,
  ...overrides,
});

describe("the shipper's offers on a load", { timeout: 60_000 }, () => {
  beforeEach(() => resetApp(users.shipper));

  it('marks the offer of a flagged carrier with a warning and its reasons, before accepting', async () => {
    fakeServer(
      get('/api/loads/l1', load),
      get('/api/loads/l1/proposals/map', []),
      get(
        '/api/proposal/l1',
        tableOf([
          offer({}),
          offer({
            id: 'p2',
            carrier: { id: 'c2', name: 'Shadow Freight', ratings: {} },
            trust: {
              state: 'flagged',
              reasons: [
                {
                  code: 'authority_inactive',
                  text: "The carrier's operating authority is not active",
                },
              ],
            },
          }),
        ]),
      ),
    );
    renderMarketplaceAt('/offers/shipper/load?id=l1');
    const flagged = (await screen.findByText('Shadow Freight')).closest('tr')!;
    expect(within(flagged).getByText('Flagged carrier')).toBeTruthy();
    expect(
      within(flagged).getByText("The carrier's operating authority is not active"),
    ).toBeTruthy();
    const clean = screen.getByText('Rivers Trucking').closest('tr')!;
    expect(within(clean).queryByText('Flagged carrier')).toBeNull();
    expect(screen.getByText('Ready')).toBeTruthy();
  });

  it("shows an offer's own terms where they differ from the load's, and the counter's terms", async () => {
    fakeServer(
      // The load's terms arrive in another key order than the rows' (read from the stream, not the table).
      get('/api/loads/l1', {
        ...load,
        terms: Object.fromEntries(Object.entries(loadTerms).reverse()),
      }),
      get('/api/loads/l1/proposals/map', []),
      get(
        '/api/proposal/l1',
        tableOf([
          offer({ terms: { ...loadTerms } }),
          offer({
            id: 'p2',
            carrier: { id: 'c2', name: 'Lakeside Haulers', ratings: {} },
            terms: { ...loadTerms, detentionPerHour: 90, tonu: 250 },
          }),
          offer({
            id: 'p3',
            carrier: { id: 'c3', name: 'Prairie Lines', ratings: {} },
            status: 11,
            statusName: 'Pending Acceptance',
            counterPrice: 2000,
            counterTerms: { ...loadTerms, tonu: 400, detentionCap: null },
            canAccept: false,
            canCounter: false,
          }),
        ]),
      ),
    );
    renderMarketplaceAt('/offers/shipper/load?id=l1');
    const same = (await screen.findByText('Rivers Trucking')).closest('tr')!;
    expect(within(same).getByText('Same terms as the load')).toBeTruthy();
    const own = screen.getByText('Lakeside Haulers').closest('tr')!;
    expect(within(own).getByText('Terms of this offer')).toBeTruthy();
    expect(
      within(own).getByText('Free 2 h / 2 h · detention $90.00/h, cap $500.00 · TONU $250.00'),
    ).toBeTruthy();
    const countered = screen.getByText('Prairie Lines').closest('tr')!;
    expect(within(countered).getByText('Same terms as the load')).toBeTruthy();
    expect(within(countered).getByText('Terms proposed with the counter-offer')).toBeTruthy();
    expect(
      within(countered).getByText('Free 2 h / 2 h · detention $50.00/h, no cap · TONU $400.00'),
    ).toBeTruthy();
  });
});
