import { atom } from 'jotai';

export const themeStyles = ['standard', 'modern'] as const;
/** The modes the customizer offers; 'system' follows the system's light or dark preference. */
export const themeModes = ['light', 'semi-dark', 'dark', 'system'] as const;
/**
 * The navigation styles, in the customizer's order (app/AppShell.tsx lays each out); below 992 px
 * wide every style becomes a drawer.
 */
export const navStyles = [
  'static',
  'compact',
  'collapsible',
  'mini',
  'slim',
  'slim-plus',
  'reveal',
  'two-column',
  'overlay',
  'drawer',
  'horizontal',
] as const;
export const layoutTypes = ['full-width', 'boxed'] as const;
export const footerTypes = ['fixed', 'fluid'] as const;
export const headerTypes = ['dark', 'light'] as const;
export const routeTransitions = [
  'none',
  'fade',
  'slide-left',
  'slide-right',
  'slide-up',
  'slide-down',
] as const;

export type ThemeStyle = (typeof themeStyles)[number];
export type ThemeMode = (typeof themeModes)[number];
/** The mode the page shows: a chosen one, or the system's for 'system'. */
export type ShownMode = Exclude<ThemeMode, 'system'>;
export type NavStyle = (typeof navStyles)[number];
export type LayoutType = (typeof layoutTypes)[number];
export type FooterType = (typeof footerTypes)[number];
export type HeaderType = (typeof headerTypes)[number];
export type RouteTransition = (typeof routeTransitions)[number];

/** The 12 preset colour sets (primary, secondary); the first is the specification's orange and red. */
export const colorPresets = [
  { id: 'orange', primary: '#f97316', secondary: '#ef4444' },
  { id: 'amber', primary: '#f59e0b', secondary: '#dc2626' },
  { id: 'red', primary: '#ef4444', secondary: '#f97316' },
  { id: 'pink', primary: '#ec4899', secondary: '#8b5cf6' },
  { id: 'purple', primary: '#a855f7', secondary: '#ec4899' },
  { id: 'indigo', primary: '#6366f1', secondary: '#06b6d4' },
  { id: 'blue', primary: '#3b82f6', secondary: '#f97316' },
  { id: 'cyan', primary: '#06b6d4', secondary: '#6366f1' },
  { id: 'teal', primary: '#14b8a6', secondary: '#f59e0b' },
  { id: 'green', primary: '#22c55e', secondary: '#0ea5e9' },
  { id: 'lime', primary: '#84cc16', secondary: '#14b8a6' },
  { id: 'slate', primary: '#64748b', secondary: '#f97316' },
] as const;
export type ColorPresetId = (typeof colorPresets)[number]['id'] | 'custom';

export interface ThemeSettings {
  style: ThemeStyle;
  mode: ThemeMode;
  preset: ColorPresetId;
  customColor: string;
  /** Right to left; set by the language (only Arabic) and by the customizer's switch. */
  rtl: boolean;
  navStyle: NavStyle;
  /** The sidebar of the collapsible style is folded to its icons. */
  navCollapsed: boolean;
  layout: LayoutType;
  footer: boolean;
  footerType: FooterType;
  header: HeaderType;
  transition: RouteTransition;
}

/**
 * The specification's defaults: dark mode (whatever the system prefers), standard style, full width;
 * right to left only for Arabic.
 */
export const defaultSettings: ThemeSettings = {
  style: 'standard',
  mode: 'dark',
  preset: 'orange',
  customColor: '#f97316',
  rtl: false,
  navStyle: 'static',
  navCollapsed: false,
  layout: 'full-width',
  footer: true,
  footerType: 'fixed',
  header: 'dark',
  transition: 'fade',
};

/**
 * The system's preference as a mode: light when the system asks for light, else the specification's
 * dark (also when the browser cannot tell). Shown only once the user picks 'system'.
 */
export function systemMode(): ShownMode {
  try {
    return window.matchMedia?.('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
  } catch {
    return 'dark';
  }
}

/** Radius of the standard and modern styles (specification section 9). */
export const borderRadius: Record<ThemeStyle, number> = { standard: 4, modern: 30 };
export const ROUTE_TRANSITION_MS = 300;

const storageKey = 'settings';

function oneOf<T extends string>(list: readonly T[], value: unknown): T | undefined {
  return typeof value === 'string' && (list as readonly string[]).includes(value)
    ? (value as T)
    : undefined;
}

const isHexColor = (value: unknown): value is string =>
  typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value);

/** The mode a page shows: the chosen one, or the system's light or dark for 'system'. */
export const shownMode = (settings: Pick<ThemeSettings, 'mode'>): ShownMode =>
  settings.mode === 'system' ? systemMode() : settings.mode;

/** Stored values of earlier navigation styles. */
const legacyNavStyles: Record<string, NavStyle> = { default: 'static' };

/**
 * The mode of stored settings. Earlier settings followed the system until a mode was picked and kept
 * `modeChosen`: one that was never picked now shows the default (dark), a picked one stays.
 */
