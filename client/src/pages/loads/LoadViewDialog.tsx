import { Dialog } from 'primereact/dialog';
import { Skeleton } from 'primereact/skeleton';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadsApi, type LoadDetail } from '../../shared/loads/loads.api.ts';
import { LoadSummary } from '../../shared/loads/LoadSummary.tsx';

/** A load's details in a dialog (the "view" row action). */
export function LoadViewDialog({ loadId, onHide }: { loadId: string; onHide: () => void }) {
  const { t } = useTranslation();
  const [load, setLoad] = useState<LoadDetail | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    loadsApi
      .get(loadId)
      .then(setLoad)
      .catch(() => setFailed(true));
  }, [loadId]);
  return (
    <Dialog
      header={load ? load.guid : t('marketplace.actions.view')}
      visible
      onHide={onHide}
      style={{ width: 'min(64rem, 96vw)' }}
      dismissableMask
    >
      {failed ? (
        <p className="p-error">{t('messages.somethingWentWrong')}</p>
      ) : load ? (
        <LoadSummary load={load} />
      ) : (
        <div role="status" aria-label={t('common.loading')}>
          <Skeleton height="1.5rem" className="mb-2" />
          <Skeleton height="10rem" />
        </div>
      )}
    </Dialog>
  );
}
