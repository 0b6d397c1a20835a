import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import i18n from '../../i18n/index.ts';
import { LoadSummary } from '../../shared/loads/LoadSummary.tsx';
import type { LoadDetail } from '../../shared/loads/loads.api.ts';
import { fakeServer, get, renderMarketplaceAt, tableOf } from '../../test/marketplace.testing.tsx';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';

configure({ asyncUtilTimeout: 15_000 });

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
const NEW_FIGURES = {
  stops: 0,
  timeOnSiteMedian: null,
  detentionShare: null,
  approvedOnTimeShare: null,
  status: 'new' as const,
};
const row = (
  id: string,
  guid: string,
  payer: { medianDaysToPay: number | null; paidWithinTermsShare: number | null; status: string },
) => ({
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
  detention: { shipper: NEW_FIGURES, pickup: NEW_FIGURES, delivery: NEW_FIGURES },
  payer,
});

const aging = (side: 'receivable' | 'payable') => ({
  buckets: [
    { label: 'current', count: 2, amount: 3000 },
    { label: '1-30', count: 1, amount: 1250.5 },
    { label: '31-60', count: 0, amount: 0 },
    { label: '61-90', count: 1, amount: 800 },
    { label: '90+', count: 0, amount: 0 },
  ],
  side,
});

describe('days-to-pay and aging on the screens', { timeout: 60_000 }, () => {
  beforeEach(() => resetApp(users.carrier));

  it("shows how each shipper pays on its marketplace row, and filters by 'Pays within'", async () => {
    const server = fakeServer((request) =>
      request.path.startsWith('/api/loads/carrier')
        ? {
            body: tableOf(
              request.path.includes('maxDaysToPay')
                ? [
                    row('l1', 'L-000101', {
                      medianDaysToPay: 11.5,
                      paidWithinTermsShare: 0.9,
                      status: 'measured',
                    }),
                  ]
                : [
                    row('l1', 'L-000101', {
                      medianDaysToPay: 11.5,
                      paidWithinTermsShare: 0.9,
                      status: 'measured',
                    }),
                    row('l2', 'L-000102', {
                      medianDaysToPay: null,
                      paidWithinTermsShare: null,
                      status: 'new',
                    }),
                  ],
            ),
          }
        : undefined,
    );
    renderMarketplaceAt('/loads/carrier');
    const fast = (await screen.findByText('L-000101')).closest('tr')!;
    const figure = within(fast).getByText('Pays in ~12 days');
    expect(figure.closest('[title]')?.getAttribute('title')).toContain('90% paid within terms');
    const fresh = screen.getByText('L-000102').closest('tr')!;
    expect(within(fresh).getByText('New payer')).toBeTruthy();

    // PrimeReact's dropdown opens its panel on a click of the box around its hidden input.
    fireEvent.click(screen.getByLabelText('Pays within').closest('.p-dropdown') as HTMLElement);
    const option = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('[role=option]')].find(
        (item) => item.textContent?.trim() === '30 days or less',
      );
      if (!found) throw new Error('no option');
      return found;
    });
    fireEvent.click(option);
    await waitFor(() => expect(screen.queryByText('L-000102')).toBeNull());
    const filtered = server.calls('GET', '/api/loads/carrier').at(-1)!;
    const filters = JSON.parse(new URL(filtered.path, 'http://x').searchParams.get('filters')!);
    expect(filters).toContainEqual({ name: 'maxDaysToPay', value: [30] });
  });

  it("tells the carrier on the offer screen's summary how the shipper pays, or that it is new", async () => {
    const load = (payer: LoadDetail['payer']) =>
      ({
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
        payer,
      }) as unknown as LoadDetail;
    const { unmount } = render(
      <LoadSummary
        load={load({ medianDaysToPay: 45, paidWithinTermsShare: 0.25, status: 'measured' })}
        showMap={false}
      />,
    );
    expect(screen.getByText('Pays in ~45 days').closest('[title]')?.getAttribute('title')).toBe(
      'Median days from invoice to payment over the last year; 25% paid within terms',
    );
    unmount();
    render(
      <LoadSummary
        load={load({ medianDaysToPay: null, paidWithinTermsShare: null, status: 'new' })}
        showMap={false}
      />,
    );
    expect(screen.getByText('New payer')).toBeTruthy();
  });

  it('shows a carrier its receivables by days past due, as bars and a table', async () => {
    fakeServer(get('/api/insights/aging', aging('receivable')));
    renderMarketplaceAt('/insights/aging');
    expect(
      await screen.findByRole('heading', {
        name: 'Receivables: your open invoices by days past due',
      }),
    ).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Open invoice amounts by days past due' })).toBeTruthy();
    const table = screen.getByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Past due', 'Invoices', 'Amount'],
      ['Current', '2', '$3,000.00'],
      ['1–30 days', '1', '$1,250.50'],
      ['31–60 days', '0', '$0.00'],
      ['61–90 days', '1', '$800.00'],
      ['Over 90 days', '0', '$0.00'],
      ['Total', '4', '$5,050.50'],
    ]);
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(screen.queryByText('How you pay your carriers')).toBeNull();
  });

  it('shows a shipper its payables and its own figures, in Arabic too', async () => {
    await resetApp(users.shipper);
    fakeServer(
      get('/api/insights/aging', aging('payable')),
      get(`/api/insights/payers/${users.shipper.organization!.id}`, {
        paidCount: 2,
        medianDaysToPay: null,
        p90DaysToPay: null,
        paidWithinTermsShare: null,
        overdueAmount: null,
        window: '365d',
        status: 'new',
      }),
    );
    await act(async () => {
      await i18n.changeLanguage('ar');
    });
    try {
      renderMarketplaceAt('/insights/aging');
      expect(
        await screen.findByRole('heading', {
          name: 'المدفوعات: الفواتير المفتوحة المستحقة عليك حسب أيام التأخير',
        }),
      ).toBeTruthy();
      expect(await screen.findByText('كيف تدفع لناقليك')).toBeTruthy();
      expect(
        await screen.findByText('يراك الناقلون دافعًا جديدًا حتى تُدفع 3 فواتير خلال الفترة.'),
      ).toBeTruthy();
      expect(document.documentElement.dir).toBe('rtl');
    } finally {
      await act(async () => {
        await i18n.changeLanguage('en');
      });
    }
  });
});
