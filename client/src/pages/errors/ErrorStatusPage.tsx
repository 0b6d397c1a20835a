import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/routes.ts';

/** The 500, coming-soon and maintenance pages of /error-pages/. */
export default function ErrorStatusPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const kind = titleKey === 'routes.error500' ? 'error500' : titleKey === 'routes.maintenance' ? 'maintenance' : 'comingSoon';
  const icon = { error500: 'pi-server', maintenance: 'pi-cog', comingSoon: 'pi-clock' }[kind];
  return (
    <section className="page page-error">
      <i className={`pi ${icon} page-error-icon`} aria-hidden="true" />
      <h1>{t(titleKey)}</h1>
      <p>{t(`errorPages.${kind}`)}</p>
    </section>
  );
}
