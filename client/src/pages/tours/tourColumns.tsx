import { Button } from 'primereact/button';
import { useTranslation } from 'react-i18next';
import type { TableColumn } from '../../components/table/tableTypes.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { TrustBadge } from '../../components/TrustBadge.tsx';
import { cityOf, formatLocal, formatPrice, formatZoned } from '../../shared/format.ts';
import type { TourPlace, TourRow } from '../../shared/tours/tours.api.ts';
import { nextStep, type StatusStep, type TourSide } from '../../shared/tours/tourSteps.ts';

/** The tours table's columns; the status column's button asks `onStep` for the tour's next step. */
export function useTourColumns(
  side: TourSide,
  onStep: (row: TourRow, step: StatusStep) => void,
): TableColumn<TourRow>[] {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';

  const place = (value: TourPlace) => (
    <span className="place-cell">
      <span>{cityOf(value)}</span>
      <span className="muted tabular">{formatZoned(value.time, value.timezone, lng)}</span>
    </span>
  );

  return [
    {
      field: 'guid',
      header: t('tours.columns.load'),
      sortable: true,
      body: (row) => <strong className="tabular nowrap">{row.loadGuid}</strong>,
    },
    {
      field: 'status',
      header: t('tours.columns.status'),
      sortable: true,
      body: (row) => {
        const step = nextStep(row.status, side);
        return (
          <span className="status-cell">
            <StatusChip name={row.statusName} />
            {row.trust && <TrustBadge trust={row.trust} />}
            {step && (
              <Button
                type="button"
                size="small"
                outlined
                icon="pi pi-arrow-right"
                className="step-button"
                label={t(`tours.steps.${step.key}.short`)}
                onClick={(event) => {
                  event.stopPropagation();
                  onStep(row, step);
                }}
              />
            )}
          </span>
        );
      },
    },
    {
      field: 'pickupTime',
      header: t('tours.columns.pickup'),
      sortable: true,
      body: (row) => place(row.pickup),
    },
    { field: 'dropoff', header: t('tours.columns.dropoff'), body: (row) => place(row.dropoff) },
    {
      field: 'driver',
      header: t('tours.columns.driver'),
      body: (row) =>
        row.driver?.name ?? <span className="muted">{t('tours.detail.noDriver')}</span>,
    },
    {
      field: 'party',
      header: side === 'carrier' ? t('tours.columns.shipper') : t('tours.columns.carrier'),
      body: (row) =>
        (side === 'carrier'
          ? row.shipper
          : side === 'admin'
            ? `${row.shipper ?? ''} → ${row.carrier ?? ''}`
            : row.carrier) ?? '',
    },
    {
      field: 'price',
      header: t('tours.columns.price'),
      numeric: true,
      body: (row) => <span className="nowrap">{formatPrice(row.price, lng)}</span>,
    },
    {
      field: 'lastPositionAt',
      header: t('tours.columns.lastPosition'),
      numeric: true,
      body: (row) =>
        row.lastPositionAt ? (
          formatLocal(row.lastPositionAt, lng)
        ) : (
          <span className="muted">–</span>
        ),
    },
  ];
}
