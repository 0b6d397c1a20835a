import { useTranslation } from 'react-i18next';
import { MapPanel, type MapMarker } from '../../components/map/index.ts';
import { useFormats } from '../../shared/format.ts';
import type { EldTruck } from './offers.api.ts';

/**
 * The carrier's ELD trucks around a load's pickup, live from its installed services: on a map with
 * the pickup, and as a list nearest first with the distance, so the dispatcher sees which truck to
 * offer. Nothing while the trucks are being read, nor when no ELD service reports any (the offer
 * form's truck field says so already).
 */
export function OfferTrucksCard({
  pickup,
  trucks,
}: {
  pickup:
    | (Parameters<ReturnType<typeof useFormats>['place']>[0] & {
        latitude: number;
        longitude: number;
      })
    | undefined;
  trucks: EldTruck[] | null;
}) {
  const { t } = useTranslation();
  const format = useFormats();
  if (!pickup || trucks === null || trucks.length === 0) return null;
  const markers: MapMarker[] = [
    {
      id: 'pickup',
      kind: 'pickup',
      latitude: pickup.latitude,
      longitude: pickup.longitude,
      label: format.place(pickup),
      title: t('marketplace.locationTypes.1'),
    },
    ...trucks.map(
      (truck, index): MapMarker => ({
        id: `truck-${truck.id}`,
        kind: 'truck',
        latitude: truck.latitude,
        longitude: truck.longitude,
        heading: truck.heading,
        label: truck.name,
        title: `${truck.name} · ${t('marketplace.offer.truckAway', { miles: format.miles(truck.distance) })}`,
        highlighted: index === 0,
      }),
    ),
  ];
  return (
    <section className="card offer-trucks" aria-labelledby="offer-trucks-title">
      <h2 id="offer-trucks-title">{t('marketplace.offer.trucksTitle')}</h2>
      <MapPanel
        ariaLabel={t('marketplace.offer.trucksMapLabel', { count: trucks.length })}
        markers={markers}
        height={300}
        maxFitZoom={10}
      />
      <ol className="truck-list" data-testid="offer-trucks">
        {trucks.map((truck) => (
          <li key={truck.id}>
            <strong>{truck.name}</strong> ·{' '}
            <span className="tabular">
              {t('marketplace.offer.truckAway', { miles: format.miles(truck.distance) })}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
