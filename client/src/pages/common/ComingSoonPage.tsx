import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { homePathOf } from '../../app/homePath.ts';
import { paths } from '../../app/paths.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { authUserAtom } from '../../state/session.ts';

/** A route whose screen comes with a later release: its title and a clear "coming soon" state. */
export default function ComingSoonPage({ titleKey, params }: PageProps) {
  const { t } = useTranslation();
  const user = useAtomValue(authUserAtom);
  return (
    <section className="page">
      <header className="page-header">
        <h1>{t(titleKey, { id: params.id ?? '' })}</h1>
      </header>
      <div className="card coming-soon">
        <span className="coming-soon-icon" aria-hidden="true">
          <i className="pi pi-wrench" />
        </span>
        <h2>{t('comingSoon.title')}</h2>
        <p>{t('comingSoon.message')}</p>
        <Link
          href={user ? homePathOf(user) : paths.landing}
          className="p-button p-component p-button-outlined"
        >
          <i className="pi pi-home p-button-icon p-button-icon-left" aria-hidden="true" />
          <span className="p-button-label">{t('comingSoon.back')}</span>
        </Link>
      </div>
    </section>
  );
}
