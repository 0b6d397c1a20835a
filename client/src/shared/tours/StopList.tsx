import { useTranslation } from 'react-i18next';
import { LocationType } from '../../../../domain/catalog.ts';
import type { TourStopView } from './tours.api.ts';

/** 'pickup' (green), 'dropoff' (red) or 'extra' (grey): the marker colours of every map. */
export const stopKind = (locationType: number): 'pickup' | 'dropoff' | 'extra' =>
  locationType === LocationType.Pickup
    ? 'pickup'
    : locationType === LocationType.Dropoff
      ? 'dropoff'
      : 'extra';

/** The stops in route order, each with its type, place and whether the truck arrived or left. */
export function StopList({
  stops,
  nextStopId = null,
}: {
  stops: TourStopView[];
  nextStopId?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <ol className="stop-list">
      {stops.map((stop) => {
        const state = stop.departed
          ? 'departed'
          : stop.arrived
            ? 'arrived'
            : stop.id === nextStopId
              ? 'next'
              : 'ahead';
        return (
          <li key={stop.id} className={`stop-item stop-${stopKind(stop.locationType)} is-${state}`}>
            <span className="stop-marker" aria-hidden="true" />
            <div>
              <div className="stop-head">
                <strong>
                  {t(`tours.stops.types.${stop.locationType}` as 'tours.stops.types.1')}
                </strong>
                <span className={`stop-state stop-state-${state}`}>
                  {t(`tours.stops.state.${state}`)}
                </span>
              </div>
              <div>{stop.name}</div>
              <div className="muted">{stop.address}</div>
              {(stop.contactName || stop.contactPhone) && (
                <div className="muted">
                  {[stop.contactName, stop.contactPhone].filter(Boolean).join(' · ')}
                </div>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
