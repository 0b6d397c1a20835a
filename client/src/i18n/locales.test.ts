import { describe, expect, it } from 'vitest';
import ar from './ar.json' with { type: 'json' };
import en from './en.json' with { type: 'json' };
import es from './es.json' with { type: 'json' };
import fr from './fr.json' with { type: 'json' };
import it_ from './it.json' with { type: 'json' };
import zh from './zh.json' with { type: 'json' };
import { languageNames, supportedLanguages } from './index.ts';

/** Every locale with its area files merged, as i18n/index.ts merges them. */
const areaFiles = import.meta.glob('./areas/*/*.json', {
  eager: true,
  import: 'default',
}) as Record<string, Record<string, unknown>>;
const withAreas = (lng: string, base: Record<string, unknown>) =>
  Object.entries(areaFiles)
    .filter(([file]) => file.endsWith(`/${lng}.json`))
    .reduce((all, [, texts]) => Object.assign(all, texts), { ...base });

/** Every leaf of a locale file as [dotted key, text]. */
function entriesOf(value: unknown, prefix = ''): [string, unknown][] {
  if (typeof value !== 'object' || value === null) return [[prefix, value]];
  return Object.entries(value).flatMap(([key, child]) =>
    entriesOf(child, prefix ? `${prefix}.${key}` : key),
  );
}

const placeholders = (text: unknown) =>
  String(text)
    .match(/{{\s*\w+\s*}}/g)
    ?.sort() ?? [];

/**
 * Words that are the same in English and that language (cognates and loanwords): the only texts a
 * translation may share with the English file. Anything else identical is an untranslated copy.
 */
const sameAsEnglish: Record<string, string[]> = {
  zh: [],
  es: [
    'snackbar.error',
    'readModels.reactors.name',
    'invoices.columns.total',
    'invoices.detail.total',
    'invoices.kinds.tonu',
    'invoices.settings.factorTitle',
  ],
  fr: [
    'menu.administration',
    'notifications.title',
    'snackbar.info',
    'table.actions',
    'customizer.mode',
    'customizer.styles.standard',
    'customizer.presets.indigo',
    'customizer.presets.cyan',
    'account.tabs.organization',
    'account.shipper.signature',
    'invoices.columns.total',
    'invoices.detail.total',
    'invoices.kinds.tonu',
  ],
  it: [
    'signIn.password',
    'customizer.layout',
    'customizer.styles.standard',
    'customizer.presets.lime',
    'account.user.email',
    'invoices.kinds.tonu',
    'invoices.settings.factorTitle',
  ],
  ar: [],
};

describe('locale files', () => {
  const english = new Map(entriesOf(withAreas('en', en)));
  const others = {
    zh: withAreas('zh', zh),
    es: withAreas('es', es),
    fr: withAreas('fr', fr),
    it: withAreas('it', it_),
    ar: withAreas('ar', ar),
  };

  it.each(Object.entries(others))(
    '%s has the English keys, texts and placeholders',
    (_lng, messages) => {
      const translated = new Map(entriesOf(messages));
      expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
      for (const [key, text] of translated) {
        expect(typeof text === 'string' && text.trim() !== '', key).toBe(true);
        expect(placeholders(text), key).toEqual(placeholders(english.get(key)));
      }
    },
  );

  it.each(Object.entries(others))(
    '%s translates every text instead of copying the English one',
    (lng, messages) => {
      const copies = entriesOf(messages)
        .filter(([key, text]) => text === english.get(key) && !sameAsEnglish[lng].includes(key))
        .map(([key]) => key);
      expect(copies).toEqual([]);
    },
  );

  it('offers each language under its own name', () => {
    expect(supportedLanguages.map((lng) => languageNames[lng])).toEqual([
      'English',
      '中文',
      'Español',
      'Français',
      'Italiano',
      'العربية',
    ]);
  });
});
