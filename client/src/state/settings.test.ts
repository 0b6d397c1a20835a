import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultSettings,
  readStoredSettings,
  sanitizeSettings,
  settingsAtom,
  settingsFromUrl,
  systemModeChangedAtom,
} from './settings.ts';

describe('theme settings', () => {
  it("defaults to the specification's dark mode, standard style and full width", () => {
    expect(defaultSettings).toMatchObject({
      mode: 'dark',
      style: 'standard',
      layout: 'full-width',
      rtl: false,
    });
    expect(sanitizeSettings({ mode: 'neon', layout: 'boxed', customColor: 'red' })).toMatchObject({
      mode: 'dark',
      layout: 'boxed',
      customColor: '#f97316',
    });
  });

  it('reads layout, mode, rtl and style from the URL', () => {
    expect(settingsFromUrl('?layout=boxed&mode=light&rtl=true&style=modern')).toEqual({
      layout: 'boxed',
      mode: 'light',
      rtl: true,
      style: 'modern',
    });
  });

  it('reads theme_mode, is_rtl, nav_style and theme_style from the URL', () => {
    expect(
      settingsFromUrl('?theme_mode=semi-dark&is_rtl=0&nav_style=mini-sidebar&theme_style=modern'),
    ).toEqual({ mode: 'semi-dark', rtl: false, navStyle: 'mini', style: 'modern' });
    expect(settingsFromUrl('?mode=sepia&nav_style=unknown')).toEqual({});
  });
});

describe('the mode follows the system until the user picks one', () => {
  let prefersLight = false;
  const listeners = new Set<() => void>();
  beforeEach(() => {
    window.localStorage.clear();
    prefersLight = false;
    // jsdom has no matchMedia: a media query list whose answer the test sets, as a browser's would change.
    window.matchMedia = ((query: string) => ({
      get matches() {
        return query.includes('light') ? prefersLight : !prefersLight;
      },
      media: query,
      addEventListener: (_: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
    })) as unknown as typeof window.matchMedia;
  });
  afterEach(() => {
    delete (window as { matchMedia?: unknown }).matchMedia;
  });

  it('starts in the system mode, light or dark', () => {
    prefersLight = true;
    expect(readStoredSettings()).toMatchObject({ mode: 'light', modeChosen: false });
    prefersLight = false;
    expect(readStoredSettings()).toMatchObject({ mode: 'dark', modeChosen: false });
  });

  it('follows a change of the system while nothing is picked, then keeps the pick', () => {
    const store = createStore();
    prefersLight = true;
    store.set(systemModeChangedAtom);
    expect(store.get(settingsAtom).mode).toBe('light');
    store.set(settingsAtom, { mode: 'semi-dark' });
    expect(store.get(settingsAtom)).toMatchObject({ mode: 'semi-dark', modeChosen: true });
    prefersLight = false;
    store.set(systemModeChangedAtom);
    expect(store.get(settingsAtom).mode).toBe('semi-dark');
    expect(readStoredSettings()).toMatchObject({ mode: 'semi-dark', modeChosen: true });
    // Another setting keeps the pick; a reset to the defaults follows the system again.
    store.set(settingsAtom, { navStyle: 'mini' });
    expect(store.get(settingsAtom).modeChosen).toBe(true);
    prefersLight = true;
    store.set(settingsAtom, { ...defaultSettings });
    expect(store.get(settingsAtom)).toMatchObject({ mode: 'light', modeChosen: false });
  });

  it('a stored mode other than the default, from before the choice was remembered, counts as picked', () => {
    prefersLight = true;
    window.localStorage.setItem('settings', JSON.stringify({ mode: 'semi-dark' }));
    expect(readStoredSettings()).toMatchObject({ mode: 'semi-dark', modeChosen: true });
    window.localStorage.setItem('settings', JSON.stringify({ mode: 'dark' }));
    expect(readStoredSettings()).toMatchObject({ mode: 'light', modeChosen: false });
  });
});
