import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../../i18n/index.ts';
import { renderAppAt, resetApp } from '../../test/renderApp.tsx';
import { users } from '../../test/users.ts';
import { SecurityTab } from './SecurityTab.tsx';

const json = (status: number, body: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

const twoFactor = (enabled: boolean, mustEnrol = false) => ({
  enabled,
  mustEnrol,
  organizationRequired: false,
});

describe('two-factor sign-in in the account and the shell', () => {
  beforeEach(() => resetApp());

  it('turns two-factor off with the password and a code, telling a wrong code', async () => {
    await resetApp({ ...users.shipper, twoFactor: twoFactor(true) });
    const deletes: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        if (url === '/api/account/2fa' && init?.method === 'DELETE') {
          const body = JSON.parse(String(init.body)) as { code: string };
          deletes.push(body);
          return body.code === '111111'
            ? json(400, {
                statusCode: 400,
                error: 'Bad Request',
                message: 'The code is not valid',
                code: 'two_factor_code_invalid',
              })
            : json(204, null);
        }
        if (url === '/api/profile')
          return json(200, { ...users.shipper, twoFactor: twoFactor(false) });
        throw new TypeError('No network in tests');
      }),
    );
    render(<SecurityTab />);
    expect(screen.getByText('Two-factor sign-in is on for your account.')).toBeTruthy();
    fireEvent.change(document.querySelector('#two-factor-off-password')!, {
      target: { value: 'correct-horse-1' },
    });
    fireEvent.change(screen.getByLabelText('Code or recovery code'), {
      target: { value: '111111' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('The code is not valid')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Code or recovery code'), {
      target: { value: '222222' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('button', { name: 'Set up two-factor sign-in' })).toBeTruthy();
    expect(deletes).toEqual([
      { password: 'correct-horse-1', code: '111111' },
      { password: 'correct-horse-1', code: '222222' },
    ]);
  });

  it('shows a user who must enrol the enrolment in place of the page', async () => {
    await resetApp({ ...users.admin, twoFactor: twoFactor(false, true) });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('No network in tests');
      }),
    );
    renderAppAt('/');
    expect(
      await screen.findByRole('heading', { name: 'Set up two-factor sign-in', level: 1 }),
    ).toBeTruthy();
    expect(
      screen.getByText('Your account must use two-factor sign-in before you continue.'),
    ).toBeTruthy();
  });
});
