import { useTranslation } from 'react-i18next';
import { LocationType } from '../../../../domain/catalog.ts';
import { MapPanel, type MapMarker } from '../../components/map/index.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { TrustPanel } from '../../components/TrustBadge.tsx';
import { DetentionFiguresList } from '../claims/DetentionFigures.tsx';
import { FacilityBadge } from '../facilities/FacilityBadge.tsx';
import '../facilities/facilities.css';
import { PayerFigure } from '../payers/PayerFigure.tsx';
import { formatLocal, useFormats } from '../format.ts';
import { TermsDetails } from '../terms/TermsSummary.tsx';
import type { LoadDetail, LoadLocation } from './loads.api.ts';

const kindOf = (type: number): MapMarker['kind'] =>
  type === LocationType.Pickup ? 'pickup' : type === LocationType.Dropoff ? 'dropoff' : 'stop';
const isPickupSide = (type: number) =>
  type === LocationType.Pickup || type === LocationType.ExtraPickupStop;

/** The stops of a load as map markers (pickup green, dropoff red, extra stops grey). */
export const stopMarkers = (locations: readonly LoadLocation[]): MapMarker[] =>
  locations.map((stop, index) => ({
    id: `stop-${stop.id}`,
    kind: kindOf(stop.locationType),
    latitude: stop.latitude,
    longitude: stop.longitude,
    label: String(index + 1),
    title: `${stop.name}, ${stop.address}`,
  }));

/**
 * One load's details as the offer screen and the shipper's "view" show them: route, time windows
 * with their zones, equipment, accessories, weight, commodity, reference, comments, the
 * accessorial terms ("No terms" without), how long the shipper and the stop places keep trucks
 * (measured from the log, "new" under three stops), and a map.
 */
export function LoadSummary({
  load,
  showMap = true,
  extraMarkers = [],
}: {
  load: LoadDetail;
  showMap?: boolean;
  extraMarkers?: MapMarker[];
}) {
  const { t, i18n } = useTranslation();
  const format = useFormats();
  const windowOf = (stop: LoadLocation) => {
    const pickupSide = isPickupSide(stop.locationType);
    const start = pickupSide ? load.pickupTimestampStart : load.dropOffTimestampStart;
    const end = pickupSide ? load.pickupTimestampEnd : load.dropOffTimestampEnd;
    const zone = pickupSide ? load.pickupTimezone : load.dropoffTimezone;
    return end
      ? `${format.time(start, zone)} – ${format.time(end, zone)}`
      : format.time(start, zone);
  };
  return (
    <div className="load-summary">
      <div className="load-summary-head">
        <strong className="load-guid tabular">{load.guid}</strong>
        <StatusChip name={load.statusName} />
        {load.shipper && <span className="muted">{load.shipper}</span>}
        {load.audience?.opensAt && (
          <span className="preferred-only muted">
            <i className="pi pi-star" aria-hidden="true" />{' '}
            {t('carrierLists.until', { time: formatLocal(load.audience.opensAt, i18n.language) })}
          </span>
        )}
      </div>
      {load.trust && <TrustPanel trust={load.trust} />}
      <div className={showMap ? 'load-summary-grid' : undefined}>
        <div>
          <ol className="stop-timeline" aria-label={t('marketplace.summary.stops')}>
            {load.locations.map((stop, index) => (
              <li key={stop.id} className={`stop-${kindOf(stop.locationType)}`}>
                <span
                  className={`stop-badge stop-badge-${kindOf(stop.locationType)}`}
                  aria-hidden="true"
                >
                  {index + 1}
                </span>
                <div>
                  <div className="stop-title">
                    <strong>{stop.name}</strong>
                    <span className="muted">
                      {' '}
                      · {t(`marketplace.locationTypes.${stop.locationType}` as never)}
                    </span>
                  </div>
                  <div>{stop.address}</div>
                  <div className="tabular muted">{windowOf(stop)}</div>
                  <FacilityBadge facilityId={stop.facilityId} facility={stop.facility} />
                  {stop.contactName || stop.contactPhone ? (
                    <div className="stop-contact">
                      <i className="pi pi-user" aria-hidden="true" />{' '}
                      {[stop.contactName, stop.contactPhone].filter(Boolean).join(' · ')}
                      {stop.number && <span className="muted"> · #{stop.number}</span>}
                    </div>
                  ) : load.contactsHidden ? (
                    <div className="muted stop-contact">
                      <i className="pi pi-lock" aria-hidden="true" />{' '}
                      {t('marketplace.summary.contactsHidden')}
                    </div>
                  ) : null}
                </div>
              </li>
            ))}
          </ol>
          <dl className="load-facts">
            <div>
              <dt>{t('marketplace.columns.equipment')}</dt>
              <dd>{format.equipment(load.loadEquipment)}</dd>
            </div>
            <div>
              <dt>{t('marketplace.form.loadType')}</dt>
              <dd>{load.loadTypeId === 2 ? 'LTL' : 'FTL'}</dd>
            </div>
            <div>
              <dt>{t('marketplace.columns.weight')}</dt>
              <dd className="tabular">{format.weight(load.weight)}</dd>
            </div>
            <div>
              <dt>{t('marketplace.form.commodity')}</dt>
              <dd>{load.commodity}</dd>
            </div>
            <div>
              <dt>{t('marketplace.form.refNumber')}</dt>
              <dd className="tabular">{load.refNumber}</dd>
            </div>
            {load.bookNowPrice != null && (
              <div>
                <dt>{t('bookNow.detail')}</dt>
                <dd className="tabular">{format.price(load.bookNowPrice)}</dd>
              </div>
            )}
            <div>
              <dt>{t('marketplace.columns.expiration')}</dt>
              <dd className="tabular">{format.time(load.expiration, load.expirationTimezone)}</dd>
            </div>
            <div className="load-facts-wide">
              <dt>{t('marketplace.form.accessories')}</dt>
              <dd>{load.loadAccessories.map((id) => format.accessory(id)).join(', ') || '—'}</dd>
            </div>
            {load.description && (
              <div className="load-facts-wide">
                <dt>{t('marketplace.form.comments')}</dt>
                <dd className="load-comments">{load.description}</dd>
              </div>
            )}
          </dl>
          <TermsDetails of={load} />
          <DetentionFiguresList detention={load.detention} />
          {load.payer && (
            <p className="payer-summary">
              <PayerFigure payer={load.payer} />
            </p>
          )}
        </div>
        {showMap && (
          <MapPanel
            ariaLabel={t('marketplace.summary.mapLabel', { guid: load.guid })}
            markers={[...stopMarkers(load.locations), ...extraMarkers]}
            height={320}
            maxFitZoom={9}
          />
        )}
      </div>
    </div>
  );
}
