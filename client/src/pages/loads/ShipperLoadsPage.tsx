import { Badge } from 'primereact/badge';
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { TableAction } from '../../../../domain/catalog.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { GenericTable } from '../../components/table/GenericTable.tsx';
import type { RowAction, TableColumn, TableHandle } from '../../components/table/tableTypes.ts';
import { TrustBadge } from '../../components/TrustBadge.tsx';
import { StatusChip } from '../../components/StatusChip.tsx';
import { StatusChangeDialog } from '../../shared/tours/StatusChangeDialog.tsx';
import { statusSteps } from '../../shared/tours/tourSteps.ts';
import { formatLocal, useFormats } from '../../shared/format.ts';
import { useMessageText } from '../../components/messages.ts';
import type { ShipperLoadRow } from '../../shared/loads/loads.api.ts';
import { useOnReconnect, useRealtime } from '../../realtime/useRealtime.ts';
import { CancelLoadDialog, ExtendExpirationDialog } from './ShipperLoadDialogs.tsx';
import { shipperLinks, withTourStatus } from './shipperLoadRows.ts';
import { BookNowBadge } from '../../shared/loads/BookNow.tsx';
import '../../shared/styles/marketplace.css';

/** Opened by the 'view' row action only: its code loads then. */
const LoadViewDialog = lazy(() =>
  import('./LoadViewDialog.tsx').then((module) => ({ default: module.LoadViewDialog })),
);

/**
 * The shipper's loads (`/loads/shipper`): shipment status chips, offers with a badge for the new
 * ones (live on `proposal:new`), and the row actions the server allows for each row.
 */
export default function ShipperLoadsPage({ titleKey }: PageProps) {
  const { t, i18n } = useTranslation();
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
      body: (row) => (
        <>
          <StatusChip name={row.statusName} />
          {row.audience?.opensAt && (
            <small className="muted preferred-only">
              {t('carrierLists.until', { time: formatLocal(row.audience.opensAt, i18n.language) })}
            </small>
          )}
        </>
      ),
    },
    {
      field: 'trust',
      header: t('trust.column'),
      body: (row) => (row.trust ? <TrustBadge trust={row.trust} /> : null),
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
      body: (row) => (
        <span className="place-cell">
          <span>{format.price(row.price ?? row.bestPrice)}</span>
          {row.price == null && <BookNowBadge load={row} />}
        </span>
      ),
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
