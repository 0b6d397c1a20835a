import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/pageProps.ts';
import { ErrorFrame } from './ErrorFrame.tsx';

/** The 500, coming-soon and maintenance pages of /error-pages/. */
export default function ErrorStatusPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const kind =
    titleKey === 'routes.error500'
      ? 'error500'
      : titleKey === 'routes.maintenance'
        ? 'maintenance'
        : 'comingSoon';
  const look = {
    error500: { mark: '500', icon: 'pi-server' },
    maintenance: { mark: undefined, icon: 'pi-wrench' },
    comingSoon: { mark: undefined, icon: 'pi-clock' },
  }[kind];
  return (
    <ErrorFrame
      mark={look.mark}
      icon={look.icon}
      title={t(titleKey)}
      message={t(`errorPages.${kind}`)}
      hint={t(`errorsPage.${kind}Hint`)}
      actions={
        kind === 'comingSoon' ? undefined : (
          <button
            type="button"
            className="p-button p-component p-button-outlined"
            onClick={() => window.location.reload()}
          >
            <i className="pi pi-refresh p-button-icon p-button-icon-left" aria-hidden="true" />
            <span className="p-button-label">{t('common.retry')}</span>
          </button>
        )
      }
    />
  );
}
