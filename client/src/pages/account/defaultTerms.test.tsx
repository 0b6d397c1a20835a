import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../../i18n/index.ts';
import { accountOpenAtom } from '../../state/common.ts';
import { appStore } from '../../state/session.ts';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import AccountSettingsDialog from './AccountSettingsDialog.tsx';
import { DefaultTermsForm } from './DefaultTermsForm.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const defaultTerms = {
  freeTimeHours: { pickup: 3, delivery: 1 },
  detentionPerHour: 90,
  detentionCap: 720,
  tonu: 275,
  layoverPerDay: 300,
  lumper: 'shipper' as const,
  graceMinutes: 15,
  disputeWindowHours: 72,
};

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
  defaultTerms,
};

/** PUT /api/users/organization as the server answers it: a negative TONU is a 400 naming the field. */
function serveOrganization() {
  const puts: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) === '/api/users/organization' && init?.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        puts.push(body);
        const tonu = (body.defaultTerms as { tonu?: number } | null)?.tonu;
        if (tonu !== undefined && tonu > 50_000)
          return json(400, {
            statusCode: 400,
            error: 'Bad Request',
            message: 'The TONU amount is too high for this organization',
            errors: [
              {
                path: 'defaultTerms.tonu',
                message: 'The TONU amount is too high for this organization',
              },
            ],
          });
        return json(200, { message: 'Organization successfully updated' });
      }
      throw new TypeError('No network in tests');
    }),
  );
  return puts;
}

const inputOf = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

async function type(label: string, value: string) {
  const input = inputOf(label);
  await act(async () => {
    fireEvent.input(input, { target: { value } });
    fireEvent.blur(input);
  });
}

describe("a shipper's default terms in Account Settings", () => {
  beforeEach(() => resetApp(users.shipper));

  it('shows the current defaults and saves a change with the contact as it stands', async () => {
    const puts = serveOrganization();
    const onSaved = vi.fn();
    render(<DefaultTermsForm organization={organization} onSaved={onSaved} onCancel={() => {}} />);
    expect((screen.getByLabelText('Use our own default terms') as HTMLInputElement).checked).toBe(
      true,
    );
    expect(inputOf('Detention per hour').value).toBe('$90.00');
    expect(inputOf('Detention cap per stop').value).toBe('$720.00');
    expect(inputOf('Free time at pickup (hours)').value).toBe('3');
    expect(inputOf('Grace after the appointment (minutes)').value).toBe('15');

    await type('Detention per hour', '95');
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(puts).toEqual([
      {
        name: 'Acme Goods',
        person: 'Pat Contact',
        address: '1 Main St, Chicago, IL',
        phone: '555-555-0101',
        email: 'office@acme.example',
        defaultTerms: { ...defaultTerms, detentionPerHour: 95 },
      },
    ]);
  });

  it("goes back to the platform's defaults: they are listed and null is sent", async () => {
    const puts = serveOrganization();
    const onSaved = vi.fn();
    render(<DefaultTermsForm organization={organization} onSaved={onSaved} onCancel={() => {}} />);
    await act(async () => {
      fireEvent.click(screen.getByLabelText("Use the platform's defaults"));
    });
    expect(screen.queryByLabelText('Detention per hour')).toBeNull();
    expect(screen.getByRole('heading', { name: "The platform's defaults" })).toBeTruthy();
    expect(screen.getByText('Detention: $50.00 per hour, up to $500.00 a stop')).toBeTruthy();
    expect(screen.getByText('TONU: $150.00')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(puts.at(-1)?.defaultTerms).toBeNull();
  });

  it('starts from the platform’s defaults for an organization without its own', async () => {
    serveOrganization();
    render(
      <DefaultTermsForm
        organization={{ ...organization, defaultTerms: null }}
        onSaved={() => {}}
        onCancel={() => {}}
      />,
    );
    expect((screen.getByLabelText("Use the platform's defaults") as HTMLInputElement).checked).toBe(
      true,
    );
    await act(async () => {
      fireEvent.click(screen.getByLabelText('Use our own default terms'));
    });
    expect(inputOf('Detention per hour').value).toBe('$50.00');
    expect(inputOf('TONU (truck ordered, not used)').value).toBe('$150.00');
  });

  it("shows the server's 400 under the field it names, and the form's own checks before sending", async () => {
    const puts = serveOrganization();
    const onSaved = vi.fn();
    render(<DefaultTermsForm organization={organization} onSaved={onSaved} onCancel={() => {}} />);
    await type('Detention cap per stop', '10');
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(
      await screen.findByText('The cap cannot be less than one hour of detention'),
    ).toBeTruthy();
    expect(puts).toEqual([]);

    await type('Detention cap per stop', '720');
    await type('TONU (truck ordered, not used)', '60000');
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(
      await screen.findByText('The TONU amount is too high for this organization'),
    ).toBeTruthy();
    expect(inputOf('TONU (truck ordered, not used)').getAttribute('aria-invalid')).toBe('true');
    expect(onSaved).not.toHaveBeenCalled();
    expect(puts).toHaveLength(1);
  });

  it('is a tab of Account Settings for a shipper, and no carrier has it', async () => {
    const account = (type: 'Shipper' | 'Carrier') => ({
      organization: {
        ...organization,
        type,
        ...(type === 'Shipper' ? { defaultTerms } : { defaultTerms: undefined }),
      },
    });
    let answer = account('Shipper');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        if (String(input) === '/api/account') return json(200, answer);
        throw new TypeError('No network in tests');
      }),
    );
    const shipper = render(<AccountSettingsDialog />);
    await act(async () => appStore.set(accountOpenAtom, true));
    fireEvent.click(await screen.findByRole('tab', { name: /Default terms/ }));
    expect(((await screen.findByLabelText('Detention per hour')) as HTMLInputElement).value).toBe(
      '$90.00',
    );
    await act(async () => appStore.set(accountOpenAtom, false));
    shipper.unmount();

    await resetApp(users.carrier);
    answer = account('Carrier');
    render(<AccountSettingsDialog />);
    await act(async () => appStore.set(accountOpenAtom, true));
    expect(await screen.findByRole('tab', { name: /Organisation/ })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: /Default terms/ })).toBeNull();
  });
});
