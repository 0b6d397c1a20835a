import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import { fakeServer, get, renderMarketplaceAt, tableOf } from '../../test/marketplace.testing.tsx';

const carrier = (id: string, name: string) => ({
  id,
  name,
  type: 'Carrier',
  email: `${id}@example.com`,
  phone: '555-555-0100',
  address: '45 Peachtree Ind Blvd, Atlanta, GA 30303',
  person: 'Sam Carter',
  organizationStatus: 1,
  organizationStatusName: 'Pending',
  user: null,
  mcNumber: 712345,
  dotNumber: 2345671,
  eldProvider: null,
  documents: { mcAuthority: 'file-1', certificateOfInsurance: null, w9Form: null },
  createdAt: '2030-01-01T00:00:00.000Z',
  status: 1,
  statusName: 'Pending',
  actions: [],
});

const authority = (status: string, insuranceOnFile: boolean) => ({
  dotNumber: 2345671,
  mcNumber: 712345,
  status,
  insuranceOnFile,
  checkedAt: '2030-01-02T10:00:00.000Z',
  source: 'import',
});

/** Opens the details of the carrier named `name` on the pending carriers' vetting screen. */
async function openDetails(name: string) {
  renderMarketplaceAt('/users/carriers/pending');
  const cell = await screen.findByText(name);
  fireEvent.click(cell);
  return screen.findByRole('dialog');
}

describe('the vetting screen shows the carrier authority beside the documents', {
  timeout: 60_000,
}, () => {
  beforeEach(() => resetApp(users.admin));

  it('an active carrier with insurance on file', async () => {
    const server = fakeServer(
      get('/api/users/list/carriers', tableOf([carrier('org-1', 'Blue Ridge Freight LLC')])),
      get('/api/organizations/org-1/authority', authority('active', true)),
    );
    const dialog = await openDetails('Blue Ridge Freight LLC');
    const section = await within(dialog).findByRole('region', {
      name: 'Operating authority (FMCSA)',
    });
    const badge = await within(section).findByText('Authority active');
    expect(badge.closest('[data-status]')?.getAttribute('data-status')).toBe('active');
    expect(within(section).getByText('Insurance on file')).toBeTruthy();
    expect(within(section).getByText(/imported FMCSA file/)).toBeTruthy();
    expect(within(dialog).getByText('Documents')).toBeTruthy();
    expect(server.calls('GET', '/api/organizations/org-1/authority')).toHaveLength(1);
  });

  it('a revoked carrier without insurance', async () => {
    fakeServer(
      get('/api/users/list/carriers', tableOf([carrier('org-2', 'Gulf Coast Express')])),
      get('/api/organizations/org-2/authority', authority('revoked', false)),
    );
    const dialog = await openDetails('Gulf Coast Express');
    const badge = await within(dialog).findByText('Authority revoked');
    expect(badge.closest('[data-status]')?.getAttribute('data-status')).toBe('revoked');
    expect(within(dialog).getByText('No insurance on file')).toBeTruthy();
  });

  it('says so when the authority cannot be read', async () => {
    fakeServer(
      get('/api/users/list/carriers', tableOf([carrier('org-3', 'Ghost Freight')])),
      get('/api/organizations/org-3/authority', { message: 'Something went wrong!' }, 500),
    );
    const dialog = await openDetails('Ghost Freight');
    expect(await within(dialog).findByText('The authority could not be read')).toBeTruthy();
    expect(within(dialog).queryByText(/^Authority /)).toBeNull();
  });
});
