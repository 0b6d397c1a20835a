import { describe, expect, it } from 'vitest';
import { outboxTitleKey } from '../shared/shellTexts.ts';
import i18n from './index.ts';

describe('language loading', () => {
  it('starts with English only and loads a language when it is chosen', async () => {
    await i18n.changeLanguage('en');
    expect(i18n.hasResourceBundle('fr', 'translation')).toBe(false);

    await i18n.changeLanguage('fr');
    expect(i18n.hasResourceBundle('fr', 'translation')).toBe(true);
    expect(i18n.t('routes.signIn')).not.toBe(i18n.getFixedT('en')('routes.signIn'));
    // The areas' files and the shell texts are merged into the language's one bundle.
    expect(i18n.getResource('fr', 'translation', 'marketplace.search.results')).toBeTruthy();
    expect(i18n.t(outboxTitleKey)).toBe("Boîte d'envoi des e-mails");
    await i18n.changeLanguage('en');
  });
});
