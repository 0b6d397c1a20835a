import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApp } from '../../test/renderApp.tsx';
import { AssignDriverDialog } from './AssignDriverDialog.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function fakeServer() {
  const posts: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/tours/assignees')
        return json(200, [
          {
            id: 'd1',
            name: 'Dana Brooks',
            phone: '(312) 555-0101',
            email: 'dana@rivers.example',
            openTours: [],
          },
        ]);
      if (url === '/api/tours/t1/assign/d1' && init?.method === 'POST') {
        posts.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined });
        return json(200, { message: 'Driver assigned' });
      }
      return json(404, { message: 'Not found' });
    }),
  );
  return posts;
}

describe('the assign driver dialog', () => {
  beforeEach(() => resetApp(null));
  afterEach(() => vi.unstubAllGlobals());

  it('sends the tractor and the optional trailer with the driver', async () => {
    const posts = fakeServer();
    const done = vi.fn();
    render(
      <AssignDriverDialog
        tourId="t1"
        loadGuid="L-000123"
        currentDriverId={null}
        onClose={() => undefined}
        onDone={done}
      />,
    );
    fireEvent.click(await screen.findByText('Dana Brooks'));
    fireEvent.change(screen.getByLabelText('Tractor number'), { target: { value: ' T-481 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(done).toHaveBeenCalled());
    expect(posts).toEqual([
      { url: '/api/tours/t1/assign/d1', body: { tractorNumber: 'T-481', trailerNumber: null } },
    ]);
  });

  it('sends no body without a tractor number, as before', async () => {
    const posts = fakeServer();
    const done = vi.fn();
    render(
      <AssignDriverDialog
        tourId="t1"
        loadGuid="L-000123"
        currentDriverId="d1"
        onClose={() => undefined}
        onDone={done}
      />,
    );
    await screen.findByText('Dana Brooks');
    fireEvent.change(screen.getByLabelText('Trailer number (optional)'), {
      target: { value: 'TR-22' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(done).toHaveBeenCalled());
    expect(posts).toEqual([{ url: '/api/tours/t1/assign/d1', body: undefined }]);
  });
});
