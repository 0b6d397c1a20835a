import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAppAt, resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const posted = '2026-11-20T14:00:00.000Z';
const offered = '2026-11-20T15:30:00.000Z';
const accepted = '2026-11-20T16:45:00.000Z';

const shipper = { id: 'user-shipper', name: 'Dana Brooks' };
const carrierUser = { id: 'user-carrier', name: 'Carl Rivers' };
const shipperOrg = { id: 'org-2', name: 'Acme Foods' };
const carrierOrg = { id: 'org-3', name: 'Rivers Trucking' };

const stops = [
  {
    id: 's1',
    locationType: 1,
    address: 'Chicago, IL 60607',
    city: 'Chicago',
    state: 'IL',
    name: 'Acme Warehouse',
  },
  {
    id: 's2',
    locationType: 4,
    address: 'Dallas, TX 75202',
    city: 'Dallas',
    state: 'TX',
    name: 'Lone Star DC',
  },
];
const details = {
  pickupStart: '2026-12-01T15:00:00.000Z',
  pickupTimezone: 'America/Chicago',
  dropoffStart: '2026-12-02T18:00:00.000Z',
  dropoffTimezone: 'America/Chicago',
  expiration: '2026-11-30T23:00:00.000Z',
  expirationTimezone: 'America/Chicago',
  weight: 42000,
  commodity: 'Canned food',
  refNumber: 'PO-77',
  equipment: [],
  stops,
};

const events = [
  {
    position: '1:1',
    at: posted,
    type: 'LoadPosted',
    stream: 'load-l1',
    user: shipper,
    organization: shipperOrg,
    data: { guid: 'L-000123', details },
  },
  {
    position: '1:2',
    at: offered,
    type: 'ProposalSubmitted',
    stream: 'proposal-p1',
    user: carrierUser,
    organization: carrierOrg,
    data: { price: 1850, message: 'Can load early' },
  },
  {
    position: '1:3',
    at: accepted,
    type: 'LoadProposalAccepted',
    stream: 'load-l1',
    user: shipper,
    organization: shipperOrg,
    data: { price: 1850 },
  },
  {
    position: '1:4',
    at: accepted,
    type: 'TourOpened',
    stream: 'tour-t1',
    user: shipper,
    organization: shipperOrg,
    data: { price: 1850 },
  },
];

/** The history endpoint: the whole trail, and with `at` the load, offers and tour as they stood then. */
function fakeServer() {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      urls.push(url);
      const [path, query] = url.split('?');
      if (path !== '/api/loads/l1/history') return json(404, { message: 'Not found' });
      const at = new URLSearchParams(query ?? '').get('at');
      if (!at) return json(200, { loadId: 'l1', guid: 'L-000123', at: null, events });
      const load = {
        loadId: 'l1',
        guid: 'L-000123',
        status: at >= accepted ? 5 : 4,
        price: at >= accepted ? 1850 : null,
        carrierOrganizationId: null,
        cancelMessage: null,
        updatedAt: at,
        details,
      };
      const offers =
        at >= offered
          ? [
              {
                proposalId: 'p1',
                carrierOrganizationId: 'org-3',
                status: at >= accepted ? 5 : 10,
                price: 1850,
                counterPrice: null,
                message: 'Can load early',
                eldTruckName: null,
                submittedAt: offered,
                updatedAt: at,
              },
            ]
          : [];
      const tour =
        at >= accepted
          ? {
              tourId: 't1',
              status: 7,
              assigneeName: null,
              arrivedStopIds: [],
              departedStopIds: [],
              ratings: { shipper: null, carrier: null },
              updatedAt: at,
            }
          : null;
      return json(200, {
        loadId: 'l1',
        guid: 'L-000123',
        at,
        events: events.filter((event) => event.at <= at),
        load,
        proposals: offers,
        tour,
      });
    }),
  );
  return { urls };
}

