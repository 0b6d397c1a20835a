import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import i18n from '../i18n/index.ts';
import { App } from './App.tsx';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function renderAt(path: string) {
  const location = memoryLocation({ path, record: true });
  render(
    <Router hook={location.hook}>
      <App />
    </Router>,
  );
  return location;
}

describe('App', () => {
  let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

  beforeEach(async () => {
    await i18n.changeLanguage('en');
    const health = { status: 'ok', eventStore: { kind: 'pglite', status: 'ok' }, readModels: [] };
    fetchMock = vi.fn<typeof fetch>(async (input) =>
      String(input) === '/api/health' ? jsonResponse(200, health) : jsonResponse(404, {}),
    );
    vi.stubGlobal('fetch', fetchMock);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the sign-in form with its labels and button', async () => {
    renderAt('/signin');

    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByLabelText('Email or username')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(await screen.findByText('Event store: ok')).toBeTruthy();
  });

  it("shows the server's message when sign-in is refused", async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/login'
        ? jsonResponse(401, { statusCode: 401, error: 'Unauthorized', message: 'Wrong email or password.' })
        : jsonResponse(503, {}),
    );
    renderAt('/signin');

    fireEvent.change(screen.getByLabelText('Email or username'), { target: { value: 'dispatch@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'not-the-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('Wrong email or password.')).toBeTruthy();
    const [, init] = fetchMock.mock.calls.find(([input]) => String(input) === '/api/login') ?? [];
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'dispatch@example.com', password: 'not-the-password' });
    expect(await screen.findByText('Event store: unavailable')).toBeTruthy();
  });

  it('sends unknown paths to the 404 page', async () => {
    const location = renderAt('/no/such/page');

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(location.history?.at(-1)).toBe('/error-pages/error-404');
  });

  it('switches to Arabic from the language menu and lays the page out right to left', async () => {
    renderAt('/signin');

    // Opened from the keyboard, as a dispatcher without a mouse would.
    fireEvent.keyDown(screen.getByLabelText('Language'), { key: 'ArrowDown', code: 'ArrowDown' });
    // jsdom has no layout, so PrimeReact's overlay positioning leaves the panel at display:none.
    fireEvent.click(await screen.findByRole('option', { name: 'العربية', hidden: true }));
    await waitFor(() => expect(i18n.resolvedLanguage).toBe('ar'));

    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar');
    expect(screen.getByRole('button', { name: 'تسجيل الدخول' })).toBeTruthy();
    expect(screen.getByLabelText('كلمة المرور')).toBeTruthy();

    await act(async () => {
      await i18n.changeLanguage('en');
    });
    expect(document.documentElement.dir).toBe('ltr');
  });
});
