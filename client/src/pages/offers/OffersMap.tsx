import { useTranslation } from 'react-i18next';
import { MapPanel, type MapMarker } from '../../components/map/index.ts';
import { useFormats } from '../../shared/format.ts';
import type { OfferMapMarker } from './offers.api.ts';

const kindOfMarker = (marker: OfferMapMarker): MapMarker['kind'] => {
  if (marker.type === 'truck') return 'truck';
  if (marker.additionalInfo === 'Pickup') return 'pickup';
  if (marker.additionalInfo === 'Dropoff') return 'dropoff';
  return 'stop';
};

/** The map of a load's stops and of the offering trucks, with its legend and the list of trucks. */
export function OffersMap({ markers }: { markers: OfferMapMarker[] }) {
  const { t } = useTranslation();
  const format = useFormats();
  const mapMarkers: MapMarker[] = markers.map((marker, index) => ({
    id: marker.proposalId ?? `m${index}`,
    kind: kindOfMarker(marker),
    latitude: marker.latitude,
    longitude: marker.longitude,
    label: marker.type === 'truck' ? format.price(marker.price) : undefined,
    title: `${marker.name} · ${marker.address}`,
  }));
  const trucks = markers.filter((marker) => marker.type === 'truck');
  return (
    <aside className="offers-map">
      <MapPanel
        ariaLabel={t('marketplace.offers.mapLabel', { count: trucks.length })}
        markers={mapMarkers}
        height={360}
        maxFitZoom={9}
      />
      <ul className="map-legend">
        <li>
          <span className="legend-dot legend-pickup" aria-hidden="true" />{' '}
          {t('marketplace.locationTypes.1')}
        </li>
        <li>
          <span className="legend-dot legend-dropoff" aria-hidden="true" />{' '}
          {t('marketplace.locationTypes.4')}
        </li>
        <li>
          <span className="legend-arrow" aria-hidden="true" />{' '}
          {t('marketplace.offers.truckLegend', { count: trucks.length })}
        </li>
      </ul>
      {trucks.length > 0 && (
        <ul className="truck-list">
          {trucks.map((truck, index) => (
            <li key={truck.proposalId ?? index}>
              <strong>{truck.name}</strong> · {truck.additionalInfo} ·{' '}
              <span className="tabular">{format.price(truck.price)}</span>
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
