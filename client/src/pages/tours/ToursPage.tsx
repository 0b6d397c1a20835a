import { useAtomValue } from 'jotai';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { TableAction, tourStatuses } from '../../../../domain/catalog.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { GenericTable } from '../../components/table/GenericTable.tsx';
import type { RowAction, TableHandle } from '../../components/table/tableTypes.ts';
import { authUserAtom } from '../../state/session.ts';
import { AssignDriverDialog } from './AssignDriverDialog.tsx';
import { RatingDialog } from './RatingDialog.tsx';
import { type StatusChange, StatusChangeDialog } from '../../shared/tours/StatusChangeDialog.tsx';
import { TourDetailDialog } from './TourDetailDialog.tsx';
import { useTourColumns } from './tourColumns.tsx';
import { withStatus } from './tourRowStatus.ts';
import type { TourRow } from '../../shared/tours/tours.api.ts';
import { useTourChannel } from '../../shared/tours/tourChannel.ts';
import { sideOf, statusSteps } from '../../shared/tours/tourSteps.ts';
import '../../shared/tours/tours.css';

export { withStatus } from './tourRowStatus.ts';

type Open =
  | { kind: 'detail'; row: TourRow }
  | { kind: 'assign'; row: TourRow }
  | { kind: 'status'; row: TourRow; change: StatusChange }
  | { kind: 'rate'; tourId: string }
  | null;

/** /tours: the caller's tours, live; assign a driver, move the status, read the timeline, rate. */
export default function ToursPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const user = useAtomValue(authUserAtom);
  const side = sideOf(user);
  const [, navigate] = useLocation();
  const search = useSearch();
  const rateFromLink = new URLSearchParams(search).get('rate');
  const [open, setOpen] = useState<Open>(
    rateFromLink ? { kind: 'rate', tourId: rateFromLink } : null,
  );
  const [refreshKey, setRefreshKey] = useState(0);
  const refresh = () => setRefreshKey((key) => key + 1);

  const table = useRef<TableHandle<TourRow> | null>(null);
  // A tour's new status goes into its row in place; a tour that is not in the table yet (just
  // opened), a timeline entry (a driver assigned, a rating) and a reconnection read the table again.
  useTourChannel(null, {
    onChange: ({ tourId, status, kind }) => {
      if (
        kind !== 'status' ||
        status === undefined ||
        !table.current?.rows()?.some((row) => row.id === tourId)
      )
        return refresh();
      table.current.update((answer, query) => {
        const index = answer.data.findIndex((row) => row.id === tourId);
        if (index < 0) return answer;
        const filter = Number(query.filters?.status ?? 0);
        if (filter && filter !== status) {
          const total = Math.max(0, answer.total - 1);
          return { ...answer, data: answer.data.filter((row) => row.id !== tourId), total };
        }
        const data = [...answer.data];
        data[index] = withStatus(data[index], status, side);
        return { ...answer, data };
      });
    },
    onReconnect: refresh,
  });

  const close = () => {
    if (open?.kind === 'rate' && rateFromLink) navigate('/tours', { replace: true });
    setOpen(null);
  };
  const done = () => {
    close();
    refresh();
  };
  const columns = useTourColumns(side, (row, step) =>
    setOpen({ kind: 'status', row, change: { kind: 'step', step } }),
  );

  const actions: RowAction<TourRow>[] = [
    {
      id: TableAction.View,
      icon: 'pi pi-eye',
      label: t('tours.actions.view'),
      onClick: (row) => setOpen({ kind: 'detail', row }),
    },
    {
      id: TableAction.AssignDriver,
      icon: 'pi pi-user-plus',
      label: t('tours.actions.assign'),
      onClick: (row) => setOpen({ kind: 'assign', row }),
    },
    {
      id: TableAction.Track,
      icon: 'pi pi-map',
      label: t('tours.actions.track'),
      onClick: (row) => navigate(`/track/tour/${row.id}`),
    },
    {
      id: TableAction.Chat,
      icon: 'pi pi-comments',
      label: t('tours.actions.chat'),
      onClick: (row) => navigate(`/chat/tour/${row.id}`),
    },
    {
      id: TableAction.ConfirmDelivery,
      icon: 'pi pi-check-circle',
      label: t('tours.steps.confirmDelivery.short'),
      severity: 'success',
      onClick: (row) =>
        setOpen({
          kind: 'status',
          row,
          change: {
            kind: 'step',
            step: statusSteps.find((step) => step.key === 'confirmDelivery')!,
          },
        }),
    },
    {
      id: TableAction.Rate,
      icon: 'pi pi-star',
      label: t('tours.actions.rate'),
      onClick: (row) => setOpen({ kind: 'rate', tourId: row.id }),
    },
    {
      id: TableAction.History,
      icon: 'pi pi-history',
      label: t('tours.actions.history'),
      onClick: (row) => navigate(`/loads/history/${row.loadId}`),
    },
    {
      id: TableAction.Cancel,
      icon: 'pi pi-times',
      label: t('tours.actions.cancel'),
      severity: 'danger',
      onClick: (row) => setOpen({ kind: 'status', row, change: { kind: 'cancel' } }),
    },
  ];

  const statusOptions = tourStatuses
    .filter((status) => status.id !== 11 && status.id !== 1 && status.id !== 6)
    .map((status) => ({
      value: status.id,
      label: t(`status.${status.key}` as 'status.created', { defaultValue: status.name }),
    }));

  return (
    <section className="page page-tours">
      <header className="page-header">
        <h1>{t(titleKey)}</h1>
      </header>
      <GenericTable<TourRow>
        title={t('tours.tableTitle')}
        url="tours"
        columns={columns}
        filters={[
          {
            name: 'status',
            label: t('tours.columns.status'),
            allLabel: t('tours.allStatuses'),
            options: statusOptions,
          },
        ]}
        actions={actions}
        onRowClick={(row) => setOpen({ kind: 'detail', row })}
        empty={
          <span>{side === 'shipper' ? t('tours.empty.shipper') : t('tours.empty.carrier')}</span>
        }
        refreshKey={refreshKey}
        handle={table}
      />
      {open?.kind === 'detail' && <TourDetailDialog tourId={open.row.id} onClose={close} />}
      {open?.kind === 'assign' && (
        <AssignDriverDialog
          tourId={open.row.id}
          loadGuid={open.row.loadGuid}
          currentDriverId={open.row.driver?.id ?? null}
          onClose={close}
          onDone={done}
        />
      )}
      {open?.kind === 'status' && (
        <StatusChangeDialog
          tourId={open.row.id}
          loadGuid={open.row.loadGuid}
          change={open.change}
          onClose={close}
          onDone={done}
        />
      )}
      {open?.kind === 'rate' && <RatingDialog tourId={open.tourId} onClose={close} onDone={done} />}
    </section>
  );
}