describe('the load history page', () => {
  beforeEach(async () => {
    await resetApp(users.shipper);
  });

  it('lists every event with who and when, and the slider shows the load, offers and tour as they stood', async () => {
    const { urls } = fakeServer();
    renderAppAt('/loads/history/l1');

    expect(
      await screen.findByRole(
        'heading',
        { name: 'Load history · L-000123', level: 1 },
        { timeout: 20_000 },
      ),
    ).toBeTruthy();
    const list = screen.getByRole('heading', { name: 'Every event' }).parentElement!;
    expect(within(list).getByText('Load L-000123 posted: Chicago, IL → Dallas, TX')).toBeTruthy();
    expect(within(list).getByText('Offer of $1,850.00: “Can load early”')).toBeTruthy();
    expect(within(list).getAllByText(/Carl Rivers \(Rivers Trucking\)/)).toHaveLength(1);

    // At first the slider stands on the last event: the offer is accepted and the tour exists.
    const slider = screen.getByRole('slider', { name: "Moment in the load's history" });
    expect((slider as HTMLInputElement).value).toBe('3');
    const snapshot = await screen.findByTestId('history-snapshot');
    await waitFor(() => expect(within(snapshot).getByText('Bid Accepted')).toBeTruthy());
    // The load and its one offer are both Accepted, at the agreed price.
    expect(within(snapshot).getAllByText('Accepted', { selector: '.status-chip' })).toHaveLength(2);
    expect(within(snapshot).getByText('Offers (1)')).toBeTruthy();
    expect(within(snapshot).getAllByText('$1,850.00')).toHaveLength(2);

    // Back to the first event: the load as posted, no offer, no tour.
    fireEvent.change(slider, { target: { value: '0' } });
    expect(screen.getByText('Event 1 of 4')).toBeTruthy();
    await waitFor(() =>
      expect(
        within(screen.getByTestId('history-snapshot')).getByText('No offers yet.'),
      ).toBeTruthy(),
    );
    const first = screen.getByTestId('history-snapshot');
    expect(within(first).getByText('Created', { selector: '.status-chip' })).toBeTruthy();
    expect(within(first).getByText('No tour yet.')).toBeTruthy();
    expect(urls).toContain(`/api/loads/l1/history?at=${encodeURIComponent(posted)}`);

    // The offer's moment: one offer, still open.
    fireEvent.change(slider, { target: { value: '1' } });
    await waitFor(() =>
      expect(
        within(screen.getByTestId('history-snapshot')).getByText('Submitted Proposal'),
      ).toBeTruthy(),
    );
    expect(
      within(screen.getByTestId('history-snapshot')).getByText('Rivers Trucking'),
    ).toBeTruthy();
    expect(urls).toContain(`/api/loads/l1/history?at=${encodeURIComponent(offered)}`);
  });

  it('names everyone as they were at each event: a renamed carrier keeps its old name in the past', async () => {
    const renamed = { id: 'org-3', name: 'Rivers Freight Lines' };
    const later = '2026-11-21T09:00:00.000Z';
    const trail = [
      events[0],
      events[1],
      {
        position: '1:5',
        at: later,
        type: 'ProposalRevised',
        stream: 'proposal-p1',
        user: { ...carrierUser, name: 'Carl Renamed' },
        organization: renamed,
        data: { price: 1800, message: 'Lower' },
      },
    ];
    const offer = {
      proposalId: 'p1',
      carrierOrganizationId: 'org-3',
      status: 10,
      counterPrice: null,
      message: '',
      eldTruckName: null,
      submittedAt: offered,
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const at = new URLSearchParams(String(input).split('?')[1] ?? '').get('at');
        if (!at) return json(200, { loadId: 'l1', guid: 'L-000123', at: null, events: trail });
        const load = {
          loadId: 'l1',
          guid: 'L-000123',
          status: 4,
          price: null,
          carrierOrganizationId: null,
          cancelMessage: null,
          updatedAt: at,
          details,
        };
        // The server names the carrier as it was at the moment asked for.
        const offers =
          at >= offered
            ? [
                {
                  ...offer,
                  price: at >= later ? 1800 : 1850,
                  updatedAt: at,
                  carrierOrganization: at >= later ? renamed : carrierOrg,
                },
              ]
            : [];
        return json(200, {
          loadId: 'l1',
          guid: 'L-000123',
          at,
          events: trail.filter((event) => event.at <= at),
          load,
          proposals: offers,
          tour: null,
        });
      }),
    );
    renderAppAt('/loads/history/l1');

    const list = (await screen.findByRole('heading', { name: 'Every event' }, { timeout: 20_000 }))
      .parentElement!;
    expect(within(list).getAllByText(/Carl Rivers \(Rivers Trucking\)/)).toHaveLength(1);
    expect(within(list).getAllByText(/Carl Renamed \(Rivers Freight Lines\)/)).toHaveLength(1);
    await waitFor(() =>
      expect(
        within(screen.getByTestId('history-snapshot')).getByText('Rivers Freight Lines'),
      ).toBeTruthy(),
    );

    // At the first offer the carrier still had its old name, although the trail ends with the new one.
    fireEvent.change(screen.getByRole('slider', { name: "Moment in the load's history" }), {
      target: { value: '1' },
    });
    await waitFor(() =>
      expect(
        within(screen.getByTestId('history-snapshot')).getByText('Rivers Trucking'),
      ).toBeTruthy(),
    );
    expect(
      within(screen.getByTestId('history-snapshot')).queryByText('Rivers Freight Lines'),
    ).toBeNull();
  });
});
