import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { withShellTexts } from '../shared/shellTexts.ts';
import { appStore } from '../state/session.ts';
import { settingsAtom } from '../state/settings.ts';

export const supportedLanguages = ['en', 'zh', 'es', 'fr', 'it', 'ar'] as const;
export type Language = (typeof supportedLanguages)[number];

/**
 * Each language under its own name, the same whatever language the page is in: the switcher offers
 * them without loading the other languages' texts.
 */
export const languageNames: Readonly<Record<Language, string>> = {
  en: 'English',
  zh: '中文',
  es: 'Español',
  fr: 'Français',
  it: 'Italiano',
  ar: 'العربية',
};

const storageKey = 'language';

export function isSupportedLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (supportedLanguages as readonly string[]).includes(value);
}

type Texts = Record<string, unknown>;

/**
 * Every locale file, loaded on demand: a browser downloads only the language it shows (and English,
 * the fallback), not all six. Each area of screens keeps its texts in its own files (top-level keys
 * of their own), beside the base file of each language.
 */
const localeFiles = import.meta.glob<Texts>(['./*.json', './areas/*/*.json'], {
  import: 'default',
});

/** A language's base file with its areas' files merged in. */
async function loadLanguageTexts(lng: Language): Promise<Texts> {
  const base = localeFiles[`./${lng}.json`];
  if (!base) throw new Error(`No locale file for ${lng}`);
  const areas = Object.entries(localeFiles)
    .filter(([path]) => path.startsWith('./areas/') && path.endsWith(`/${lng}.json`))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, load]) => load());
  const [baseTexts, ...areaTexts] = await Promise.all([base(), ...areas]);
  return withShellTexts(Object.assign({}, baseTexts, ...areaTexts) as Texts);
}

/** i18next reads a language's texts through this when it first needs them (start, switch, fallback). */
const localeBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  // Two parameters, no callback: that is how i18next tells a backend that answers with a promise.
  read: (lng: string, _namespace: string) =>
    (isSupportedLanguage(lng)
      ? loadLanguageTexts(lng)
      : Promise.resolve({})) as Promise<ResourceKey>,
};

function readStoredLanguage(): string | null {
  try {
    return window.localStorage.getItem(storageKey);
  } catch {
    return null; // storage disabled (private mode, sandboxed frame)
  }
}

/**
 * The language a page opens in: the one the user picked in this browser, else English (the
 * specification's default), whatever language the browser asks for.
 */
export function initialLanguage(): Language {
  const stored = readStoredLanguage();
  return isSupportedLanguage(stored) ? stored : 'en';
}

function applyLanguage(lng: string): void {
  const root = document.documentElement;
  root.lang = lng;
  root.dir = i18n.dir(lng);
  // The language switch sets the locale and the RTL flag: right to left only for Arabic.
  const rtl = root.dir === 'rtl';
  if (appStore.get(settingsAtom).rtl !== rtl) appStore.set(settingsAtom, { rtl });
  document.title = i18n.t('app.name');
  try {
    window.localStorage.setItem(storageKey, lng);
  } catch {
    // the choice simply is not remembered
  }
}

// Registered before init so the initial language is applied too.
i18n.on('languageChanged', applyLanguage);

// init resolves once the first language's texts are in: the first render never shows bare keys.
// changeLanguage likewise loads a language before switching to it.
await i18n
  .use(localeBackend)
  .use(initReactI18next)
  .init({
    lng: initialLanguage(),
    supportedLngs: [...supportedLanguages],
    // Language codes only ('en', never 'en-US'): the locale files are per language.
    load: 'languageOnly',
    // Both defaults changed across i18next majors: state them.
    fallbackLng: 'en',
    interpolation: { escapeValue: false }, // React escapes already
  });
// init does not always emit languageChanged for the first language: apply it (dir, lang) here too.
applyLanguage(i18n.resolvedLanguage ?? i18n.language);

export default i18n;
