import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { paths } from '../../app/paths.ts';
import { sessionAtom } from '../../state/session.ts';

export function HomePage() {
  const { t } = useTranslation();
  const session = useAtomValue(sessionAtom);
  return (
    <section className="page page-home">
      <h1>{t('app.name')}</h1>
      <p className="lead">{t('home.tagline')}</p>
      {session ? (
        <p>{t('home.signedIn')}</p>
      ) : (
        <Link href={paths.signIn} className="p-button p-component">
          <i className="pi pi-sign-in p-button-icon p-button-icon-left" aria-hidden="true" />
          <span className="p-button-label">{t('home.signIn')}</span>
        </Link>
      )}
    </section>
  );
}
