import { useTranslation } from 'react-i18next';
import { StatusChip } from '../../components/StatusChip.tsx';
import type { TableColumn } from '../../components/table/tableTypes.ts';
import { ShipperDetention } from '../../shared/claims/DetentionFigures.tsx';
import { FacilityBadge } from '../../shared/facilities/FacilityBadge.tsx';
import { PayerFigure } from '../../shared/payers/PayerFigure.tsx';
import { useFormats } from '../../shared/format.ts';
import { TermsCompact } from '../../shared/terms/TermsSummary.tsx';
import type { MarketplaceRow } from '../../shared/loads/loads.api.ts';
import { BookNowBadge, BookNowButton } from '../../shared/loads/BookNow.tsx';

/** The marketplace table's columns; `fresh` holds the loads posted a moment ago (marked 'New'). */
export function useMarketplaceColumns(fresh: Set<string>): TableColumn<MarketplaceRow>[] {
  const { t } = useTranslation();
  const format = useFormats();
  return [
    {
      field: 'guid',
      header: t('marketplace.columns.reference'),
      sortable: true,
      body: (row) => (
        <span className="load-ref">
          <strong className="tabular">{row.guid}</strong>
          {fresh.has(row.id) && <span className="new-pill">{t('marketplace.search.new')}</span>}
        </span>
      ),
    },
    {
      field: 'pickupTime',
      header: t('marketplace.columns.pickup'),
      sortable: true,
      body: (row) => (
        <>
          <Place
            place={format.place(row.pickup)}
            time={format.time(row.pickupTime, row.pickup.timezone)}
            extra={
              row.originDistance != null
                ? t('marketplace.search.deadhead', { miles: format.miles(row.originDistance) })
                : null
            }
          />
          {/* A load pushed live carries no facility figure until the table is read again. */}
          <FacilityBadge
            compact
            facilityId={row.facilities?.pickup?.facilityId}
            facility={row.facilities?.pickup?.facility}
          />
        </>
      ),
    },
    {
      field: 'dropoffTime',
      header: t('marketplace.columns.dropoff'),
      sortable: true,
      body: (row) => (
        <>
          <Place
            place={format.place(row.dropoff)}
            time={format.time(row.dropoffTime, row.dropoff.timezone)}
            extra={null}
          />
          <FacilityBadge
            compact
            facilityId={row.facilities?.delivery?.facilityId}
            facility={row.facilities?.delivery?.facility}
          />
        </>
      ),
    },
    {
      field: 'distance',
      header: t('marketplace.columns.distance'),
      sortable: true,
      numeric: true,
      body: (row) => format.miles(row.distance),
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
    { field: 'commodity', header: t('marketplace.form.commodity') },
    {
      field: 'shipper',
      header: t('marketplace.columns.shipper'),
      body: (row) => (
        <span className="place-cell">
          <span>{row.shipper}</span>
          <ShipperDetention detention={row.detention} />
          <PayerFigure payer={row.payer} />
        </span>
      ),
    },
    {
      field: 'terms',
      header: t('accessorials.terms.title'),
      body: (row) => <TermsCompact of={row} />,
    },
    {
      field: 'bookNowPrice',
      header: t('bookNow.column'),
      body: (row) =>
        row.bookNowPrice != null ? (
          <span className="book-now-cell">
            <BookNowBadge load={row} />
            <BookNowButton load={row} size="small" />
          </span>
        ) : (
          <span className="muted">—</span>
        ),
    },
    {
      field: 'myProposal',
      header: t('marketplace.columns.myOffer'),
      body: (row) =>
        row.myProposal ? (
          <span className="my-offer">
            <StatusChip name={row.myProposal.statusName} />
            <span className="tabular">
              {format.price(row.myProposal.counterPrice ?? row.myProposal.price)}
            </span>
          </span>
        ) : (
          <span className="muted">—</span>
        ),
    },
  ];
}

function Place({ place, time, extra }: { place: string; time: string; extra: string | null }) {
  return (
    <span className="place-cell">
      <span>{place}</span>
      <small className="muted tabular">{time}</small>
      {extra && <small className="muted">{extra}</small>}
    </span>
  );
}
