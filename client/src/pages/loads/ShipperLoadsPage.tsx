import { Badge } from 'primereact/badge';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputTextarea } from 'primereact/inputtextarea';
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { GenericStatus, TableAction, TourStatus } from '../../../../domain/catalog.ts';
import { shipmentStatusOf, shipperLoadActions } from '../../../../domain/loads/loadRows.ts';
import { CANCEL_MESSAGE_REQUIRED_MESSAGE } from '../../../../domain/schemas/load.schema.ts';
import { messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import {
  GenericTable,
  type RowAction,
  type TableColumn,
  type TableHandle,
} from '../../components/table/GenericTable.tsx';
import { StatusChip } from '../../components/StatusChip.tsx';
import { notify } from '../../state/common.ts';
import { StatusChangeDialog } from '../../shared/tours/StatusChangeDialog.tsx';
import { statusSteps } from '../../shared/tours/tourSteps.ts';
import { DateTimeField } from './DateTimeField.tsx';
import { useFormats } from '../../shared/format.ts';
import { pastDateMessage } from './loadForm.model.ts';
import { useMessageText } from '../../components/messages.ts';
import { loadsApi, type ShipperLoadRow } from '../../shared/loads/loads.api.ts';
import { useOnReconnect, useRealtime } from '../../realtime/useRealtime.ts';
import { wallTime } from './wallTime.ts';
import '../../shared/styles/marketplace.css';

/** Opened by the 'view' row action only: its code loads then. */
const LoadViewDialog = lazy(() =>
  import('./LoadViewDialog.tsx').then((module) => ({ default: module.LoadViewDialog })),
);

/** Where each row action leads (the tracking, chat, rating and history screens belong to other areas). */
export const shipperLinks = {
  edit: (row: { id: string }) => `/loads/edit/${row.id}`,
  offers: (row: { id: string }) => `/offers/shipper/load?id=${row.id}`,
  track: (row: { tourId: string | null }) => `/track/tour?id=${row.tourId ?? ''}`,
  chat: (row: { tourId: string | null }) => `/chat/tour?id=${row.tourId ?? ''}`,
  rate: (row: { tourId: string | null }) => `/tours?rate=${row.tourId ?? ''}`,
  history: (row: { id: string }) => `/loads/history/${row.id}`,
};

/** The load's row once its tour has `status` (nobody has rated a tour before it is delivered). */
export function withTourStatus(
  row: ShipperLoadRow,
  status: number,
  tourId: string,
): ShipperLoadRow {
  const loadStatus = status === TourStatus.Canceled ? GenericStatus.Canceled : row.loadStatus;
  const facts = {
    loadStatus,
    tourStatus: status,
    openProposals: row.openProposals,
    proposalsCount: row.proposals,
    shipperRated: false,
    carrierRated: false,
  };
  const shipment = shipmentStatusOf(facts);
  return {
    ...row,
    loadStatus,
    tourId,
    status: shipment.id,
    statusKey: shipment.key,
    statusName: shipment.name,
    actions: shipperLoadActions(facts),
  } as ShipperLoadRow;
}

/**
 * The shipper's loads (`/loads/shipper`): shipment status chips, offers with a badge for the new
 * ones (live on `proposal:new`), and the row actions the server allows for each row.
 */
export default function ShipperLoadsPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const format = useFormats();
  const messageText = useMessageText();
  const [, navigate] = useLocation();
  const [refreshKey, setRefreshKey] = useState(0);
  const [viewing, setViewing] = useState<ShipperLoadRow | null>(null);
  const [canceling, setCanceling] = useState<ShipperLoadRow | null>(null);
  const [extending, setExtending] = useState<ShipperLoadRow | null>(null);
  const [confirming, setConfirming] = useState<ShipperLoadRow | null>(null);

  const table = useRef<TableHandle<ShipperLoadRow> | null>(null);
  const refresh = () => setRefreshKey((key) => key + 1);
  // A new or changed offer changes counts, badges and the best price the server works out: the
  // table reads the server again; so does a reconnection.
  useRealtime(['proposal:new', 'proposal:updated'], refresh);
  useOnReconnect(refresh);
  // A tour moving on changes its load's row in place.
  useRealtime(['tour:status'], (_, { loadId, status, tourId }) => {
    if (!table.current?.rows()?.some((row) => row.id === loadId)) return refresh();
    table.current.update((answer) => ({
      ...answer,
      data: answer.data.map((row) =>
        row.id === loadId ? withTourStatus(row, status, tourId) : row,
      ),
    }));
  });

  const columns: TableColumn<ShipperLoadRow>[] = [
    {
      field: 'guid',
      header: t('marketplace.columns.reference'),
      sortable: true,
      body: (row) => (
        <span className="load-ref">
          <strong className="tabular">{row.guid}</strong>
          <small className="muted">{row.refNumber}</small>
        </span>
      ),
    },
    {
      field: 'status',
      header: t('marketplace.columns.status'),
      body: (row) => <StatusChip name={row.statusName} />,
    },
    {
      field: 'pickupTime',
      header: t('marketplace.columns.pickup'),
      sortable: true,
      body: (row) => (
        <PlaceCell place={row.pickup} time={format.time(row.pickupTime, row.pickup.timezone)} />
      ),
    },
    {
      field: 'dropoffTime',
      header: t('marketplace.columns.dropoff'),
      sortable: true,
      body: (row) => (
        <PlaceCell place={row.dropoff} time={format.time(row.dropoffTime, row.dropoff.timezone)} />
      ),
    },
    {
      field: 'equipment',
      header: t('marketplace.columns.equipment'),
      body: (row) => <span className="equipment-cell">{row.equipmentNames.join(', ')}</span>,
    },
    {
      field: 'weight',
      header: t('marketplace.columns.weight'),
      sortable: true,
      numeric: true,
      body: (row) => format.weight(row.weight),
    },
    {
      field: 'proposals',
      header: t('marketplace.columns.offers'),
      sortable: true,
      numeric: true,
      body: (row) => (
        <span className="offers-cell">
          <span>{row.proposals}</span>
          {row.newProposals > 0 && (
            <Badge
              value={t('marketplace.loads.newCount', { count: row.newProposals })}
              severity="warning"
              className="new-offers-badge"
            />
          )}
        </span>
      ),
    },
    {
      field: 'bestPrice',
      header: t('marketplace.columns.bestPrice'),
      numeric: true,
      body: (row) => format.price(row.price ?? row.bestPrice),
    },
    {
      field: 'expiration',
      header: t('marketplace.columns.expiration'),
      sortable: true,
      numeric: true,
      body: (row) => format.time(row.expiration, row.expirationTimezone),
    },
  ];

  const actions: RowAction<ShipperLoadRow>[] = [
    {
      id: TableAction.View,
      icon: 'pi pi-eye',
      label: t('marketplace.actions.view'),
      onClick: setViewing,
    },
    {
      id: TableAction.Edit,
      icon: 'pi pi-pencil',
      label: t('marketplace.actions.edit'),
      onClick: (row) => navigate(shipperLinks.edit(row)),
    },
    {
      id: TableAction.Offers,
      icon: 'pi pi-tags',
      label: t('marketplace.actions.offers'),
      onClick: (row) => navigate(shipperLinks.offers(row)),
    },
    {
      id: TableAction.ExtendExpiration,
      icon: 'pi pi-clock',
      label: t('marketplace.actions.extend'),
      onClick: setExtending,
    },
    {
      id: TableAction.Track,
      icon: 'pi pi-map',
      label: t('marketplace.actions.track'),
      onClick: (row) => navigate(shipperLinks.track(row)),
    },
    {
      id: TableAction.Chat,
      icon: 'pi pi-comments',
      label: t('marketplace.actions.chat'),
      onClick: (row) => navigate(shipperLinks.chat(row)),
    },
    {
      id: TableAction.ConfirmDelivery,
      icon: 'pi pi-check-circle',
      label: t('tours.steps.confirmDelivery.short'),
      severity: 'success',
      onClick: setConfirming,
    },
    {
      id: TableAction.Rate,
      icon: 'pi pi-star',
      label: t('marketplace.actions.rate'),
      onClick: (row) => navigate(shipperLinks.rate(row)),
    },
    {
      id: TableAction.History,
      icon: 'pi pi-history',
      label: t('marketplace.actions.history'),
      onClick: (row) => navigate(shipperLinks.history(row)),
    },
    {
      id: TableAction.Cancel,
      icon: 'pi pi-times-circle',
      label: t('marketplace.actions.cancel'),
      severity: 'danger',
      onClick: setCanceling,
    },
  ];

  return (
    <section className="page shipper-loads-page">
      <header className="page-header">
        <h1>{t(titleKey, { id: '' })}</h1>
        <div className="page-actions">
          <Link href="/loads/upload" className="p-button p-component p-button-outlined">
            <i className="pi pi-upload p-button-icon p-button-icon-left" aria-hidden="true" />
            <span className="p-button-label">{t('marketplace.form.batchUpload')}</span>
          </Link>
          <Link href="/load" className="p-button p-component">
            <i className="pi pi-plus p-button-icon p-button-icon-left" aria-hidden="true" />
            <span className="p-button-label">{t('marketplace.loads.post')}</span>
          </Link>
        </div>
      </header>
      <GenericTable<ShipperLoadRow>
        title={t('marketplace.loads.tableTitle')}
        url="/loads/shipper"
        columns={columns}
        actions={actions}
        onRowClick={setViewing}
        refreshKey={refreshKey}
        handle={table}
        empty={
          <div className="empty-state">
            <i className="pi pi-box" aria-hidden="true" />
            <p>{t('marketplace.loads.empty')}</p>
            <Link href="/load" className="p-button p-component p-button-sm">
              <span className="p-button-label">{t('marketplace.loads.post')}</span>
            </Link>
          </div>
        }
      />
      {viewing && (
        <Suspense fallback={null}>
          <LoadViewDialog loadId={viewing.id} onHide={() => setViewing(null)} />
        </Suspense>
      )}
      <CancelLoadDialog
        row={canceling}
        onHide={() => setCanceling(null)}
        onDone={() => {
          setCanceling(null);
          setRefreshKey((key) => key + 1);
        }}
        messageText={messageText}
      />
      <ExtendExpirationDialog
        row={extending}
        onHide={() => setExtending(null)}
        onDone={() => {
          setExtending(null);
          setRefreshKey((key) => key + 1);
        }}
        messageText={messageText}
      />
      {confirming?.tourId && (
        // The same confirmation as on /tours: the tour moves to Delivered, and the row with it.
        <StatusChangeDialog
          tourId={confirming.tourId}
          loadGuid={confirming.guid}
          change={{
            kind: 'step',
            step: statusSteps.find((step) => step.key === 'confirmDelivery')!,
          }}
          onClose={() => setConfirming(null)}
          onDone={() => {
            setConfirming(null);
            refresh();
          }}
        />
      )}
    </section>
  );
}