function storedMode(input: Record<string, unknown>): ThemeMode {
  if (input.modeChosen === false) return defaultSettings.mode;
  return oneOf(themeModes, input.mode) ?? defaultSettings.mode;
}

/** Only known values survive: a stale or edited storage entry cannot break the layout. */
export function sanitizeSettings(value: unknown): ThemeSettings {
  const input = (typeof value === 'object' && value !== null ? value : {}) as Record<
    string,
    unknown
  >;
  const presetIds = [...colorPresets.map((preset) => preset.id), 'custom'] as const;
  return {
    style: oneOf(themeStyles, input.style) ?? defaultSettings.style,
    mode: storedMode(input),
    preset: oneOf(presetIds, input.preset) ?? defaultSettings.preset,
    customColor: isHexColor(input.customColor) ? input.customColor : defaultSettings.customColor,
    rtl: typeof input.rtl === 'boolean' ? input.rtl : defaultSettings.rtl,
    navStyle:
      oneOf(navStyles, input.navStyle) ??
      (typeof input.navStyle === 'string' ? legacyNavStyles[input.navStyle] : undefined) ??
      defaultSettings.navStyle,
    navCollapsed:
      typeof input.navCollapsed === 'boolean' ? input.navCollapsed : defaultSettings.navCollapsed,
    layout: oneOf(layoutTypes, input.layout) ?? defaultSettings.layout,
    footer: typeof input.footer === 'boolean' ? input.footer : defaultSettings.footer,
    footerType: oneOf(footerTypes, input.footerType) ?? defaultSettings.footerType,
    header: oneOf(headerTypes, input.header) ?? defaultSettings.header,
    transition: oneOf(routeTransitions, input.transition) ?? defaultSettings.transition,
  };
}

const truthy = (value: string | null): boolean | undefined =>
  value === null ? undefined : ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());

const navAliases: Record<string, NavStyle> = {
  'mini-sidebar': 'mini',
  minisidebar: 'mini',
  folded: 'mini',
  'horizontal-top': 'horizontal',
  top: 'horizontal',
  'horizontal-default': 'horizontal',
  default: 'static',
  vertical: 'static',
  standard: 'static',
  sidebar: 'static',
  'slim+': 'slim-plus',
  slimplus: 'slim-plus',
  twocolumn: 'two-column',
  'two-columns': 'two-column',
  'dual-column': 'two-column',
};

/**
 * The theme changes the URL may carry (specification "Startup and redirect rules"): `layout`, `mode`,
 * `rtl` and `style`, or `theme_mode`, `is_rtl`, `nav_style` and `theme_style`.
 */
export function settingsFromUrl(search: string): Partial<ThemeSettings> {
  const params = new URLSearchParams(search);
  const patch: Partial<ThemeSettings> = {};
  const mode = oneOf(themeModes, params.get('mode') ?? params.get('theme_mode'));
  if (mode) patch.mode = mode;
  const style = oneOf(themeStyles, params.get('style') ?? params.get('theme_style'));
  if (style) patch.style = style;
  const rtl = truthy(params.get('rtl') ?? params.get('is_rtl'));
  if (rtl !== undefined) patch.rtl = rtl;
  const layoutParam = params.get('layout');
  const layout = oneOf(layoutTypes, layoutParam === 'framed' ? 'boxed' : layoutParam);
  if (layout) patch.layout = layout;
  const nav = params.get('nav_style');
  if (nav) {
    const navStyle = oneOf(navStyles, nav.toLowerCase()) ?? navAliases[nav.toLowerCase()];
    if (navStyle) patch.navStyle = navStyle;
  }
  return patch;
}

/** The remembered settings; a browser without any gets the defaults (dark, whatever the system prefers). */
export function readStoredSettings(): ThemeSettings {
  try {
    const stored = window.localStorage.getItem(storageKey);
    return sanitizeSettings(stored ? JSON.parse(stored) : {});
  } catch {
    return { ...defaultSettings };
  }
}

function storeSettings(settings: ThemeSettings): void {
  try {
    window.localStorage.setItem(storageKey, JSON.stringify(settings));
  } catch {
    // not remembered in this browser
  }
}

const settingsBaseAtom = atom<ThemeSettings>(readStoredSettings());

/** The theme settings, remembered per browser. */
export const settingsAtom = atom(
  (get) => get(settingsBaseAtom),
  (get, set, patch: Partial<ThemeSettings>) => {
    const next = sanitizeSettings({ ...get(settingsBaseAtom), ...patch });
    set(settingsBaseAtom, next);
    storeSettings(next);
  },
);

/** The path the app was opened at (or a signed-out visitor was turned away from), restored after sign-in. */
export const initialPathAtom = atom<string | null>(null);

/** The customizer drawer and the small-screen navigation drawer. */
export const customizerOpenAtom = atom(false);
export const navDrawerOpenAtom = atom(false);
