import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n/index.ts';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import { EdiTab } from './EdiTab.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const RAW =
  'ISA*00*          *00*          *ZZ*FREIGHTMKT     *ZZ*BROKERTEST     *261129*1200*U*00401*000000007*0*P*>~GS*FA*FREIGHTMKT*BROKERTEST*20261129*1200*7*X*004010~ST*997*0001~AK1*SM*42~AK2*204*0001~AK3*G62*7**8~AK4*2**8~AK5*R*5~AK9*R*1*1*0~SE*8*0001~GE*1*7~IEA*1*000000007~';

const documents = [
  {
    id: '11111111-1111-4111-8111-111111111111',
    partnerId: 'p1',
    partner: 'Broker TMS',
    direction: 'in',
    type: '204',
    controlNumber: '0001',
    loadId: null,
    loadGuid: null,
    code: null,
    status: 'rejected',
    errors: [
      {
        segment: 'G62',
        position: 7,
        element: 2,
        code: '8',
        reason: 'The date 20261341 is not a date (CCYYMMDD)',
      },
    ],
    attempts: 0,
    lastError: null,
    at: '2026-11-29T12:00:00.000Z',
  },
  {
    id: '22222222-2222-4222-8222-222222222222',
    partnerId: 'p1',
    partner: 'Broker TMS',
    direction: 'out',
    type: '997',
    controlNumber: '000000007',
    loadId: null,
    loadGuid: null,
    code: null,
    status: 'waiting',
    errors: [],
    attempts: 0,
    lastError: null,
    at: '2026-11-29T12:00:01.000Z',
  },
  {
    id: '33333333-3333-4333-8333-333333333333',
    partnerId: 'p1',
    partner: 'Broker TMS',
    direction: 'out',
    type: '990',
    controlNumber: '000000008',
    loadId: '44444444-4444-4444-8444-444444444444',
    loadGuid: 'L-001001',
    code: 'A',
    status: 'waiting',
    errors: [],
    attempts: 0,
    lastError: null,
    at: '2026-11-29T12:05:00.000Z',
  },
  {
    id: '55555555-5555-4555-8555-555555555555',
    partnerId: 'p1',
    partner: 'Broker TMS',
    direction: 'out',
    type: '214',
    controlNumber: '000000009',
    loadId: '44444444-4444-4444-8444-444444444444',
    loadGuid: 'L-001001',
    code: 'D1',
    status: 'fetched',
    errors: [],
    attempts: 0,
    lastError: null,
    at: '2026-11-29T14:00:00.000Z',
  },
];

/** The EDI routes as the server answers them. */
function serveEdi() {
  const posts: { url: string; body: unknown }[] = [];
  let partners: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (init?.method === 'POST') {
        const body = init.body ? JSON.parse(String(init.body)) : null;
        posts.push({ url, body });
        if (url === '/api/edi/partners') {
          if (!body.isaId.match(/^[A-Z0-9]+$/))
            return json(400, {
              statusCode: 400,
              error: 'Bad Request',
              message: 'The ISA id holds letters, digits, spaces and . _ - / & ( ) only',
              errors: [
                {
                  path: 'isaId',
                  message: 'The ISA id holds letters, digits, spaces and . _ - / & ( ) only',
                },
              ],
            });
          partners = [
            {
              id: 'p1',
              name: body.name,
              isaQualifier: body.isaQualifier,
              isaId: body.isaId,
              gsId: body.gsId,
              separators: { element: '*', segment: '~', subElement: '>' },
              deliver: body.deliver,
              createdAt: '2026-11-29T12:00:00.000Z',
            },
          ];
          return json(201, {
            id: 'p1',
            apiKey: 'edi_secretkey123',
            signingSecret: 'url' in body.deliver ? 'whsec_c2lnbmluZw==' : null,
          });
        }
        if (url.endsWith('/resend')) return json(202, { id: documents[1]!.id, status: 'waiting' });
      }
      if (url === '/api/edi/partners') return json(200, partners);
      if (url.startsWith('/api/edi/documents?'))
        return json(200, {
          page: 1,
          pageSize: 20,
          total: 2,
          totalPages: 1,
          data: documents,
          actions: [],
        });
      if (url.endsWith('/raw'))
        return new Response(RAW, {
          status: 200,
          headers: { 'Content-Type': 'application/edi-x12' },
        });
      throw new TypeError('No network in tests');
    }),
  );
  return posts;
}

