import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../../i18n/index.ts';
import { renderAppAt, resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import { OrganizationForm } from './OrganizationForm.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const organization = {
  id: 'org-1',
  name: 'Acme Goods',
  type: 'Shipper' as const,
  status: 2,
  statusName: 'Active',
  address: '1 Main St, Chicago, IL',
  person: 'Pat Contact',
  email: 'office@acme.example',
  phone: '555-555-0101',
  pendingContactChange: null,
};

const twoFactor = (enabled: boolean) => ({
  enabled,
  mustEnrol: false,
  organizationRequired: false,
});

describe('the Organisation tab: a new contact e-mail or phone waits 24 hours', {
  timeout: 20_000,
}, () => {
  beforeEach(() => resetApp());

  it('asks for the password and the code only when the e-mail or phone changes', async () => {
    await resetApp({ ...users.shipper, twoFactor: twoFactor(true) });
    const puts: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input) === '/api/users/organization' && init?.method === 'PUT') {
          const body = JSON.parse(String(init.body)) as { password?: string };
          puts.push(body);
          return body.password === 'wrong'
            ? json(400, {
                statusCode: 400,
                error: 'Bad Request',
                message: 'Current password is incorrect',
                code: 'old_password_wrong',
                errors: [
                  {
                    path: 'password',
                    message: 'Current password is incorrect',
                    code: 'old_password_wrong',
                  },
                ],
              })
            : json(202, { pendingUntil: '2026-12-02T10:00:00.000Z' });
        }
        throw new TypeError('No network in tests');
      }),
    );
    const onSaved = vi.fn();
    render(<OrganizationForm organization={organization} onSaved={onSaved} onCancel={() => {}} />);
    expect(screen.queryByText('Your current password')).toBeNull();

    fireEvent.change(document.querySelector('#org-address')!, {
      target: { value: '2 Main St, Chicago, IL' },
    });
    expect(screen.queryByText('Your current password')).toBeNull();

    fireEvent.change(document.querySelector('#org-email')!, {
      target: { value: 'billing@elsewhere.example' },
    });
    expect(screen.getByText('Confirm the new contact e-mail or phone')).toBeTruthy();
    expect(screen.getByText(/the current contact e-mail \(office@acme\.example\)/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Please enter your current password')).toBeTruthy();
    expect(
      screen.getByText('Enter the code from your authenticator app, or a recovery code'),
    ).toBeTruthy();
    expect(puts).toEqual([]);

    fireEvent.change(document.querySelector('#org-change-password')!, {
      target: { value: 'wrong' },
    });
    fireEvent.change(document.querySelector('#org-change-code')!, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Current password is incorrect')).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();

    fireEvent.change(document.querySelector('#org-change-password')!, {
      target: { value: 'correct-horse-1' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(puts.at(-1)).toMatchObject({
      email: 'billing@elsewhere.example',
      address: '2 Main St, Chicago, IL',
      password: 'correct-horse-1',
      code: '123456',
    });
  });

  it('asks no code of a user without two-factor', async () => {
    await resetApp({ ...users.shipper, twoFactor: twoFactor(false) });
    render(<OrganizationForm organization={organization} onSaved={() => {}} onCancel={() => {}} />);
    fireEvent.change(document.querySelector('#org-phone')!, { target: { value: '555-555-0199' } });
    expect(document.querySelector('#org-change-password')).toBeTruthy();
    expect(document.querySelector('#org-change-code')).toBeNull();
  });

  it('shows a pending change with its new values and when it takes effect', async () => {
    await resetApp({ ...users.shipper, twoFactor: twoFactor(false) });
    render(
      <OrganizationForm
        organization={{
          ...organization,
          pendingContactChange: {
            changeId: 'c1',
            requestedAt: '2026-12-01T10:00:00.000Z',
            pendingUntil: '2026-12-02T10:00:00.000Z',
            address: '9 Elm St, Dallas, TX',
            person: 'Bo Diaz',
            email: 'billing@elsewhere.example',
            phone: '555-555-0199',
          },
        }}
        onSaved={() => {}}
        onCancel={() => {}}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Contact change pending' })).toBeTruthy();
    expect(screen.getByText(/^Pending until /)).toBeTruthy();
    expect(screen.getByText('billing@elsewhere.example')).toBeTruthy();
    expect(screen.getByText(/sent a link that cancels this change/)).toBeTruthy();
  });
});

describe('the old contact cancels a pending change from its link', () => {
  beforeEach(() => resetApp());

  it('cancels once, and says so when the link no longer names a pending change', async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        calls.push(`${init?.method ?? 'GET'} ${url}`);
        if (url === '/api/organizations/changes/tok/cancel') return json(200, { cancelled: true });
        if (url === '/api/organizations/changes/gone/cancel')
          return json(404, {
            statusCode: 404,
            error: 'Not Found',
            message: 'This change does not exist, was cancelled or has applied already',
            code: 'not_found',
          });
        throw new TypeError('No network in tests');
      }),
    );
    const first = renderAppAt('/organization-change/tok/cancel');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel the change' }));
    expect(await screen.findByText(/The change is cancelled/)).toBeTruthy();
    expect(calls).toContain('POST /api/organizations/changes/tok/cancel');
    first.unmount();

    renderAppAt('/organization-change/gone/cancel');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel the change' }));
    expect(
      await screen.findByText(
        'This change does not exist, was cancelled already or has already taken effect.',
      ),
    ).toBeTruthy();
  });
});
