/**
 * Route titles and a menu label for the screens this area adds to the shell (the mail outbox and
 * the sample pages). The shell's types read them from the base locale files, which other screens
 * extend at the same time; until these keys land there, the public area's `shellRoutes` and
 * `shellMenu` are merged into `routes` and `menu` as each language loads, without overwriting a key
 * that already exists.
 */
import type { MenuLabelKey, RouteTitleKey } from '../app/textKeys.ts';

type Texts = Record<string, unknown>;

const section = (texts: Texts, key: string): Texts => (texts[key] ?? {}) as Texts;

/** A language's merged texts with the shell texts of this area added under `routes` and `menu`. */
export function withShellTexts(texts: Texts): Texts {
  return {
    ...texts,
    routes: { ...section(texts, 'shellRoutes'), ...section(texts, 'routes') },
    menu: { ...section(texts, 'shellMenu'), ...section(texts, 'menu') },
  };
}

export const outboxTitleKey = 'routes.adminOutbox' as RouteTitleKey;
export const samplePage1TitleKey = 'routes.samplePage1' as RouteTitleKey;
export const samplePage2TitleKey = 'routes.samplePage2' as RouteTitleKey;
export const outboxMenuLabel = 'menu.outbox' as MenuLabelKey;