describe("a shipper's EDI tab", { timeout: 30_000 }, () => {
  beforeEach(() => resetApp(users.shipper));

  it('adds a partner, shows its key once, and names a refused field', async () => {
    const posts = serveEdi();
    render(<EdiTab />);
    expect(await screen.findByText('No trading partners yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add partner' }));
    expect(screen.getAllByText('Please fill in this field')).toHaveLength(3);
    expect(posts).toHaveLength(0);

    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Broker TMS' } });
    fireEvent.change(screen.getByLabelText(/^ISA id/), { target: { value: 'bad id!' } });
    fireEvent.change(screen.getByLabelText(/^GS id/), { target: { value: 'BROKER' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Add partner' }));
    });
    expect(
      await screen.findByText('The ISA id holds letters, digits, spaces and . _ - / & ( ) only'),
    ).toBeTruthy();

    fireEvent.change(screen.getByLabelText(/^ISA id/), { target: { value: 'BROKERTEST' } });
    fireEvent.click(screen.getByLabelText('HTTPS endpoint'));
    fireEvent.change(screen.getByLabelText(/^Endpoint URL/), {
      target: { value: 'https://tms.example/edi' },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Add partner' }));
    });
    expect(posts.at(-1)).toEqual({
      url: '/api/edi/partners',
      body: {
        name: 'Broker TMS',
        isaQualifier: 'ZZ',
        isaId: 'BROKERTEST',
        gsId: 'BROKER',
        deliver: { url: 'https://tms.example/edi' },
      },
    });
    const dialog = await screen.findByRole('dialog', { name: "The partner's API key" });
    expect(within(dialog).getByTestId('edi-api-key').textContent).toBe('edi_secretkey123');
    expect(within(dialog).getByTestId('edi-signing-secret').textContent).toBe('whsec_c2lnbmluZw==');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    const list = await screen.findByRole('list', { name: 'Trading partners' });
    expect(within(list).getByText('Broker TMS')).toBeTruthy();
    expect(within(list).getByText('Delivered to https://tms.example/edi')).toBeTruthy();
    expect(screen.queryByText('edi_secretkey123')).toBeNull();
  });

  it('lists documents with their status and errors in words, shows the X12 and sends again', async () => {
    const posts = serveEdi();
    render(<EdiTab />);
    const table = await screen.findByRole('table');
    const [, rejected, waiting] = within(table).getAllByRole('row');
    expect(within(rejected!).getByText('Rejected')).toBeTruthy();
    expect(within(rejected!).getByText('Received')).toBeTruthy();
    expect(rejected!.textContent).toContain(
      'Element G6202 (segment 7): The date 20261341 is not a date (CCYYMMDD)',
    );
    expect(within(waiting!).getByText('In the mailbox')).toBeTruthy();
    expect(within(rejected!).queryByRole('button', { name: /Send 204/ })).toBeNull();

    await act(async () => {
      fireEvent.click(
        within(waiting!).getByRole('button', { name: 'View the X12 text of 997 000000007' }),
      );
    });
    const raw = await screen.findByTestId('edi-raw');
    expect(raw.textContent?.split('\n')).toContain('AK3*G62*7**8~');
    expect(raw.getAttribute('dir')).toBe('ltr');

    await act(async () => {
      fireEvent.click(within(waiting!).getByRole('button', { name: 'Send 997 000000007 again' }));
    });
    expect(posts.at(-1)?.url).toBe(`/api/edi/documents/${documents[1]!.id}/resend`);
    const reads = () =>
      vi.mocked(fetch).mock.calls.filter(([url]) => String(url).startsWith('/api/edi/documents?'))
        .length;
    await vi.waitFor(() => expect(reads()).toBe(2), { timeout: 5000 });
  });

  it("shows the load's short id and what a 990 and a 214 say, and refreshes on demand", async () => {
    serveEdi();
    render(<EdiTab />);
    const table = await screen.findByRole('table');
    const [, , , tender, status] = within(table).getAllByRole('row');
    expect(within(table).getByRole('columnheader', { name: 'Load' })).toBeTruthy();
    expect(tender!.textContent).toContain('990Tender accepted (A)L-001001');
    expect(status!.textContent).toContain('214Delivered (D1)L-001001');
    const reads = () =>
      vi.mocked(fetch).mock.calls.filter(([url]) => String(url).startsWith('/api/edi/documents?'))
        .length;
    expect(reads()).toBe(1);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Refresh the documents' }));
    });
    await vi.waitFor(() => expect(reads()).toBe(2), { timeout: 5000 });
  });

  it('reads right to left in Arabic', async () => {
    serveEdi();
    await act(async () => {
      await i18n.changeLanguage('ar');
    });
    render(<EdiTab />);
    expect(document.documentElement.dir).toBe('rtl');
    expect(await screen.findByText('لا يوجد شركاء تجاريون بعد.')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'رقم التحكم' })).toBeTruthy();
    await act(async () => {
      await i18n.changeLanguage('en');
    });
  });
});
