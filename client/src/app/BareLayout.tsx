import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { LanguageSwitcher } from '../components/LanguageSwitcher.tsx';
import { authUserAtom } from '../state/session.ts';
import { settingsAtom } from '../state/settings.ts';
import { AppFooter } from './AppFooter.tsx';
import { CustomizerButton } from './CustomizerButton.tsx';
import { homePathOf } from './guards.ts';
import { paths } from './paths.ts';

/** Visitors, and every /chat and /track page, get this bare layout: a slim bar, the page, the footer. */
export function BareLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useAtomValue(authUserAtom);
  const { footer } = useAtomValue(settingsAtom);
  return (
    <div className="bare-layout">
      <a href="#main" className="skip-link">
        {t('app.skipToContent')}
      </a>
      <header className="bare-topbar">
        <Link
          href={user ? homePathOf(user) : paths.landing}
          className="app-brand"
          aria-label={t('app.name')}
        >
          <span className="app-brand-mark" aria-hidden="true">
            <i className="pi pi-truck" />
          </span>
          <span>{t('app.name')}</span>
        </Link>
        <div className="topbar-actions">
          {user && (
            <Link href={homePathOf(user)} className="p-button p-button-text p-button-sm bare-back">
              <i
                className="pi pi-arrow-left p-button-icon p-button-icon-left flip-rtl"
                aria-hidden="true"
              />
              <span className="p-button-label">{t('common.back')}</span>
            </Link>
          )}
          <LanguageSwitcher />
          <CustomizerButton />
        </div>
      </header>
      <main id="main" className="bare-content" tabIndex={-1}>
        {children}
      </main>
      {footer && <AppFooter />}
    </div>
  );
}
