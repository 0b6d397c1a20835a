import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import { formatLocal } from '../../shared/format.ts';
import {
  POLL_MS,
  positionText,
  readModelsApi,
  usePolling,
  type ReactorLag,
} from './projections.api.ts';
import { ReadModelStatusChip } from './StatusChip.tsx';

/**
 * The reactors on the event log (lane alerts, the pickup truck check, the webhooks), in the read models' table
 * style: where each stands, how many events it is behind, when its checkpoint last moved.
 */
export function ReactorsTable() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const [reactors, setReactors] = useState<ReactorLag[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  usePolling(
    useCallback(async (signal: AbortSignal) => {
      try {
        const list = await readModelsApi.reactors(signal);
        setReactors(Array.isArray(list) ? list : []);
        setError(null);
      } catch (failure) {
        if (!signal.aborted) setError(messageOf(failure));
      }
    }, []),
    POLL_MS,
  );
  const title = t('readModels.reactors.title');
  const nameCell = (reactor: ReactorLag) => (
    <div className="cell-stack">
      <strong dir="ltr">{reactor.reactor}</strong>
      <small>
        {reactor.updatedAt
          ? t('readModels.reactors.moved', { at: formatLocal(reactor.updatedAt, lng) })
          : t('readModels.reactors.never')}
      </small>
    </div>
  );
  return (
    <section className="reactors" aria-label={title}>
      <h2>{title}</h2>
      <p className="page-subtitle">{t('readModels.reactors.subtitle')}</p>
      {error && <Message severity="error" text={error} className="form-message" />}
      <div className="card read-models-card">
        <DataTable
          value={reactors ?? []}
          dataKey="reactor"
          size="small"
          scrollable
          // A table wider than a phone scrolls sideways: its wrapper takes the focus so the keyboard can too.
          pt={{ wrapper: { tabIndex: 0 } }}
          loading={reactors === null && !error}
          emptyMessage={<span className="table-empty">{t('readModels.reactors.empty')}</span>}
          aria-label={title}
        >
          <Column header={t('readModels.reactors.name')} body={nameCell} />
          <Column
            header={t('readModels.columns.status')}
            body={(reactor: ReactorLag) => <ReadModelStatusChip status={reactor.status} />}
          />
          <Column
            header={t('readModels.columns.position')}
            body={(reactor: ReactorLag) => (
              <span className="tabular">{positionText(reactor.position)}</span>
            )}
          />
          <Column
            header={t('readModels.columns.lag')}
            body={(reactor: ReactorLag) => (
              <span className="tabular">{reactor.lag.toLocaleString()}</span>
            )}
          />
        </DataTable>
      </div>
    </section>
  );
}
