import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { paths } from './paths.ts';
import { StatusFooter } from './StatusFooter.tsx';

/** The footer: copyright, legal links and the event store's health. */
export function AppFooter() {
  const { t } = useTranslation();
  return (
    <footer className="app-footer">
      <span>{t('footer.copyright', { year: new Date().getFullYear() })}</span>
      <nav className="footer-links" aria-label={t('footer.legal')}>
        <Link href={paths.terms}>{t('routes.terms')}</Link>
        <Link href={paths.privacy}>{t('routes.privacy')}</Link>
      </nav>
      <StatusFooter />
    </footer>
  );
}
