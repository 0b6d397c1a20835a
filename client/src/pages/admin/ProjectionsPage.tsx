import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import { ProgressBar } from 'primereact/progressbar';
import { Skeleton } from 'primereact/skeleton';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { useMessageText } from '../../components/messages.ts';
import { notify } from '../../state/common.ts';
import { ParkedEvents } from './ParkedEvents.tsx';
import {
  POLL_MS,
  positionText,
  readModelsApi,
  usePolling,
  type ReadModel,
} from './projections.api.ts';
import { ReactorsTable } from './ReactorsTable.tsx';
import { ReadModelStatusChip } from './StatusChip.tsx';
import '../../shared/styles/users.css';
import './projections.css';

export { POLL_MS } from './projections.api.ts';

/**
 * The Superadmin's read models: where each stands in the event log, how far behind it is, the events
 * it set aside (with Retry), and a rebuild beside the live tables, its progress shown while it runs.
 */
export default function ProjectionsPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const [models, setModels] = useState<ReadModel[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<Record<string, boolean>>({});
  const [confirming, setConfirming] = useState<string | null>(null);

  const load = useCallback(async (signal?: AbortSignal) => {
    try {
      const list = await readModelsApi.list(signal);
      setModels(Array.isArray(list) ? list : []);
      setError(null);
    } catch (failure) {
      if (signal?.aborted) return;
      setError(messageOf(failure));
      setModels((current) => current ?? []);
    }
  }, []);
  usePolling(load, POLL_MS);

  const toggle = (name: string) =>
    setExpanded(({ [name]: open, ...rest }) => (open ? rest : { ...rest, [name]: true }));

  const rebuild = async (name: string) => {
    try {
      await readModelsApi.rebuild(name);
      notify('success', t('readModels.rebuildStarted', { name }));
      void load();
    } catch (failure) {
      notify('error', messageOf(failure));
    }
  };

  const nameCell = (model: ReadModel) => (
    <div className="cell-stack">
      <strong dir="ltr">{model.projection}</strong>
      <small>{t('readModels.version', { version: model.version })}</small>
    </div>
  );

  const positionCell = (model: ReadModel) => {
    if (model.status !== 'rebuilding' || !model.rebuild)
      return <span className="tabular">{positionText(model.position)}</span>;
    const percent = Math.max(0, Math.min(100, Math.round(model.rebuild.progress * 100)));
    return (
      <div className="rebuild-progress">
        <span className="tabular">{positionText(model.position)}</span>
        <ProgressBar
          value={percent}
          aria-label={t('readModels.rebuildProgress', { name: model.projection })}
          displayValueTemplate={(value) => `${value} %`}
        />
        <small className="muted tabular">
          {t('readModels.rebuildPosition', { position: positionText(model.rebuild.position) })}
        </small>
      </div>
    );
  };

  const parkedCell = (model: ReadModel) => {
    if (model.parked === 0) return <span className="tabular muted">0</span>;
    const open = Boolean(expanded[model.projection]);
    return (
      <Button
        type="button"
        text
        size="small"
        severity="danger"
        className="tabular"
        label={String(model.parked)}
        icon={open ? 'pi pi-chevron-up' : 'pi pi-chevron-down'}
        iconPos="right"
        aria-expanded={open}
        aria-label={t(open ? 'readModels.hideParked' : 'readModels.showParked', {
          name: model.projection,
        })}
        onClick={() => toggle(model.projection)}
      />
    );
  };

  const actionsCell = (model: ReadModel) => (
    <Button
      type="button"
      icon="pi pi-sync"
      label={t('readModels.rebuild')}
      size="small"
      outlined
      aria-label={t('readModels.rebuildLabel', { name: model.projection })}
      disabled={model.status === 'rebuilding'}
      onClick={() => setConfirming(model.projection)}
    />
  );

  return (
    <section className="page read-models-page">
      <header className="page-header">
        <div>
          <h1>{t(titleKey)}</h1>
          <p className="page-subtitle">{t('readModels.subtitle')}</p>
        </div>
        <span className="read-models-live muted">
          <i className="pi pi-circle-fill" aria-hidden="true" /> {t('readModels.live')}
        </span>
      </header>
      {error && <Message severity="error" text={messageText(error)} className="form-message" />}
      {models === null ? (
        <div className="card">
          {[1, 2, 3, 4].map((key) => (
            <Skeleton key={key} height="2.5rem" className="read-models-skeleton" />
          ))}
        </div>
      ) : (
        <div className="card read-models-card">
          <DataTable
            value={models}
            dataKey="projection"
            size="small"
            scrollable
            // A table wider than a phone scrolls sideways: its wrapper takes the focus so the keyboard can too.
            pt={{ wrapper: { tabIndex: 0 } }}
            expandedRows={expanded}
            rowExpansionTemplate={(model: ReadModel) => (
              <ParkedEvents name={model.projection} onChanged={() => void load()} />
            )}
            emptyMessage={<span className="table-empty">{t('readModels.empty')}</span>}
            aria-label={t(titleKey)}
          >
            <Column header={t('readModels.columns.name')} body={nameCell} />
            <Column
              header={t('readModels.columns.status')}
              body={(model: ReadModel) => <ReadModelStatusChip status={model.status} />}
            />
            <Column header={t('readModels.columns.position')} body={positionCell} />
            <Column
              header={t('readModels.columns.lag')}
              body={(model: ReadModel) => (
                <span className="tabular">{model.lag.toLocaleString()}</span>
              )}
            />
            <Column header={t('readModels.columns.parked')} body={parkedCell} />
            <Column header={t('readModels.columns.actions')} body={actionsCell} />
          </DataTable>
        </div>
      )}
      <ReactorsTable />
      <ConfirmDialog
        visible={confirming !== null}
        onHide={() => setConfirming(null)}
        header={t('readModels.confirmHeader')}
        message={confirming ? t('readModels.confirmMessage', { name: confirming }) : ''}
        icon="pi pi-exclamation-triangle"
        acceptLabel={t('readModels.rebuild')}
        rejectLabel={t('readModels.confirmCancel')}
        accept={() => {
          if (confirming) void rebuild(confirming);
        }}
      />
    </section>
  );
}
