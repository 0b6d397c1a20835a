import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAppAt, resetApp } from '../../test/renderApp.tsx';
import { readTokens } from '../../state/session.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const refusal = (message: string, code: string) =>
  json(401, { statusCode: 401, error: 'Unauthorized', message, code });

const session = {
  accessToken: 'access-after-code',
  refreshToken: 'refresh-after-code',
  expiresIn: 900,
  user: {
    id: '7d3c1b2a-1f2e-4d3c-9b8a-7f6e5d4c3b2a',
    name: 'Ann Lee',
    username: 'ann',
    email: 'ann@haul.example',
    role: { id: 3, name: 'Carrier' },
    roles: ['Carrier'],
    organization: null,
    permissions: [],
    twoFactor: { enabled: true, mustEnrol: false, organizationRequired: false },
  },
};

describe('sign-in with two-factor (/signin)', () => {
  beforeEach(() => resetApp());

  it('asks for the code after the password, tells a wrong one, and signs in with a recovery code', async () => {
    const bodies: Record<string, unknown>[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input) === '/api/login') {
          const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
          bodies.push(body);
          if (!body.code)
            return refusal(
              'Enter the code from your authenticator app, or a recovery code',
              'two_factor_required',
            );
          if (body.code === '123456')
            return refusal('The code is not valid', 'two_factor_code_invalid');
          return json(200, session);
        }
        throw new TypeError('No network in tests');
      }),
    );
    renderAppAt('/signin');
    await screen.findByRole('heading', { level: 1 });
    fireEvent.change(document.querySelector('#signin-email')!, {
      target: { value: 'ann@haul.example' },
    });
    fireEvent.change(document.querySelector('#signin-password')!, {
      target: { value: 'correct-horse-1' },
    });
    expect(document.querySelector('#signin-code')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(
      await screen.findByText(
        'Enter the code from your authenticator app, or one of your recovery codes.',
      ),
    ).toBeTruthy();
    const code = screen.getByLabelText('Code or recovery code');
    expect(bodies).toEqual([{ email: 'ann@haul.example', password: 'correct-horse-1' }]);

    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter the code.')).toBeTruthy();
    expect(bodies).toHaveLength(1);

    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('The code is not valid')).toBeTruthy();
    expect(bodies[1]).toEqual({
      email: 'ann@haul.example',
      password: 'correct-horse-1',
      code: '123456',
    });

    fireEvent.change(screen.getByLabelText('Code or recovery code'), {
      target: { value: ' a1b2c-3d4e5 ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(readTokens()?.accessToken).toBe('access-after-code'));
    expect(bodies[2]).toMatchObject({ code: 'a1b2c-3d4e5' });
  });

  it('sends a user who must enrol to the enrolment, shows the recovery codes once, then signs in', async () => {
    const recoveryCodes = Array.from({ length: 10 }, (_, index) => `0000${index}-aaaaa`);
    const enrolledUser = {
      ...session.user,
      twoFactor: { enabled: true, mustEnrol: false, organizationRequired: true },
    };
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input);
        calls.push(url);
        if (url === '/api/login')
          return json(200, {
            ...session,
            accessToken: 'must-enrol',
            user: {
              ...session.user,
              twoFactor: { enabled: false, mustEnrol: true, organizationRequired: true },
            },
          });
        if (url === '/api/account/2fa/setup')
          return json(200, {
            secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
            otpauthUrl: 'otpauth://totp/Freight%20Marketplace:ann?secret=JBSWY3DPEHPK3PXP',
            qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
          });
        if (url === '/api/account/2fa/confirm') return json(200, { recoveryCodes });
        if (url === '/api/refresh-token')
          return json(200, { accessToken: 'enrolled', refreshToken: 'refresh-2', expiresIn: 900 });
        if (url === '/api/profile') return json(200, enrolledUser);
        throw new TypeError('No network in tests');
      }),
    );
    renderAppAt('/signin');
    await screen.findByRole('heading', { level: 1 });
    fireEvent.change(document.querySelector('#signin-email')!, {
      target: { value: 'ann@haul.example' },
    });
    fireEvent.change(document.querySelector('#signin-password')!, {
      target: { value: 'correct-horse-1' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(
      await screen.findByText('Your account must use two-factor sign-in before you continue.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Set up two-factor sign-in' }));
    expect(await screen.findByText('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBeTruthy();
    expect(screen.getByAltText('QR code for your authenticator app')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Code from the app'), { target: { value: '287082' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));

    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(list.textContent).toContain('00009-aaaaa');
    expect(list.querySelectorAll('li')).toHaveLength(10);
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(readTokens()?.accessToken).toBe('enrolled'));
    expect(calls).toContain('/api/refresh-token');
  });
});
