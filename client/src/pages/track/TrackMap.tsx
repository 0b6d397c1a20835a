import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MapPanel, type MapMarker } from '../../components/map/index.ts';
import { formatLocal, useFormats } from '../../shared/format.ts';
import type { TrackPosition } from '../../shared/tours/tours.api.ts';
import { headingOf } from './trail.ts';

/** A stop as a tracking map draws it. */
export type TrackMapStop = Pick<
  MapMarker,
  'id' | 'kind' | 'latitude' | 'longitude' | 'label' | 'title'
>;

/** The tracking map of both tracking pages: the stops, the trail and the truck at its last position. */
export function TrackMap({ stops, trail }: { stops: TrackMapStop[]; trail: TrackPosition[] }) {
  const { t } = useTranslation();
  const last = trail.at(-1) ?? null;
  const markers: MapMarker[] = [
    ...stops,
    ...(last
      ? [
          {
            id: 'truck',
            kind: 'truck' as const,
            latitude: last.latitude,
            longitude: last.longitude,
            heading: headingOf(trail),
            highlighted: true,
            title: t('track.truck'),
          },
        ]
      : []),
  ];
  return (
    <div className="track-map card">
      <MapPanel
        ariaLabel={t('track.mapLabel')}
        markers={markers}
        trail={trail}
        height="100%"
        maxFitZoom={13}
        className="track-map-view"
      />
    </div>
  );
}

/** ETA, miles to go, the last position and the speed; `extra` adds rows (the driver, for the tour's parties). */
export function TrackFacts({
  eta,
  last,
  lng,
  extra,
}: {
  eta: { at: string; remainingMiles: number } | null | undefined;
  last: TrackPosition | null;
  lng: string;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const format = useFormats();
  return (
    <section className="card track-facts" aria-labelledby="track-facts-title">
      <h2 id="track-facts-title" className="visually-hidden">
        {t('track.facts')}
      </h2>
      <dl className="tabular">
        <div>
          <dt>{t('track.eta')}</dt>
          <dd className="track-eta" data-testid="track-eta">
            {eta ? formatLocal(eta.at, lng) : '–'}
          </dd>
        </div>
        <div>
          <dt>{t('track.remaining')}</dt>
          <dd>{eta ? format.miles(eta.remainingMiles) : '–'}</dd>
        </div>
        <div>
          <dt>{t('track.lastPosition')}</dt>
          <dd data-testid="last-position">
            {last ? (
              <span dir="ltr">{`${last.latitude.toFixed(4)}, ${last.longitude.toFixed(4)}`}</span>
            ) : (
              t('track.noPosition')
            )}
            {last && <span className="muted"> · {formatLocal(last.recordedAt, lng, false)}</span>}
          </dd>
        </div>
        <div>
          <dt>{t('track.speed')}</dt>
          <dd>
            {last?.speed !== null && last?.speed !== undefined
              ? t('track.mph', { speed: Math.round(last.speed) })
              : '–'}
          </dd>
        </div>
        {extra}
      </dl>
    </section>
  );
}
