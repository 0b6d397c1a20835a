/**
 * A first visit: a browser with nothing stored, asking for French, on a system that prefers light,
 * opens the sign-in page dark and in English (the specification's defaults). A file of its own: the
 * language and the settings are read once, when the app's modules load.
 */
import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';

beforeAll(() => {
  window.localStorage.clear();
  Object.defineProperty(window.navigator, 'language', { value: 'fr-FR', configurable: true });
  Object.defineProperty(window.navigator, 'languages', {
    value: ['fr-FR', 'fr'],
    configurable: true,
  });
  // jsdom has no matchMedia: a system that prefers light, on a wide screen.
  window.matchMedia = ((query: string) => ({
    matches: query.includes('prefers-color-scheme: light'),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
});

describe('a first visit', () => {
  it('opens the sign-in page dark and in English, whatever the browser and the system prefer', async () => {
    expect(navigator.languages).toEqual(['fr-FR', 'fr']);
    expect(window.matchMedia('(prefers-color-scheme: light)').matches).toBe(true);
    // Loaded now, after the browser above is set up, as a first page load would.
    const { renderAppAt } = await import('../test/renderApp.tsx');
    renderAppAt('/signin');

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    await waitFor(() => expect(document.documentElement.dataset.mode).toBe('dark'));
    expect(document.documentElement.style.colorScheme).toBe('dark');
    expect(document.documentElement.lang).toBe('en');
    expect(document.documentElement.dir).toBe('ltr');
    // Remembered from now on, as a pick would be.
    expect(window.localStorage.getItem('language')).toBe('en');
  });
});
