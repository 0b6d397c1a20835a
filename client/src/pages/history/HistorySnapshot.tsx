import { useTranslation } from 'react-i18next';
import { genericStatuses, tourStatuses, trailerTypes } from '../../../../domain/catalog.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { cityOf, formatNumber, formatPrice, formatZoned } from '../../shared/format.ts';
import type { HistoryAnswer } from './history.api.ts';

const genericName = (id: number) =>
  genericStatuses.find((status) => status.id === id)?.name ?? String(id);
const tourName = (id: number) =>
  tourStatuses.find((status) => status.id === id)?.name ?? String(id);

/** The load, its offers and its tour as they stood at the slider's moment. */
export function HistorySnapshot({
  answer,
  loading,
  organizations,
}: {
  answer: HistoryAnswer | null;
  loading: boolean;
  organizations: Map<string, string>;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const load = answer?.load ?? null;
  const offers = answer?.proposals ?? [];
  const tour = answer?.tour ?? null;

  if (!answer) {
    return (
      <section
        className="card history-snapshot"
        aria-busy={loading}
        aria-label={t('history.snapshot.title')}
      >
        <div className="skeleton-line is-wide" />
        <div className="skeleton-block" />
      </section>
    );
  }

  const stops = load?.details.stops ?? [];
  return (
    <section
      className={`card history-snapshot${loading ? ' is-refreshing' : ''}`}
      aria-labelledby="history-snapshot-title"
      data-testid="history-snapshot"
    >
      <h2 id="history-snapshot-title">{t('history.snapshot.title')}</h2>
      <h3>{t('history.snapshot.load')}</h3>
      {load ? (
        <dl className="snapshot-facts">
          <div>
            <dt>{t('history.snapshot.status')}</dt>
            <dd>
              <StatusChip name={genericName(load.status)} />
            </dd>
          </div>
          <div>
            <dt>{t('history.snapshot.route')}</dt>
            <dd>{stops.length ? `${cityOf(stops[0])} → ${cityOf(stops.at(-1)!)}` : '–'}</dd>
          </div>
          <div>
            <dt>{t('history.snapshot.pickup')}</dt>
            <dd className="tabular">
              {formatZoned(load.details.pickupStart, load.details.pickupTimezone, lng)}
            </dd>
          </div>
          <div>
            <dt>{t('history.snapshot.dropoff')}</dt>
            <dd className="tabular">
              {formatZoned(load.details.dropoffStart, load.details.dropoffTimezone, lng)}
            </dd>
          </div>
          <div>
            <dt>{t('history.snapshot.expiration')}</dt>
            <dd className="tabular">
              {formatZoned(load.details.expiration, load.details.expirationTimezone, lng)}
            </dd>
          </div>
          <div>
            <dt>{t('history.snapshot.equipment')}</dt>
            <dd>
              {load.details.equipment
                .map((id) => trailerTypes.find((type) => type.id === id)?.name ?? id)
                .join(', ') || '–'}
            </dd>
          </div>
          <div>
            <dt>{t('history.snapshot.weight')}</dt>
            <dd className="tabular">
              {t('marketplace.units.lbs', { value: formatNumber(load.details.weight, lng) })}
            </dd>
          </div>
          <div>
            <dt>{t('history.snapshot.price')}</dt>
            <dd className="tabular">{load.price !== null ? formatPrice(load.price, lng) : '–'}</dd>
          </div>
          {load.cancelMessage && (
            <div>
              <dt>{t('history.snapshot.cancelMessage')}</dt>
              <dd>{load.cancelMessage}</dd>
            </div>
          )}
        </dl>
      ) : (
        <p className="muted">{t('history.snapshot.noLoad')}</p>
      )}

      <h3>{t('history.snapshot.offers', { count: offers.length })}</h3>
      {offers.length === 0 ? (
        <p className="muted">{t('history.snapshot.noOffers')}</p>
      ) : (
        <ul className="snapshot-offers">
          {offers.map((offer) => (
            <li key={offer.proposalId}>
              <span>
                {offer.carrierOrganization?.name ??
                  organizations.get(offer.carrierOrganizationId) ??
                  t('history.snapshot.carrier')}
              </span>
              <span className="tabular">
                {formatPrice(offer.price, lng)}
                {offer.counterPrice !== null
                  ? ` (${t('history.snapshot.counter', { price: formatPrice(offer.counterPrice, lng) })})`
                  : ''}
              </span>
              <StatusChip name={genericName(offer.status)} />
            </li>
          ))}
        </ul>
      )}

      <h3>{t('history.snapshot.tour')}</h3>
      {tour ? (
        <dl className="snapshot-facts">
          <div>
            <dt>{t('history.snapshot.status')}</dt>
            <dd>
              <StatusChip name={tourName(tour.status)} />
            </dd>
          </div>
          <div>
            <dt>{t('history.snapshot.driver')}</dt>
            <dd>{tour.assigneeName ?? '–'}</dd>
          </div>
          <div>
            <dt>{t('history.snapshot.stops')}</dt>
            <dd className="tabular">
              {t('history.snapshot.stopsDone', {
                arrived: tour.arrivedStopIds.length,
                departed: tour.departedStopIds.length,
                total: stops.length,
              })}
            </dd>
          </div>
          <div>
            <dt>{t('history.snapshot.ratings')}</dt>
            <dd>
              {[
                tour.ratings.shipper ? t('history.snapshot.ratedByShipper') : null,
                tour.ratings.carrier ? t('history.snapshot.ratedByCarrier') : null,
              ]
                .filter(Boolean)
                .join(' · ') || '–'}
            </dd>
          </div>
        </dl>
      ) : (
        <p className="muted">{t('history.snapshot.noTour')}</p>
      )}
    </section>
  );
}
