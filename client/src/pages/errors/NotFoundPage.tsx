import { useTranslation } from 'react-i18next';
import { ErrorFrame } from './ErrorFrame.tsx';

/** /error-pages/error-404, where unknown paths and routes the user may not open lead. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <ErrorFrame
      mark="404"
      icon="pi-map"
      title={t('notFound.title')}
      message={t('notFound.message')}
      hint={t('errorsPage.notFoundHint')}
      actions={
        <button
          type="button"
          className="p-button p-component p-button-outlined"
          onClick={() => window.history.back()}
        >
          <i
            className="pi pi-arrow-left p-button-icon p-button-icon-left flip-rtl"
            aria-hidden="true"
          />
          <span className="p-button-label">{t('common.back')}</span>
        </button>
      }
    />
  );
}
