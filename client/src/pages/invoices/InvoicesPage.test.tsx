import { fireEvent, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../../i18n/index.ts';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import InvoicesPage from './InvoicesPage.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const INVOICE = '44444444-4444-4444-8444-444444444444';
const row = {
  id: INVOICE,
  number: 'INV-000007',
  loadId: '55555555-5555-4555-8555-555555555555',
  loadGuid: 'L-2042',
  tourId: '66666666-6666-4666-8666-666666666666',
  carrierOrganizationId: 'c',
  shipperOrganizationId: 's',
  carrier: 'Zeta Hauling',
  shipper: 'Acme Shipping',
  status: 'submitted',
  total: 1875,
  dueAt: '2027-01-05T10:00:00.000Z',
  submittedAt: '2026-12-06T10:00:00.000Z',
  paidAt: null,
  draftedAt: '2026-12-05T10:00:00.000Z',
};
const detail = {
  ...row,
  stage: 'submitted',
  lines: [
    { kind: 'linehaul', description: 'Line haul', amount: 1800, status: 'open', reason: null },
    {
      kind: 'detention',
      claimId: '77777777-7777-4777-8777-777777777777',
      description: 'Detention, stop 2',
      amount: 75,
      status: 'open',
      reason: null,
    },
  ],
  remitTo: { name: 'Fast Factor', address: 'PO Box 9, Austin TX', factor: true },
  termsDays: 30,
  pdfFileId: '88888888-8888-4888-8888-888888888888',
  reference: 'ACC-77',
  scheduledFor: null,
  paymentReference: null,
  answer: null,
  silenceApprovesAt: '2026-12-16T10:00:00.000Z',
};

/** GET invoices and invoices/{id}, and the dispute, as the server answers them. */
function serve(status = 'submitted') {
  const posts: { url: string; body: unknown }[] = [];
  let current = { ...detail, status, stage: status };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url.startsWith('/api/invoices?'))
        return json(200, {
          page: 1,
          pageSize: 100,
          total: 1,
          totalPages: 1,
          data: [{ ...row, status: current.status }],
          actions: [],
        });
      if (url === `/api/invoices/${INVOICE}` && !init?.method?.startsWith('P'))
        return json(200, current);
      if (url === `/api/invoices/${INVOICE}/dispute` && init?.method === 'POST') {
        const body = JSON.parse(String(init.body));
        posts.push({ url, body });
        current = {
          ...current,
          status: 'disputed',
          stage: 'disputed',
          lines: current.lines.map((line, index) =>
            index === body.lines[0].index
              ? { ...line, status: 'disputed', reason: body.lines[0].reason }
              : line,
          ),
        };
        return json(200, current);
      }
      throw new TypeError('No network in tests');
    }),
  );
  return posts;
}

describe('the Invoices screen', { timeout: 30_000 }, () => {
  beforeEach(() => resetApp(users.shipper));

  it("lists the shipper's payables with their status and opens one with its lines and remit-to", async () => {
    serve();
    render(<InvoicesPage titleKey="routes.invoices" params={{}} />);
    expect(await screen.findByRole('heading', { name: 'Invoices' })).toBeTruthy();
    expect(await screen.findByText('INV-000007')).toBeTruthy();
    expect(screen.getByText('Zeta Hauling')).toBeTruthy();
    expect(screen.getByText('Submitted')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Open invoice INV-000007' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invoice INV-000007' });
    expect(await within(dialog).findByText('Fast Factor')).toBeTruthy();
    expect(within(dialog).getByText('Assigned to a factor: pay only to this address')).toBeTruthy();
    expect(within(dialog).getByText(/Detention, stop 2/)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Open the PDF' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Submit invoice' })).toBeNull();
  });

  it('disputes a line with its reason', async () => {
    const posts = serve();
    render(<InvoicesPage titleKey="routes.invoices" params={{}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open invoice INV-000007' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invoice INV-000007' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Dispute lines' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Pick at least one line and say why')).toBeTruthy();
    const box = within(dialog)
      .getAllByLabelText('Dispute this line: Detention, stop 2')
      .find((element) => element.tagName === 'INPUT')!;
    fireEvent.click(box);
    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: 'Dock log says 1 hour' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Disputed: Dock log says 1 hour')).toBeTruthy();
    expect(posts).toEqual([
      {
        url: `/api/invoices/${INVOICE}/dispute`,
        body: { lines: [{ index: 1, reason: 'Dock log says 1 hour' }] },
      },
    ]);
  });

  it('offers the carrier its own steps: a paid invoice is confirmed received or not', async () => {
    resetApp(users.carrier);
    serve('paid');
    render(<InvoicesPage titleKey="routes.invoices" params={{}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open invoice INV-000007' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invoice INV-000007' });
    expect(await within(dialog).findByRole('button', { name: 'Payment received' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Not received' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Approve' })).toBeNull();
  });
});
