import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { appStore } from '../state/session.ts';
import { settingsAtom } from '../state/settings.ts';
import ar from './ar.json' with { type: 'json' };
import en from './en.json' with { type: 'json' };
import es from './es.json' with { type: 'json' };
import fr from './fr.json' with { type: 'json' };
import it from './it.json' with { type: 'json' };
import zh from './zh.json' with { type: 'json' };
// Each area of screens keeps its texts in its own files (top-level keys of their own), merged here.
import marketplace_ar from './areas/marketplace/ar.json' with { type: 'json' };
import marketplace_en from './areas/marketplace/en.json' with { type: 'json' };
import marketplace_es from './areas/marketplace/es.json' with { type: 'json' };
import marketplace_fr from './areas/marketplace/fr.json' with { type: 'json' };
import marketplace_it from './areas/marketplace/it.json' with { type: 'json' };
import marketplace_zh from './areas/marketplace/zh.json' with { type: 'json' };
import public_ar from './areas/public/ar.json' with { type: 'json' };
import public_en from './areas/public/en.json' with { type: 'json' };
import public_es from './areas/public/es.json' with { type: 'json' };
import public_fr from './areas/public/fr.json' with { type: 'json' };
import public_it from './areas/public/it.json' with { type: 'json' };
import public_zh from './areas/public/zh.json' with { type: 'json' };
import tours_ar from './areas/tours/ar.json' with { type: 'json' };
import tours_en from './areas/tours/en.json' with { type: 'json' };
import tours_es from './areas/tours/es.json' with { type: 'json' };
import tours_fr from './areas/tours/fr.json' with { type: 'json' };
import tours_it from './areas/tours/it.json' with { type: 'json' };
import tours_zh from './areas/tours/zh.json' with { type: 'json' };

export const supportedLanguages = ['en', 'zh', 'es', 'fr', 'it', 'ar'] as const;
export type Language = (typeof supportedLanguages)[number];

const storageKey = 'language';

export function isSupportedLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (supportedLanguages as readonly string[]).includes(value);
}

function readStoredLanguage(): string | null {
  try {
    return window.localStorage.getItem(storageKey);
  } catch {
    return null; // storage disabled (private mode, sandboxed frame)
  }
}

function initialLanguage(): Language {
  const stored = readStoredLanguage();
  if (isSupportedLanguage(stored)) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag?.toLowerCase().split('-')[0];
    if (isSupportedLanguage(base)) return base;
  }
  return 'en';
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

await i18n.use(initReactI18next).init({
  resources: {
    en: { translation: { ...en, ...marketplace_en, ...public_en, ...tours_en } },
    zh: { translation: { ...zh, ...marketplace_zh, ...public_zh, ...tours_zh } },
    es: { translation: { ...es, ...marketplace_es, ...public_es, ...tours_es } },
    fr: { translation: { ...fr, ...marketplace_fr, ...public_fr, ...tours_fr } },
    it: { translation: { ...it, ...marketplace_it, ...public_it, ...tours_it } },
    ar: { translation: { ...ar, ...marketplace_ar, ...public_ar, ...tours_ar } },
  },
  lng: initialLanguage(),
  supportedLngs: [...supportedLanguages],
  // Both defaults changed across i18next majors: state them.
  fallbackLng: 'en',
  interpolation: { escapeValue: false }, // React escapes already
});
// init does not always emit languageChanged for the first language: apply it (dir, lang) here too.
applyLanguage(i18n.resolvedLanguage ?? i18n.language);

export default i18n;
