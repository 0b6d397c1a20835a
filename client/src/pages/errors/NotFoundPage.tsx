import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { paths } from '../../app/paths.ts';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="page page-error">
      <i className="pi pi-map page-error-icon" aria-hidden="true" />
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.message')}</p>
      <Link href={paths.home}>{t('notFound.home')}</Link>
    </section>
  );
}
