import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAppAt, resetApp } from '../test/renderApp.tsx';
import { users } from '../test/users.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('a Pending organization', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("says the organization waits for its activation, and shows the server's refusal of the marketplace", async () => {
    await resetApp({
      ...users.carrier,
      organization: { ...users.carrier.organization!, status: 1 },
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(403, {
          statusCode: 403,
          error: 'Forbidden',
          message: 'Your organization is not active yet',
        }),
      ),
    );
    renderAppAt('/loads/carrier');
    expect(
      await screen.findByText(
        /Your organization is waiting for activation/,
        {},
        { timeout: 20_000 },
      ),
    ).toBeTruthy();
    expect(
      (await screen.findAllByText('Your organization is not active yet', {}, { timeout: 20_000 }))
        .length,
    ).toBeGreaterThan(0);
  });

  it('says nothing of the kind to an Active organization', async () => {
    await resetApp(users.carrier);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(200, { page: 1, pageSize: 10, total: 0, totalPages: 0, data: [], actions: [] }),
      ),
    );
    renderAppAt('/loads/carrier');
    expect(await screen.findByRole('heading', { level: 1 }, { timeout: 20_000 })).toBeTruthy();
    expect(screen.queryByText(/Your organization is waiting for activation/)).toBeNull();
  });
});
