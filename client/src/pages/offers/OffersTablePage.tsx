import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { TableAction } from '../../../../domain/catalog.ts';
import { messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/routes.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { GenericTable, type RowAction, type TableColumn } from '../../components/table/GenericTable.tsx';
import { notify } from '../../state/common.ts';
import { useFormats } from '../loads/format.ts';
import { useRealtime } from '../loads/realtime.ts';
import { offersApi, ProposalStatus, type ProposalRow } from './offers.api.ts';
import '../loads/marketplace.css';

const statusOptions = [ProposalStatus.SubmittedProposal, ProposalStatus.PendingAcceptance, ProposalStatus.Accepted, ProposalStatus.Confirmed, ProposalStatus.Declined, ProposalStatus.Canceled];

/** A carrier's own offers (`/offers/carrier`) or every offer (`/offers`, Superadmin). */
function OffersTable({ titleKey, url, showCarrier }: PageProps & { url: string; showCarrier: boolean }) {
  const { t } = useTranslation();
  const format = useFormats();
  const [, navigate] = useLocation();
  const [refreshKey, setRefreshKey] = useState(0);
  useRealtime(['proposal:updated', 'proposal:new'], () => setRefreshKey((key) => key + 1));

  const withdraw = async (row: ProposalRow) => {
    try {
      await offersApi.change(row.id, ProposalStatus.Canceled);
      notify('success', t('marketplace.offer.withdrawn'));
      setRefreshKey((key) => key + 1);
    } catch (error) {
      notify('error', messageOf(error));
    }
  };

  const columns: TableColumn<ProposalRow>[] = [
    { field: 'guid', header: t('marketplace.columns.reference'), sortable: true, body: (row) => <strong className="tabular">{row.loadGuid}</strong> },
    { field: 'status', header: t('marketplace.columns.status'), body: (row) => <StatusChip name={row.statusName} /> },
    ...(showCarrier ? [{ field: 'carrier', header: t('marketplace.columns.carrier'), body: (row: ProposalRow) => row.carrier.name }] : []),
    { field: 'route', header: t('marketplace.columns.route'), body: (row) => (row.load ? (
      <span className="place-cell">
        <span>{format.place(row.load.pickup)} → {format.place(row.load.dropoff)}</span>
        <small className="muted tabular">{format.time(row.load.pickup.time, row.load.pickup.timezone)}</small>
      </span>
    ) : '—') },
    { field: 'price', header: t('marketplace.columns.price'), sortable: true, numeric: true, body: (row) => (
      <span className="price-cell">
        <strong>{format.price(row.price)}</strong>
        {row.counterPrice !== null && row.status === ProposalStatus.PendingAcceptance && <small className="counter-note">{t('marketplace.offers.counterShort', { price: format.price(row.counterPrice) })}</small>}
      </span>
    ) },
    { field: 'eldTruckName', header: t('marketplace.offer.truck'), body: (row) => row.eldTruckName ?? '—' },
    { field: 'submittedAt', header: t('marketplace.columns.submitted'), sortable: true, numeric: true, body: (row) => format.time(row.submittedAt) },
  ];
  const openOffer = (row: ProposalRow) => navigate(`/offer/load?id=${row.loadId}`);
  const actions: RowAction<ProposalRow>[] = [
    { id: TableAction.View, icon: 'pi pi-eye', label: t('marketplace.actions.view'), onClick: openOffer },
    { id: TableAction.MakeOffer, icon: 'pi pi-dollar', label: t('marketplace.actions.revise'), onClick: openOffer },
    { id: TableAction.UploadContract, icon: 'pi pi-file-edit', label: t('marketplace.actions.contract'), severity: 'success', onClick: openOffer },
    { id: TableAction.Withdraw, icon: 'pi pi-undo', label: t('marketplace.actions.withdraw'), severity: 'danger', onClick: withdraw },
  ];
  return (
    <section className="page offers-page">
      <header className="page-header"><h1>{t(titleKey, { id: '' })}</h1></header>
      <GenericTable<ProposalRow>
        title={t('marketplace.offers.listTitle')}
        url={url}
        columns={columns}
        actions={actions}
        onRowClick={openOffer}
        refreshKey={refreshKey}
        filters={[{ name: 'status', label: t('marketplace.columns.status'), allLabel: t('marketplace.offers.allStatuses'), options: statusOptions.map((id) => ({ value: id, label: t(`marketplace.proposalStatuses.${id}` as never) as string })) }]}
        empty={<div className="empty-state"><i className="pi pi-tags" aria-hidden="true" /><p>{t('marketplace.offers.emptyList')}</p></div>}
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
