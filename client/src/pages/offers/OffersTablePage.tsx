import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { GenericStatus, genericStatuses, TableAction } from '../../../../domain/catalog.ts';
import { carrierOfferActions } from '../../../../domain/loads/loadRows.ts';
import { messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { GenericTable } from '../../components/table/GenericTable.tsx';
import type { RowAction, TableColumn, TableHandle } from '../../components/table/tableTypes.ts';
import { notify } from '../../state/common.ts';
import { useFormats } from '../../shared/format.ts';
import { OfferTermsCell } from '../../shared/terms/OfferTermsCell.tsx';
import { termsOf } from '../../shared/terms/terms.ts';
import { useOnReconnect, useRealtime } from '../../realtime/useRealtime.ts';
import { offersApi, OfferStatus, type OfferRow } from './offers.api.ts';
import '../../shared/styles/marketplace.css';

const statusOptions = [
  OfferStatus.SubmittedProposal,
  OfferStatus.PendingAcceptance,
  OfferStatus.Accepted,
  OfferStatus.Confirmed,
  OfferStatus.Declined,
  OfferStatus.Canceled,
];

/**
 * The offer's row after `proposal:updated`. A carrier's actions follow from the status and whether
 * the load is still open; a declined offer is taken as one whose load went to another carrier.
 */
export function withUpdate(
  row: OfferRow,
  update: { status: number; price: number; counterPrice: number | null },
  allOffers: boolean,
): OfferRow {
  const loadOpen =
    row.load?.status === GenericStatus.Created &&
    (!row.load.expiration || Date.parse(row.load.expiration) > Date.now()) &&
    update.status !== GenericStatus.Declined;
  return {
    ...row,
    status: update.status,
    statusName:
      genericStatuses.find((entry) => entry.id === update.status)?.name ?? String(update.status),
    price: update.price,
    counterPrice: update.counterPrice,
    actions: allOffers ? row.actions : carrierOfferActions(update.status, loadOpen),
  };
}

/** A carrier's own offers (`/offers/carrier`) or every offer (`/offers`, Superadmin). */
function OffersTable({
  titleKey,
  url,
  showCarrier,
}: PageProps & { url: string; showCarrier: boolean }) {
  const { t } = useTranslation();
  const format = useFormats();
  const [, navigate] = useLocation();
  const [refreshKey, setRefreshKey] = useState(0);
  const table = useRef<TableHandle<OfferRow> | null>(null);
  const refresh = () => setRefreshKey((key) => key + 1);
  // A changed offer is changed in its row; an offer the table does not show, and a reconnection, read it again.
  useRealtime(['proposal:updated'], (_, update) => {
    if (!table.current?.rows()?.some((row) => row.id === update.proposalId)) return refresh();
    table.current.update((answer) => ({
      ...answer,
      data: answer.data.map((row) =>
        row.id === update.proposalId ? withUpdate(row, update, showCarrier) : row,
      ),
    }));
  });
  useRealtime(['proposal:new'], refresh);
  useOnReconnect(refresh);

  const withdraw = async (row: OfferRow) => {
    try {
      await offersApi.change(row.id, OfferStatus.Canceled);
      notify('success', t('marketplace.offer.withdrawn'));
      setRefreshKey((key) => key + 1);
    } catch (error) {
      notify('error', messageOf(error));
    }
  };

  const columns: TableColumn<OfferRow>[] = [
    {
      field: 'guid',
      header: t('marketplace.columns.reference'),
      sortable: true,
      body: (row) => <strong className="tabular">{row.loadGuid}</strong>,
    },
    {
      field: 'status',
      header: t('marketplace.columns.status'),
      body: (row) => <StatusChip name={row.statusName} />,
    },
    ...(showCarrier
      ? [
          {
            field: 'carrier',
            header: t('marketplace.columns.carrier'),
            body: (row: OfferRow) => row.carrier.name,
          },
        ]
      : []),
    {
      field: 'route',
      header: t('marketplace.columns.route'),
      body: (row) =>
        row.load ? (
          <span className="place-cell">
            <span>
              {format.place(row.load.pickup)} → {format.place(row.load.dropoff)}
            </span>
            <small className="muted tabular">
              {format.time(row.load.pickup.time, row.load.pickup.timezone)}
            </small>
          </span>
        ) : (
          '—'
        ),
    },
    {
      field: 'price',
      header: t('marketplace.columns.price'),
      sortable: true,
      numeric: true,
      body: (row) => (
        <span className="price-cell">
          <strong>{format.price(row.price)}</strong>
          {row.counterPrice !== null && row.status === OfferStatus.PendingAcceptance && (
            <small className="counter-note">
              {t('marketplace.offers.counterShort', { price: format.price(row.counterPrice) })}
            </small>
          )}
        </span>
      ),
    },
    {
      field: 'terms',
      header: t('accessorials.terms.title'),
      body: (row) => (
        <OfferTermsCell
          offer={row}
          {...(row.load ? { loadTerms: termsOf(row.load) } : {})}
          countered={row.status === OfferStatus.PendingAcceptance}
        />
      ),
    },
    {
      field: 'eldTruckName',
      header: t('marketplace.offer.truck'),
      body: (row) => row.eldTruckName ?? '—',
    },
    {
      field: 'submittedAt',
      header: t('marketplace.columns.submitted'),
      sortable: true,
      numeric: true,
      body: (row) => format.time(row.submittedAt),
    },
  ];
  const openOffer = (row: OfferRow) => navigate(`/offer/load?id=${row.loadId}`);
  const actions: RowAction<OfferRow>[] = [
    {
      id: TableAction.View,
      icon: 'pi pi-eye',
      label: t('marketplace.actions.view'),
      onClick: openOffer,
    },
    {
      id: TableAction.MakeOffer,
      icon: 'pi pi-dollar',
      label: t('marketplace.actions.revise'),
      onClick: openOffer,
    },
    {
      id: TableAction.UploadContract,
      icon: 'pi pi-file-edit',
      label: t('marketplace.actions.contract'),
      severity: 'success',
      onClick: openOffer,
    },
    {
      id: TableAction.Withdraw,
      icon: 'pi pi-undo',
      label: t('marketplace.actions.withdraw'),
      severity: 'danger',
      onClick: withdraw,
    },
  ];
  return (
    <section className="page offers-page">
      <header className="page-header">
        <h1>{t(titleKey, { id: '' })}</h1>
      </header>
      <GenericTable<OfferRow>
        title={t('marketplace.offers.listTitle')}
        url={url}
        columns={columns}
        actions={actions}
        onRowClick={openOffer}
        refreshKey={refreshKey}
        handle={table}
        filters={[
          {
            name: 'status',
            label: t('marketplace.columns.status'),
            allLabel: t('marketplace.offers.allStatuses'),
            options: statusOptions.map((id) => ({
              value: id,
              label: t(`marketplace.proposalStatuses.${id}` as never) as string,
            })),
          },
        ]}
        empty={
          <div className="empty-state">
            <i className="pi pi-tags" aria-hidden="true" />
            <p>{t('marketplace.offers.emptyList')}</p>
          </div>
        }
      />
    </section>
  );
}

export function CarrierOffersPage(props: PageProps) {
  return <OffersTable {...props} url="/proposals/carrier" showCarrier={false} />;
}

export function AllOffersPage(props: PageProps) {
  return <OffersTable {...props} url="/proposals" showCarrier />;
}

export default CarrierOffersPage;
