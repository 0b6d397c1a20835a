import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { homePathOf } from '../../app/guards.ts';
import { paths } from '../../app/paths.ts';
import { authUserAtom } from '../../state/session.ts';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const user = useAtomValue(authUserAtom);
  return (
    <section className="page page-error">
      <p className="page-error-code" aria-hidden="true">404</p>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.message')}</p>
      <Link href={user ? homePathOf(user) : paths.landing} className="p-button p-component">
        <i className="pi pi-home p-button-icon p-button-icon-left" aria-hidden="true" />
        <span className="p-button-label">{t('notFound.home')}</span>
      </Link>
    </section>
  );
}
