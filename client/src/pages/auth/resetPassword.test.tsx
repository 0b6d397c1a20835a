import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAppAt, resetApp } from '../../test/renderApp.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('password recovery (/reset-password)', () => {
  beforeEach(() => resetApp());

  it('says no user was found for a refused reset code, and offers a new link', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        if (String(input) === '/api/users/reset-password')
          return json(400, {
            statusCode: 400,
            error: 'Bad Request',
            message: 'Invalid or expired reset code',
            code: 'reset_code_invalid',
            errors: [
              {
                path: 'code',
                message: 'Invalid or expired reset code',
                code: 'reset_code_invalid',
              },
            ],
          });
        throw new TypeError('No network in tests');
      }),
    );
    renderAppAt('/reset-password?code=no-such-code');
    await screen.findByRole('heading', { level: 1 });
    fireEvent.change(screen.getByLabelText(/^New password/), {
      target: { value: 'long-enough-2' },
    });
    fireEvent.change(screen.getByLabelText(/^Retype the new password/), {
      target: { value: 'long-enough-2' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Set the new password' }));
    expect(await screen.findByText('Invalid or expired reset code')).toBeTruthy();
    expect(
      screen.getByText(
        'No user found for this reset code: it is wrong, already used or expired. Request a new reset link.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Request a new reset link' })).toBeTruthy();
  });
});
