import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAppAt, resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';

const json = (status: number, body: unknown) =>
  new Response(status === 202 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

const STILL_FAILS =
  'null value in column "organization_id" of relation "tours_view" violates not-null constraint';

const parkedEvents = [
  {
    eventId: 'e-1',
    streamId: 'tour-4f1c',
    type: 'TourOpened',
    position: '1207',
    error: STILL_FAILS,
    at: '2026-11-25T14:03:00.000Z',
  },
  {
    eventId: 'e-2',
    streamId: 'tour-77aa',
    type: 'TourStatusChanged',
    position: '1311',
    error: 'tour 77aa not found',
    at: '2026-11-25T14:05:00.000Z',
  },
];

/** GET admin/projections and its parked events, retry (e-1 still fails, e-2 applies) and rebuild, as docs/api.md describes them. */
function fakeServer() {
  const calls: string[] = [];
  let parked = [...parkedEvents];
  const models = () => [
    {
      projection: 'marketplace',
      version: 4,
      status: 'running',
      position: '0:1480',
      lag: 0,
      parked: 0,
      rebuild: null,
    },
    {
      projection: 'tours',
      version: 2,
      status: 'stalled',
      position: '0:1206',
      lag: 274,
      parked: parked.length,
      rebuild: null,
    },
    {
      projection: 'loadBoard',
      version: 3,
      status: 'rebuilding',
      position: '0:1480',
      lag: 0,
      parked: 0,
      rebuild: { progress: 0.42, position: '0:622' },
    },
  ];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input);
      const method = init?.method ?? 'GET';
      calls.push(`${method} ${path}`);
      if (method === 'GET' && path === '/api/admin/projections') return json(200, models());
      if (method === 'GET' && path === '/api/admin/projections/tours/parked')
        return json(200, parked);
      if (method === 'POST' && path === '/api/admin/projections/tours/parked/e-1/retry')
        return json(409, { statusCode: 409, error: 'Conflict', message: STILL_FAILS });
      if (method === 'POST' && path === '/api/admin/projections/tours/parked/e-2/retry') {
        parked = parked.filter((event) => event.eventId !== 'e-2');
        return json(200, { eventId: 'e-2', applied: true });
      }
      if (method === 'POST' && path === '/api/admin/projections/marketplace/rebuild')
        return json(202, null);
      return json(404, { message: 'Not found' });
    }),
  );
  return { calls };
}

const rowOf = (name: string) => screen.getByText(name, { selector: 'strong' }).closest('tr')!;

