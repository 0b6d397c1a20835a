import { describe, expect, it } from 'vitest';
import { defaultSettings, sanitizeSettings, settingsFromUrl } from './settings.ts';

describe('theme settings', () => {
  it("defaults to the specification's dark mode, standard style and full width", () => {
    expect(defaultSettings).toMatchObject({ mode: 'dark', style: 'standard', layout: 'full-width', rtl: false });
    expect(sanitizeSettings({ mode: 'neon', layout: 'boxed', customColor: 'red' })).toMatchObject({ mode: 'dark', layout: 'boxed', customColor: '#f97316' });
  });

  it('reads layout, mode, rtl and style from the URL', () => {
    expect(settingsFromUrl('?layout=boxed&mode=light&rtl=true&style=modern')).toEqual({ layout: 'boxed', mode: 'light', rtl: true, style: 'modern' });
  });

  it('reads theme_mode, is_rtl, nav_style and theme_style from the URL', () => {
    expect(settingsFromUrl('?theme_mode=semi-dark&is_rtl=0&nav_style=mini-sidebar&theme_style=modern')).toEqual({ mode: 'semi-dark', rtl: false, navStyle: 'mini', style: 'modern' });
    expect(settingsFromUrl('?mode=sepia&nav_style=unknown')).toEqual({});
  });
});
