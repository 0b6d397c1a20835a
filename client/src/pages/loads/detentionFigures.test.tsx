import { act, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import i18n from '../../i18n/index.ts';
import type { LoadDetention } from '../../shared/claims/DetentionFigures.tsx';
import { LoadSummary } from '../../shared/loads/LoadSummary.tsx';
import type { LoadDetail } from '../../shared/loads/loads.api.ts';
import { fakeServer, renderMarketplaceAt, tableOf } from '../../test/marketplace.testing.tsx';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';

const NEW = {
  stops: 2,
  timeOnSiteMedian: null,
  detentionShare: null,
  approvedOnTimeShare: null,
  status: 'new' as const,
};
const detention: LoadDetention = {
  shipper: {
    stops: 12,
    timeOnSiteMedian: 100,
    detentionShare: 0.2,
    approvedOnTimeShare: 0.9,
    status: 'measured',
  },
  pickup: NEW,
  delivery: {
    stops: 4,
    timeOnSiteMedian: 120,
    detentionShare: 0.5,
    approvedOnTimeShare: null,
    status: 'measured',
  },
};

const place = (city: string, state: string) => ({
  address: `${city}, ${state}`,
  city,
  state,
  latitude: 41.88,
  longitude: -87.63,
  time: '2030-01-10T14:00:00.000Z',
  timeEnd: null,
  timezone: 'America/Chicago',
});
const row = (id: string, guid: string, figures: LoadDetention) => ({
  id,
  guid,
  loadStatus: 4,
  loadStatusName: 'Created',
  pickup: place('Chicago', 'IL'),
  dropoff: place('Dallas', 'TX'),
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
  status: 4,
  statusName: 'Created',
  shipper: 'Prairie Foods Inc.',
  originDistance: null,
  destinationDistance: null,
  myProposal: null,
  actions: [1, 5],
  detention: figures,
});

const load = {
  id: 'a1',
  guid: 'L-000001',
  status: 4,
  statusName: 'Open',
  shipper: 'Prairie Foods Inc.',
  pickupTimestampStart: '2030-01-02T15:00:00.000Z',
  pickupTimestampEnd: null,
  pickupTimezone: 'America/Chicago',
  dropOffTimestampStart: '2030-01-03T15:00:00.000Z',
  dropOffTimestampEnd: null,
  dropoffTimezone: 'America/Chicago',
  expiration: '2030-01-01T15:00:00.000Z',
  expirationTimezone: 'America/Chicago',
  loadTypeId: 1,
  loadAccessories: [],
  loadEquipment: [],
  weight: 1000,
  commodity: 'Paper',
  refNumber: 'R1',
  description: '',
  locations: [],
  terms: null,
  detention,
} as unknown as LoadDetail;

describe('detention figures before a carrier offers', { timeout: 60_000 }, () => {
  beforeEach(() => resetApp(users.carrier));

  it("shows the shipper's figures on its marketplace row, 'new' under three measured stops", async () => {
    fakeServer((request) =>
      request.path.startsWith('/api/loads/carrier')
        ? {
            body: tableOf([
              row('l1', 'L-000101', detention),
              row('l2', 'L-000102', { shipper: NEW, pickup: NEW, delivery: NEW }),
            ]),
          }
        : undefined,
    );
    renderMarketplaceAt('/loads/carrier');
    const measured = (await screen.findByText('L-000101')).closest('tr')!;
    expect(
      within(measured).getByText(
        'Shipper: 1 h 40 min on site · 20% detention · 90% claims approved on time',
      ),
    ).toBeTruthy();
    const fresh = screen.getByText('L-000102').closest('tr')!;
    expect(within(fresh).getByText('Shipper: new, fewer than 3 stops measured')).toBeTruthy();
  });

  it("lists the shipper's, the pickup's and the delivery's figures in the load's details", async () => {
    render(<LoadSummary load={load} showMap={false} />);
    const section = screen.getByRole('region', { name: 'Time on site, measured' });
    const lines = within(section)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(lines).toEqual([
      'Shipper: 1 h 40 min on site · 20% detention · 90% claims approved on time',
      'Pickup: new, fewer than 3 stops measured',
      'Delivery: 2 h 00 min on site · 50% detention · no claims answered yet',
    ]);
  });

  it('says it in the language of the page', async () => {
    await act(async () => {
      await i18n.changeLanguage('fr');
    });
    render(<LoadSummary load={load} showMap={false} />);
    const section = screen.getByRole('region', { name: 'Temps sur place, mesuré' });
    expect(
      within(section).getByText('Chargement : nouveau, moins de 3 arrêts mesurés'),
    ).toBeTruthy();
    await act(async () => {
      await i18n.changeLanguage('en');
    });
  });
});