describe('the read models page', () => {
  beforeEach(async () => {
    await resetApp(users.admin);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('lists the read models with status, position, lag, parked count and a rebuild in progress', async () => {
    fakeServer();
    renderAppAt('/admin/projections');

    expect(
      await screen.findByRole('heading', { name: 'Read models', level: 1 }, { timeout: 20_000 }),
    ).toBeTruthy();
    await screen.findByText('tours', { selector: 'strong' });
    const tours = within(rowOf('tours'));
    expect(tours.getByText('Stalled', { selector: '.status-chip' })).toBeTruthy();
    expect(tours.getByText('1206')).toBeTruthy();
    expect(tours.getByText('274')).toBeTruthy();
    expect(
      tours.getByRole('button', { name: 'Show the events tours set aside' }).textContent,
    ).toContain('2');
    expect(
      within(rowOf('marketplace')).getByText('Running', { selector: '.status-chip' }),
    ).toBeTruthy();

    const rebuilding = within(rowOf('loadBoard'));
    expect(rebuilding.getByText('Rebuilding', { selector: '.status-chip' })).toBeTruthy();
    const progress = rebuilding.getByRole('progressbar', { name: 'Rebuild of loadBoard' });
    expect(progress.getAttribute('aria-valuenow')).toBe('42');
    expect(rebuilding.getByText('42 %')).toBeTruthy();
    expect(rebuilding.getByText('new tables at position 622')).toBeTruthy();
    expect(
      (rebuilding.getByRole('button', { name: 'Rebuild loadBoard' }) as HTMLButtonElement).disabled,
    ).toBe(true);

    // The Superadmin's menu leads here.
    expect(
      screen
        .getAllByRole('link', { name: /Read models/ })
        .some((link) => link.getAttribute('href') === '/admin/projections'),
    ).toBe(true);
  });

  it('shows the parked events; a retry that still fails says why, one that applies leaves the list', async () => {
    const { calls } = fakeServer();
    renderAppAt('/admin/projections');
    await screen.findByText('tours', { selector: 'strong' }, { timeout: 20_000 });

    fireEvent.click(screen.getByRole('button', { name: 'Show the events tours set aside' }));
    const panel = await screen.findByRole('region', { name: 'Events tours set aside' });
    await waitFor(() => expect(within(panel).getAllByTestId('parked-event')).toHaveLength(2));
    const [first, second] = within(panel).getAllByTestId('parked-event');
    expect(within(first!).getByText('TourOpened')).toBeTruthy();
    expect(within(first!).getByText('tour-4f1c')).toBeTruthy();
    expect(within(first!).getByText('1207')).toBeTruthy();
    expect(within(first!).getByText(STILL_FAILS)).toBeTruthy();
    expect(within(first!).getByText(/Nov 25/)).toBeTruthy();

    fireEvent.click(
      within(first!).getByRole('button', { name: 'Retry event TourOpened at position 1207' }),
    );
    const alert = await within(first!).findByRole('alert');
    expect(alert.textContent).toContain(`Still fails: ${STILL_FAILS}`);
    expect(within(panel).getAllByTestId('parked-event')).toHaveLength(2);

    fireEvent.click(
      within(second!).getByRole('button', {
        name: 'Retry event TourStatusChanged at position 1311',
      }),
    );
    await waitFor(() => expect(within(panel).getAllByTestId('parked-event')).toHaveLength(1));
    expect(within(panel).queryByText('TourStatusChanged')).toBeNull();
    expect(calls).toContain('POST /api/admin/projections/tours/parked/e-1/retry');
    expect(calls).toContain('POST /api/admin/projections/tours/parked/e-2/retry');
    // The count in the table follows.
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: 'Hide the events tours set aside' }).textContent,
      ).toContain('1'),
    );
  });

  it('rebuilds a read model only once the Superadmin confirms', async () => {
    const { calls } = fakeServer();
    renderAppAt('/admin/projections');
    await screen.findByText('marketplace', { selector: 'strong' }, { timeout: 20_000 });

    fireEvent.click(
      within(rowOf('marketplace')).getByRole('button', { name: 'Rebuild marketplace' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Rebuild a read model' });
    expect(
      within(dialog).getByText(
        'Rebuild marketplace? Screens keep reading the current tables until the new ones have caught up.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).not.toContain('POST /api/admin/projections/marketplace/rebuild');

    fireEvent.click(
      within(rowOf('marketplace')).getByRole('button', { name: 'Rebuild marketplace' }),
    );
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Rebuild a read model' })).getByRole(
        'button',
        { name: 'Rebuild' },
      ),
    );
    await waitFor(() => expect(calls).toContain('POST /api/admin/projections/marketplace/rebuild'));
    expect(
      await screen.findByText('marketplace is being rebuilt beside the live tables.'),
    ).toBeTruthy();
  });

  it('asks again every 2 seconds while the tab is visible, and not while it is hidden', async () => {
    const { calls } = fakeServer();
    const lists = () => calls.filter((call) => call === 'GET /api/admin/projections').length;
    renderAppAt('/admin/projections');
    await screen.findByText('tours', { selector: 'strong' }, { timeout: 20_000 });
    await waitFor(() => expect(lists()).toBeGreaterThanOrEqual(2), { timeout: 20_000 });

    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    const whileHidden = lists();
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    expect(lists()).toBe(whileHidden);

    hidden.mockReturnValue(false);
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(lists()).toBe(whileHidden + 1));
  });

  it('is not open to other roles', async () => {
    await resetApp(users.shipper);
    const { calls } = fakeServer();
    const { current } = renderAppAt('/admin/projections');
    expect(
      await screen.findByRole('heading', { name: 'Page not found' }, { timeout: 20_000 }),
    ).toBeTruthy();
    expect(current()).toBe('/error-pages/error-404');
    expect(calls.filter((call) => call.includes('/admin/projections'))).toEqual([]);
  });
});
