/**
 * Route titles and a menu label for the screens this area adds to the shell (the mail outbox and
 * the sample pages). The shell's types read them from the base locale files, which other screens
 * extend at the same time; until these keys land there, they are merged into `routes` and `menu`
 * here, in all six languages, without overwriting a key that already exists.
 */
import i18n from '../../i18n/index.ts';
import ar from '../../i18n/areas/public/ar.json' with { type: 'json' };
import en from '../../i18n/areas/public/en.json' with { type: 'json' };
import es from '../../i18n/areas/public/es.json' with { type: 'json' };
import fr from '../../i18n/areas/public/fr.json' with { type: 'json' };
import it from '../../i18n/areas/public/it.json' with { type: 'json' };
import zh from '../../i18n/areas/public/zh.json' with { type: 'json' };
import type { MenuLabelKey } from '../../app/menu.ts';
import type { RouteTitleKey } from '../../app/routes.ts';

for (const [lng, texts] of Object.entries({ en, zh, es, fr, it, ar } as Record<string, typeof en>)) {
  i18n.addResourceBundle(lng, 'translation', { routes: texts.shellRoutes, menu: texts.shellMenu }, true, false);
}

export const outboxTitleKey = 'routes.adminOutbox' as RouteTitleKey;
export const samplePage1TitleKey = 'routes.samplePage1' as RouteTitleKey;
export const samplePage2TitleKey = 'routes.samplePage2' as RouteTitleKey;
export const outboxMenuLabel = 'menu.outbox' as MenuLabelKey;
