import { act, configure, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import i18n from '../../i18n/index.ts';
import { fakeServer, get, renderMarketplaceAt } from '../../test/marketplace.testing.tsx';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';

configure({ asyncUtilTimeout: 15_000 });

const ID = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';
const facility = (change: Record<string, unknown> = {}) => ({
  id: ID,
  name: 'Acme Paper Mill',
  address: 'Chicago, IL',
  latitude: 41.88,
  longitude: -87.63,
  visits: 12,
  timeOnSite: { median: 100, p75: 150 },
  byWeekday: [
    { weekday: 1, hour: 8, median: 90, visits: 5 },
    { weekday: 3, hour: 14, median: null, visits: 2 },
  ],
  onTimeShare: 0.75,
  onTimeVisits: 12,
  detentionShare: 0.25,
  tags: [
    { tag: 'parking', count: 3 },
    { tag: 'restrooms', count: 0 },
    { tag: 'entrance', count: 1 },
    { tag: 'staff', count: 0 },
    { tag: 'wait', count: 4 },
  ],
  replies: [
    {
      id: 'r1',
      text: 'Use gate 3 after 6 pm',
      at: '2026-12-01T18:00:00.000Z',
      organization: 'Prairie Foods Inc.',
    },
  ],
  canTag: false,
  canReply: false,
  ...change,
});

describe('the facility page', { timeout: 60_000 }, () => {
  beforeEach(() => resetApp(users.carrier));

  it('shows the time on site, shares, the weekday and hour table, tags and replies', async () => {
    fakeServer(get(`/api/facilities/${ID}`, facility()));
    renderMarketplaceAt(`/facilities/${ID}`);
    expect(await screen.findByRole('heading', { name: 'Acme Paper Mill' })).toBeTruthy();
    expect(screen.getByText('Visits measured: 12')).toBeTruthy();
    expect(screen.getByText('1 h 40 min')).toBeTruthy();
    expect(screen.getByText('2 h 30 min')).toBeTruthy();
    expect(screen.getByText('75% of 12 arrivals by the appointment and its grace')).toBeTruthy();
    expect(screen.getByText('25% of visits with a detention claim')).toBeTruthy();
    const table = screen.getByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual(['Monday08:001 h 30 min5', 'Wednesday14:00—2']);
    const tags = screen.getByRole('region', { name: 'What drivers say' });
    expect(within(tags).getByText('Wait').parentElement?.textContent).toBe('Wait Drivers: 4');
    expect(screen.getByText('Use gate 3 after 6 pm')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Post reply' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send tags' })).toBeNull();
  });

  it('shows no figures under three visits', async () => {
    fakeServer(
      get(
        `/api/facilities/${ID}`,
        facility({
          visits: 2,
          timeOnSite: { median: null, p75: null },
          byWeekday: [],
          onTimeShare: null,
          onTimeVisits: 2,
          detentionShare: null,
        }),
      ),
    );
    renderMarketplaceAt(`/facilities/${ID}`);
    expect(
      await screen.findByText('Not enough visits yet: figures are shown from 3 visits.'),
    ).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("lets the facility's shipper reply", async () => {
    await resetApp(users.shipper);
    const server = fakeServer(
      get(`/api/facilities/${ID}`, facility({ canReply: true })),
      (request) =>
        request.method === 'POST' && request.path === `/api/facilities/${ID}/replies`
          ? {
              status: 201,
              body: facility({
                canReply: true,
                replies: [
                  {
                    id: 'r2',
                    text: (request.body as { text: string }).text,
                    at: '2026-12-02T18:00:00.000Z',
                    organization: 'Shipper Co.',
                  },
                ],
              }),
            }
          : undefined,
    );
    renderMarketplaceAt(`/facilities/${ID}`);
    const box = await screen.findByLabelText('Your reply');
    fireEvent.change(box, { target: { value: 'Dock 4 opens at 5 am' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post reply' }));
    expect(await screen.findByText('Dock 4 opens at 5 am')).toBeTruthy();
    expect(server.calls('POST', `/api/facilities/${ID}/replies`)[0]?.body).toEqual({
      text: 'Dock 4 opens at 5 am',
    });
  });

  it('lets a driver who left it tag it', async () => {
    await resetApp(users.driver);
    const server = fakeServer(
      get(`/api/facilities/${ID}`, facility({ canTag: true })),
      (request) =>
        request.method === 'POST' && request.path === `/api/facilities/${ID}/tags`
          ? { status: 201, body: facility({ canTag: true }) }
          : undefined,
    );
    renderMarketplaceAt(`/facilities/${ID}`);
    fireEvent.click(await screen.findByLabelText('Parking'));
    fireEvent.click(screen.getByLabelText('Wait'));
    fireEvent.click(screen.getByRole('button', { name: 'Send tags' }));
    expect(await screen.findByText('Thank you, your tags are saved.')).toBeTruthy();
    expect(server.calls('POST', `/api/facilities/${ID}/tags`)[0]?.body).toEqual({
      tags: ['parking', 'wait'],
    });
  });

  it('reads right to left in Arabic', async () => {
    await act(async () => {
      await i18n.changeLanguage('ar');
    });
    fakeServer(get(`/api/facilities/${ID}`, facility()));
    renderMarketplaceAt(`/facilities/${ID}`);
    expect(await screen.findByText('ما يقوله السائقون')).toBeTruthy();
    expect(document.documentElement.dir).toBe('rtl');
  });
});
