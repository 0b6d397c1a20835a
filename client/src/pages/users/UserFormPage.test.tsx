import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import {
  fakeServer,
  renderMarketplaceAt,
  tableOf,
  type Received,
} from '../../test/marketplace.testing.tsx';

const row = (id: string, email: string) => ({
  id,
  name: `Name of ${id}`,
  email,
  username: id,
  phone: '555-555-0100',
  roleId: 2,
  role: 'Shipper',
  organizationId: 'org-2',
  organization: { id: 'org-2', name: 'Shipper Co.', type: 'Shipper' },
  emailConfirmed: true,
  status: 2,
  statusName: 'Active',
  createdAt: '2030-01-01T00:00:00.000Z',
  actions: [2],
});

/** The users table and PUT users/{id} as the server answers it: one's own e-mail or password needs the current password. */
function usersServer() {
  return fakeServer((request: Received) => {
    if (request.method === 'GET' && request.path.startsWith('/api/users?'))
      return {
        body: tableOf([
          row(users.shipper.id, users.shipper.email!),
          row('colleague', 'colleague@example.com'),
        ]),
      };
    if (request.method === 'PUT' && request.path === `/api/users/${users.shipper.id}`) {
      const body = request.body as { oldPassword?: string };
      if (!body.oldPassword)
        return {
          status: 400,
          body: {
            message: 'Please enter your current password',
            errors: [{ path: 'oldPassword', message: 'Please enter your current password' }],
          },
        };
      if (body.oldPassword !== 'my-password-1')
        return {
          status: 400,
          body: {
            message: 'Current password is incorrect',
            errors: [{ path: 'oldPassword', message: 'Current password is incorrect' }],
          },
        };
      return { body: { id: users.shipper.id, message: 'User successfully updated' } };
    }
    if (request.method === 'PUT' && request.path === '/api/users/colleague')
      return { body: { id: 'colleague', message: 'User successfully updated' } };
    return undefined;
  });
}

describe('editing a user', { timeout: 60_000 }, () => {
  beforeEach(() => resetApp(users.shipper));

  it("on oneself asks for the current password, shows the server's message and sends it", async () => {
    const server = usersServer();
    renderMarketplaceAt(`/user/edit/${users.shipper.id}`);
    const current = await screen.findByLabelText('Current password');
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'new-me@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: /save changes/i }));
    expect(
      (await screen.findAllByText('Please enter your current password')).length,
    ).toBeGreaterThan(0);

    fireEvent.change(current, { target: { value: 'wrong-password' } });
    fireEvent.click(screen.getByRole('button', { name: /save changes/i }));
    expect((await screen.findAllByText('Current password is incorrect')).length).toBeGreaterThan(0);

    fireEvent.change(current, { target: { value: 'my-password-1' } });
    fireEvent.click(screen.getByRole('button', { name: /save changes/i }));
    await waitFor(() =>
      expect(server.received.filter((request) => request.method === 'PUT')).toHaveLength(3),
    );
    expect(server.received.at(-1)?.body).toMatchObject({
      email: 'new-me@example.com',
      oldPassword: 'my-password-1',
    });
    expect(await screen.findByText('User successfully updated')).toBeTruthy();
  });

  it('on another user has no current password field and sends none', async () => {
    const server = usersServer();
    renderMarketplaceAt('/user/edit/colleague');
    await screen.findByDisplayValue('colleague@example.com');
    expect(screen.queryByLabelText('Current password')).toBeNull();
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'set-by-me-1' } });
    fireEvent.click(screen.getByRole('button', { name: /save changes/i }));
    await waitFor(() =>
      expect(server.received.some((request) => request.method === 'PUT')).toBe(true),
    );
    const put = server.received.find((request) => request.method === 'PUT')!;
    expect(put.body).toMatchObject({ newPassword: 'set-by-me-1' });
    expect(put.body).not.toHaveProperty('oldPassword');
  });
});