function PlaceCell({ place, time }: { place: ShipperLoadRow['pickup']; time: string }) {
  return (
    <span className="place-cell">
      <span>{[place.city, place.state].filter(Boolean).join(', ') || place.address}</span>
      <small className="muted tabular">{time}</small>
    </span>
  );
}

interface DialogProps {
  row: ShipperLoadRow | null;
  onHide: () => void;
  onDone: () => void;
  messageText: (message: string) => string;
}

/** Cancel a load with a message (PUT loads/{id}/status {status: 7, message}). */
function CancelLoadDialog({ row, onHide, onDone, messageText }: DialogProps) {
  const { t } = useTranslation();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!row) return;
    if (!message.trim()) {
      setError(messageText(CANCEL_MESSAGE_REQUIRED_MESSAGE));
      return;
    }
    setBusy(true);
    try {
      await loadsApi.cancel(row.id, message.trim());
      notify('success', t('marketplace.messages.loadCanceled'));
      setMessage('');
      onDone();
    } catch (failure) {
      notify('error', messageText(messageOf(failure)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      header={row ? t('marketplace.loads.cancelTitle', { guid: row.guid }) : ''}
      visible={row !== null}
      onHide={onHide}
      style={{ width: 'min(32rem, 95vw)' }}
      footer={
        <div className="dialog-actions">
          <Button
            type="button"
            text
            severity="secondary"
            label={t('common.close')}
            onClick={onHide}
          />
          <Button
            type="button"
            severity="danger"
            icon="pi pi-times-circle"
            label={t('marketplace.loads.cancelConfirm')}
            loading={busy}
            onClick={confirm}
          />
        </div>
      }
    >
      <div className="form-field">
        <label htmlFor="cancel-message">{t('marketplace.loads.cancelMessage')} *</label>
        <InputTextarea
          id="cancel-message"
          rows={4}
          value={message}
          onChange={(event) => {
            setMessage(event.target.value);
            setError(null);
          }}
          invalid={Boolean(error)}
        />
        {error && <small className="p-error">{error}</small>}
        <small className="field-hint">{t('marketplace.loads.cancelHint')}</small>
      </div>
    </Dialog>
  );
}

/** Extend the offer expiration (PUT loads {loadId, newExpiration, expirationTimezone}). */
function ExtendExpirationDialog({ row, onHide, onDone, messageText }: DialogProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [zone, setZone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const shownZone = zone || row?.expirationTimezone || '';
  const confirm = async () => {
    if (!row) return;
    const past = pastDateMessage(value, shownZone, new Date().toISOString());
    if (!value || past) {
      setError(messageText(past ?? 'Please enter a valid date and time'));
      return;
    }
    setBusy(true);
    try {
      await loadsApi.extendExpiration(row.id, value, shownZone);
      notify('success', t('marketplace.messages.loadUpdated'));
      setValue('');
      setZone('');
      onDone();
    } catch (failure) {
      setError(messageText(messageOf(failure)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      header={row ? t('marketplace.loads.extendTitle', { guid: row.guid }) : ''}
      visible={row !== null}
      onShow={() => row && setValue(wallTime(row.expiration, row.expirationTimezone))}
      onHide={onHide}
      style={{ width: 'min(34rem, 95vw)' }}
      footer={
        <div className="dialog-actions">
          <Button
            type="button"
            text
            severity="secondary"
            label={t('common.close')}
            onClick={onHide}
          />
          <Button
            type="button"
            icon="pi pi-clock"
            label={t('marketplace.loads.extendConfirm')}
            loading={busy}
            onClick={confirm}
          />
        </div>
      }
    >
      <DateTimeField
        id="new-expiration"
        label={t('marketplace.form.expiration')}
        value={value}
        onChange={(next) => {
          setValue(next);
          const past = pastDateMessage(next, shownZone, new Date().toISOString());
          setError(past ? messageText(past) : null);
        }}
        zone={shownZone}
        onZoneChange={setZone}
        error={error}
      />
    </Dialog>
  );
}
