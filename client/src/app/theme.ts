import darkTheme from 'primereact/resources/themes/lara-dark-amber/theme.css?url';
import lightTheme from 'primereact/resources/themes/lara-light-amber/theme.css?url';
import { borderRadius, colorPresets, shownMode, type ThemeSettings } from '../state/settings.ts';

const linkId = 'theme-link';

/** The PrimeReact stylesheet of a mode: semi-dark is the light theme with a dark sidebar and header. */
export const themeHref = (settings: Pick<ThemeSettings, 'mode'>): string =>
  shownMode(settings) === 'dark' ? darkTheme : lightTheme;

export function primaryColorOf(settings: ThemeSettings): { primary: string; secondary: string } {
  if (settings.preset === 'custom') return { primary: settings.customColor, secondary: '#ef4444' };
  return colorPresets.find((preset) => preset.id === settings.preset) ?? colorPresets[0];
}

/** WCAG relative luminance of a #rrggbb colour. */
export function relativeLuminance(hex: string): number {
  const channels = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * Puts the settings on the document: the theme stylesheet, the radius and colours as CSS variables,
 * and the layout choices as data attributes the stylesheet reads.
 */
export function applyTheme(settings: ThemeSettings): void {
  const root = document.documentElement;
  let link = document.getElementById(linkId) as HTMLLinkElement | null;
  if (!link) {
    link = document.createElement('link');
    link.id = linkId;
    link.rel = 'stylesheet';
    // First in <head>: the app's own rules come later and win over the theme's.
    document.head.prepend(link);
  }
  const href = themeHref(settings);
  if (link.getAttribute('href') !== href) link.setAttribute('href', href);

  const { primary, secondary } = primaryColorOf(settings);
  root.style.setProperty('--app-radius', `${borderRadius[settings.style]}px`);
  root.style.setProperty('--primary-color', primary);
  root.style.setProperty('--app-primary', primary);
  root.style.setProperty('--app-secondary', secondary);
  // Text on the primary colour: dark on bright colours (orange, amber), white on deep ones (AA contrast).
  root.style.setProperty(
    '--app-primary-text',
    relativeLuminance(primary) > 0.3 ? '#111827' : '#ffffff',
  );
  // The mode shown ('system' resolved to the system's light or dark), which the stylesheet reads.
  const mode = shownMode(settings);
  root.dataset.mode = mode;
  root.dataset.style = settings.style;
  root.dataset.header = settings.header;
  root.dataset.nav = settings.navStyle;
  root.dataset.layout = settings.layout;
  root.style.colorScheme = mode === 'dark' ? 'dark' : 'light';
  root.dir = settings.rtl ? 'rtl' : 'ltr';
  document
    .querySelector('meta[name="color-scheme"]')
    ?.setAttribute('content', mode === 'dark' ? 'dark' : 'light');
}
