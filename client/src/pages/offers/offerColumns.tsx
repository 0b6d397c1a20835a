import { Button } from 'primereact/button';
import { Tag } from 'primereact/tag';
import { useTranslation } from 'react-i18next';
import { StatusChip } from '../../components/StatusChip.tsx';
import type { TableColumn } from '../../components/table/tableTypes.ts';
import { useFormats } from '../../shared/format.ts';
import { OfferTermsCell } from '../../shared/terms/OfferTermsCell.tsx';
import type { AccessorialTerms } from '../../shared/terms/terms.ts';
import { OfferStatus, type OfferRow } from './offers.api.ts';

/** The carrier's ratings: their average, each criterion in the tooltip and for screen readers. */
function Ratings({ ratings }: { ratings: Record<string, number> }) {
  const entries = Object.entries(ratings);
  if (entries.length === 0) return null;
  const average = entries.reduce((sum, [, value]) => sum + value, 0) / entries.length;
  return (
    <small
      className="ratings-line"
      title={entries.map(([name, value]) => `${name}: ${value.toFixed(2)}`).join('\n')}
    >
      <i className="pi pi-star-fill" aria-hidden="true" />{' '}
      <span className="tabular">{average.toFixed(2)}</span>
      <span className="visually-hidden">
        {entries.map(([name, value]) => `${name}: ${value.toFixed(2)}`).join(', ')}
      </span>
    </small>
  );
}

/**
 * The columns of the offers on a load: the carrier with its ratings (`fresh` ones marked new), the
 * price and the shipper's counter, the offer's terms where they differ from the load's (`loadTerms`)
 * and the counter's, status, message, truck, time, and the answers the row allows.
 */
export function useOfferColumns({
  fresh,
  onAnswer: open,
  loadTerms,
}: {
  fresh: ReadonlySet<string>;
  onAnswer: (row: OfferRow, status: number) => void;
  loadTerms?: AccessorialTerms | null;
}): TableColumn<OfferRow>[] {
  const { t } = useTranslation();
  const format = useFormats();
  return [
    {
      field: 'carrier',
      header: t('marketplace.columns.carrier'),
      body: (row) => (
        <span className="carrier-cell">
          <strong>{row.carrier.name}</strong>
          {fresh.has(row.id) && <span className="new-pill">{t('marketplace.search.new')}</span>}
          <Ratings ratings={row.carrier.ratings} />
          {row.trust && row.trust.reasons.length > 0 && (
            <Tag
              className="trust-badge trust-flagged"
              severity="warning"
              icon="pi pi-exclamation-triangle"
              value={t('trust.offerFlagged')}
              title={row.trust.reasons
                .map((reason) => t(`trust.reasons.${reason.code}`))
                .join('\n')}
            />
          )}
          {row.trust && row.trust.reasons.length > 0 && (
            <ul className="trust-offer-reasons muted">
              {row.trust.reasons.map((reason) => (
                <li key={reason.code}>{t(`trust.reasons.${reason.code}`)}</li>
              ))}
            </ul>
          )}
        </span>
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
          {row.counterPrice !== null && (
            <small className="muted">
              {t('marketplace.offers.yourCounter', { price: format.price(row.counterPrice) })}
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
          loadTerms={loadTerms}
          countered={row.status === OfferStatus.PendingAcceptance}
        />
      ),
    },
    {
      field: 'status',
      header: t('marketplace.columns.status'),
      body: (row) => <StatusChip name={row.statusName} />,
    },
    {
      field: 'message',
      header: t('marketplace.offer.message'),
      body: (row) => <span className="message-cell">{row.message || '—'}</span>,
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
    {
      field: 'answer',
      header: t('marketplace.offers.answer'),
      body: (row) => (
        <div className="answer-buttons">
          {row.canAccept && (
            <Button
              type="button"
              size="small"
              severity="success"
              icon="pi pi-check"
              label={t('marketplace.offers.accept')}
              onClick={() => open(row, OfferStatus.Accepted)}
            />
          )}
          {row.canCounter && (
            <Button
              type="button"
              size="small"
              outlined
              icon="pi pi-reply"
              label={t('marketplace.offers.counter')}
              onClick={() => open(row, OfferStatus.PendingAcceptance)}
            />
          )}
          {row.canDecline && (
            <Button
              type="button"
              size="small"
              text
              severity="danger"
              icon="pi pi-times"
              label={t('marketplace.offers.decline')}
              onClick={() => open(row, OfferStatus.Declined)}
            />
          )}
        </div>
      ),
    },
  ];
}
