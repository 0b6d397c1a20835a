import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../../i18n/index.ts';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import { InvoicingForm } from './InvoicingForm.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const organization = (type: 'Shipper' | 'Carrier', extra = {}) => ({
  id: 'org-1',
  name: type === 'Shipper' ? 'Acme Goods' : 'Zeta Hauling',
  type,
  status: 2,
  statusName: 'Active',
  address: '1 Main St',
  person: 'Pat',
  email: 'office@acme.example',
  phone: '555-555-0101',
  ...extra,
});

function serve() {
  const puts: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) === '/api/users/organization' && init?.method === 'PUT') {
        puts.push(JSON.parse(String(init.body)));
        return json(200, { message: 'Organization successfully updated' });
      }
      throw new TypeError('No network in tests');
    }),
  );
  return puts;
}

describe('the Invoicing tab', { timeout: 30_000 }, () => {
  beforeEach(() => resetApp(users.shipper));

  it("saves a shipper's payment terms with its contact as it stands", async () => {
    const puts = serve();
    const saved = vi.fn();
    render(
      <InvoicingForm
        organization={organization('Shipper', { paymentTermsDays: 30 })}
        onSaved={saved}
      />,
    );
    const days = await screen.findByLabelText('Payment terms (net days)');
    fireEvent.change(days, { target: { value: '45' } });
    fireEvent.blur(days);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(saved).toHaveBeenCalled());
    expect(puts).toEqual([
      {
        name: 'Acme Goods',
        person: 'Pat',
        address: '1 Main St',
        phone: '555-555-0101',
        email: 'office@acme.example',
        paymentTermsDays: 45,
      },
    ]);
  });

  it("names a carrier's factor with the notice on file, confirmed with the password", async () => {
    resetApp(users.carrier);
    const puts = serve();
    const saved = vi.fn();
    render(
      <InvoicingForm
        organization={organization('Carrier', { factor: null })}
        noticeFileId="99999999-9999-4999-8999-999999999999"
        onSaved={saved}
      />,
    );
    fireEvent.click(await screen.findByLabelText('My invoices are paid to a factor'));
    fireEvent.change(screen.getByLabelText("Factor's name"), { target: { value: 'Fast Factor' } });
    fireEvent.change(screen.getByLabelText("Factor's remit-to address"), {
      target: { value: 'PO Box 9, Austin TX' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter your current password')).toBeTruthy();
    expect(puts).toEqual([]);
    fireEvent.change(screen.getByLabelText('Your current password'), {
      target: { value: 'secret-1' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(saved).toHaveBeenCalled());
    expect(puts).toEqual([
      {
        name: 'Zeta Hauling',
        person: 'Pat',
        address: '1 Main St',
        phone: '555-555-0101',
        email: 'office@acme.example',
        factor: {
          name: 'Fast Factor',
          remitTo: 'PO Box 9, Austin TX',
          noticeFileId: '99999999-9999-4999-8999-999999999999',
        },
        password: 'secret-1',
      },
    ]);
  });
});
