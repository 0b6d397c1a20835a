import { describe, expect, it } from 'vitest';
import ar from './ar.json' with { type: 'json' };
import en from './en.json' with { type: 'json' };
import es from './es.json' with { type: 'json' };
import fr from './fr.json' with { type: 'json' };
import it_ from './it.json' with { type: 'json' };
import zh from './zh.json' with { type: 'json' };

/** Every leaf of a locale file as [dotted key, text]. */
function entriesOf(value: unknown, prefix = ''): [string, unknown][] {
  if (typeof value !== 'object' || value === null) return [[prefix, value]];
  return Object.entries(value).flatMap(([key, child]) => entriesOf(child, prefix ? `${prefix}.${key}` : key));
}

const placeholders = (text: unknown) => String(text).match(/{{\s*\w+\s*}}/g)?.sort() ?? [];

describe('locale files', () => {
  const english = new Map(entriesOf(en));
  const others = { zh, es, fr, it: it_, ar };

  it.each(Object.entries(others))('%s has the English keys, texts and placeholders', (_lng, messages) => {
    const translated = new Map(entriesOf(messages));
    expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of translated) {
      expect(typeof text === 'string' && text.trim() !== '', key).toBe(true);
      expect(placeholders(text), key).toEqual(placeholders(english.get(key)));
    }
  });
});
