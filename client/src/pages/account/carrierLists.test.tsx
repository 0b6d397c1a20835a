import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../../i18n/index.ts';
import { accountOpenAtom } from '../../state/common.ts';
import { appStore } from '../../state/session.ts';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import AccountSettingsDialog from './AccountSettingsDialog.tsx';
import { CarrierListsTab } from './CarrierListsTab.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const ZETA = '11111111-1111-4111-8111-111111111111';
const BETA = '22222222-2222-4222-8222-222222222222';
const GAMMA = '33333333-3333-4333-8333-333333333333';
const choices = [
  { id: BETA, name: 'Beta Trucking' },
  { id: GAMMA, name: 'Gamma Lines' },
  { id: ZETA, name: 'Zeta Hauling' },
];

/** The carriers/preferences routes as the server answers them; a refusal names the field. */
function serveLists(initial = { preferred: [ZETA], blocked: [] as string[] }, refuse = false) {
  const puts: unknown[] = [];
  let lists = initial;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/carriers/choices') return json(200, choices);
      if (url === '/api/carriers/preferences' && init?.method === 'PUT') {
        const body = JSON.parse(String(init.body));
        puts.push(body);
        if (refuse)
          return json(400, {
            statusCode: 400,
            error: 'Bad Request',
            message: 'Not an active carrier organization',
            errors: [{ path: 'blocked.0', message: 'Not an active carrier organization' }],
          });
        lists = body;
        return json(200, lists);
      }
      if (url === '/api/carriers/preferences') return json(200, lists);
      if (url === '/api/account')
        return json(200, {
          organization: {
            id: 'org-1',
            name: 'Acme Goods',
            type: 'Shipper',
            status: 2,
            statusName: 'Active',
            address: '1 Main St',
            person: 'Pat',
            email: 'office@acme.example',
            phone: '555-555-0101',
            pendingContactChange: null,
          },
        });
      throw new TypeError('No network in tests');
    }),
  );
  return puts;
}

const box = (list: 'Preferred carriers' | 'Blocked carriers', name: string) =>
  within(screen.getByRole('group', { name: list })).getByLabelText(name) as HTMLInputElement;

describe("a shipper's preferred and blocked carriers", () => {
  beforeEach(() => resetApp(users.shipper));

  it('shows the lists, keeps a carrier off both, and saves them', async () => {
    const puts = serveLists();
    render(<CarrierListsTab onCancel={() => {}} />);
    await screen.findByRole('group', { name: 'Preferred carriers' });
    expect(box('Preferred carriers', 'Zeta Hauling').checked).toBe(true);
    expect(box('Blocked carriers', 'Zeta Hauling').disabled).toBe(true);
    expect(box('Preferred carriers', 'Beta Trucking').checked).toBe(false);

    await act(async () => {
      fireEvent.click(box('Blocked carriers', 'Beta Trucking'));
      fireEvent.click(box('Preferred carriers', 'Gamma Lines'));
    });
    expect(box('Preferred carriers', 'Beta Trucking').disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({ preferred: [ZETA, GAMMA], blocked: [BETA] });
  });

  it("shows the server's refusal", async () => {
    const puts = serveLists({ preferred: [], blocked: [] }, true);
    render(<CarrierListsTab onCancel={() => {}} />);
    await screen.findByRole('group', { name: 'Blocked carriers' });
    await act(async () => {
      fireEvent.click(box('Blocked carriers', 'Gamma Lines'));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Not an active carrier organization',
    );
    expect(puts).toEqual([{ preferred: [], blocked: [GAMMA] }]);
  });

  it('is a Carriers tab of Account Settings for a shipper', async () => {
    serveLists();
    render(<AccountSettingsDialog />);
    await act(async () => appStore.set(accountOpenAtom, true));
    fireEvent.click(await screen.findByRole('tab', { name: /Carriers/ }));
    expect(await screen.findByRole('group', { name: 'Preferred carriers' })).toBeTruthy();
  });
});
