import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultSettings,
  readStoredSettings,
  sanitizeSettings,
  settingsAtom,
  settingsFromUrl,
  navStyles,
  shownMode,
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

describe('dark by default; following the system is a choice', () => {
  let prefersLight = true;
  beforeEach(() => {
    window.localStorage.clear();
    prefersLight = true;
    // jsdom has no matchMedia: a media query list whose answer the test sets, as a browser's would change.
    window.matchMedia = ((query: string) => ({
      get matches() {
        return query.includes('light') ? prefersLight : !prefersLight;
      },
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    })) as unknown as typeof window.matchMedia;
  });
  afterEach(() => {
    delete (window as { matchMedia?: unknown }).matchMedia;
  });

  it('opens dark in a browser with no stored settings, though its system prefers light', () => {
    const settings = readStoredSettings();
    expect(settings.mode).toBe('dark');
    expect(shownMode(settings)).toBe('dark');
  });

  it("shows the system's mode once 'system' is picked, and remembers the pick", () => {
    const store = createStore();
    store.set(settingsAtom, { mode: 'system' });
    expect(shownMode(store.get(settingsAtom))).toBe('light');
    prefersLight = false;
    expect(shownMode(store.get(settingsAtom))).toBe('dark');
    expect(readStoredSettings().mode).toBe('system');
    store.set(settingsAtom, { mode: 'semi-dark' });
    expect(readStoredSettings().mode).toBe('semi-dark');
    // The customizer's reset hands back the defaults: dark again.
    store.set(settingsAtom, { ...defaultSettings });
    expect(readStoredSettings().mode).toBe('dark');
  });

  it('keeps a mode picked before, and gives a never-picked one the default', () => {
    window.localStorage.setItem(
      'settings',
      JSON.stringify({ mode: 'light', modeChosen: true, navStyle: 'mini' }),
    );
    expect(readStoredSettings()).toMatchObject({ mode: 'light', navStyle: 'mini' });
    window.localStorage.setItem('settings', JSON.stringify({ mode: 'semi-dark' }));
    expect(readStoredSettings().mode).toBe('semi-dark');
    // Followed the system without a pick (stored as the system's light at the time): now dark.
    window.localStorage.setItem('settings', JSON.stringify({ mode: 'light', modeChosen: false }));
    expect(readStoredSettings().mode).toBe('dark');
  });
});

describe('navigation styles', () => {
  it('offers eleven, each stored as itself', () => {
    expect(navStyles).toHaveLength(11);
    for (const navStyle of navStyles)
      expect(sanitizeSettings({ navStyle }).navStyle).toBe(navStyle);
  });

  it('maps the earlier sidebar value to the static sidebar, and an unknown one to the default', () => {
    expect(sanitizeSettings({ navStyle: 'default' }).navStyle).toBe('static');
    expect(sanitizeSettings({ navStyle: 'collapsible' }).navStyle).toBe('collapsible');
    expect(sanitizeSettings({ navStyle: 'sideways' }).navStyle).toBe('static');
    expect(settingsFromUrl('?nav_style=slim%2B')).toEqual({ navStyle: 'slim-plus' });
    expect(settingsFromUrl('?nav_style=two-column')).toEqual({ navStyle: 'two-column' });
  });
});
