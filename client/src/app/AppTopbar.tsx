import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { LanguageSwitcher } from '../components/LanguageSwitcher.tsx';
import { paths } from './paths.ts';

export function AppTopbar() {
  const { t } = useTranslation();
  return (
    <header className="app-topbar">
      <Link href={paths.home} className="app-brand">
        <i className="pi pi-truck" aria-hidden="true" />
        <span>{t('app.name')}</span>
      </Link>
      <LanguageSwitcher />
    </header>
  );
}
