import { Button } from 'primereact/button';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { MapPanel, type MapMarker } from '../../components/map/index.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { cityOf, formatLocal, formatMiles, tourIdOf } from '../tours/format.ts';
import { StopList } from '../tours/StopList.tsx';
import { type TimelineEntry, type TourTrack, type TrackPosition, toursApi } from '../tours/tours.api.ts';
import { TourTimeline } from '../tours/TourTimeline.tsx';
import { useTourChannel } from '../tours/tourChannel.ts';
import './track.css';

const TRAIL_LIMIT = 500;
/** How often the ETA is asked again while positions stream in (the server computes it). */
const ETA_REFRESH_MS = 60_000;

const markerKind = (locationType: number): MapMarker['kind'] => (locationType === 1 ? 'pickup' : locationType === 4 ? 'dropoff' : 'stop');

/** Degrees clockwise from north from one point to the next: the truck's heading when the device sends none. */
export function bearing(from: TrackPosition, to: TrackPosition): number | null {
  if (from.latitude === to.latitude && from.longitude === to.longitude) return null;
  const radians = Math.PI / 180;
  const [lat1, lat2] = [from.latitude * radians, to.latitude * radians];
  const deltaLongitude = (to.longitude - from.longitude) * radians;
  const y = Math.sin(deltaLongitude) * Math.cos(lat2);
  const x = Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(deltaLongitude);
  return (Math.atan2(y, x) / radians + 360) % 360;
}

/** The trail with one more position: in time order, and not twice. */
export function extendTrail(trail: TrackPosition[], position: TrackPosition): TrackPosition[] {
  const last = trail.at(-1);
  if (!last || last.recordedAt < position.recordedAt) return [...trail, position];
  if (trail.some((known) => known.recordedAt === position.recordedAt && known.latitude === position.latitude && known.longitude === position.longitude)) return trail;
  return [...trail, position].sort((a, b) => (a.recordedAt < b.recordedAt ? -1 : a.recordedAt > b.recordedAt ? 1 : 0));
}

/** /track/tour?id= (bare layout): the map with the stops, the trail and the truck moving live; ETA and events. */
export default function TrackTourPage({ titleKey, params }: PageProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const tourId = tourIdOf(params, useSearch());
  const [track, setTrack] = useState<TourTrack | null>(null);
  const [trail, setTrail] = useState<TrackPosition[]>([]);
  const [events, setEvents] = useState<TimelineEntry[]>([]);
  const [failed, setFailed] = useState<string | null>(null);
  const [live, setLive] = useState(false);
  const [lastEtaAt, setLastEtaAt] = useState(0);

  const load = useCallback(async () => {
    if (!tourId) return;
    try {
      const [answer, timeline] = await Promise.all([toursApi.track(tourId), toursApi.events(tourId)]);
      setTrack(answer);
      setTrail(answer.trail);
      setEvents(timeline);
      setLastEtaAt(Date.now());
      setFailed(null);
    } catch (error) {
      setFailed(messageOf(error));
    }
  }, [tourId]);

  useEffect(() => {
    void load();
  }, [load]);

  useTourChannel(tourId, {
    onLive: setLive,
    onPosition: (position) => {
      // Live and caught-up positions (after a reconnection) both extend the trail, in time order, once each.
      setTrail((current) => extendTrail(current, position).slice(-TRAIL_LIMIT));
      // The ETA and the stops' arrivals are the server's: ask again now and then, not per position.
      if (Date.now() - lastEtaAt > ETA_REFRESH_MS) void load();
    },
    onChange: () => void load(),
    // The status, the stops' arrivals and the ETA may have moved while the connection was down.
    onReconnect: () => void load(),
  }, Boolean(tourId));

  const last = trail.at(-1) ?? null;
  const previous = trail.length > 1 ? trail[trail.length - 2] : null;
  const heading = last?.heading ?? (last && previous ? bearing(previous, last) : null);
  const markers: MapMarker[] = [
    ...(track?.stops ?? []).map((stop) => ({
      id: stop.id, kind: markerKind(stop.locationType), latitude: stop.latitude, longitude: stop.longitude,
      label: cityOf(stop), title: `${t(`tours.stops.types.${stop.locationType}` as 'tours.stops.types.1')}: ${stop.name}`,
    })),
    ...(last ? [{ id: 'truck', kind: 'truck' as const, latitude: last.latitude, longitude: last.longitude, heading, highlighted: true, title: t('track.truck') }] : []),
  ];

  if (!tourId) {
    return (
      <section className="page page-track">
        <h1>{t(titleKey)}</h1>
        <p className="card">{t('track.noTour')}</p>
      </section>
    );
  }

  return (
    <section className="page page-track">
      <header className="track-header">
        <div>
          <h1>{t(titleKey)}{track ? ` · ${track.loadGuid}` : ''}</h1>
          {track && (
            <p className="track-route">
              {/* Isolated: two Latin names around the arrow would otherwise run left to right in Arabic, against the flipped arrow. */}
              <bdi>{cityOf(track.stops[0] ?? {})}</bdi> <i className="pi pi-arrow-right flip-rtl" aria-hidden="true" /> <bdi>{cityOf(track.stops.at(-1) ?? {})}</bdi>
            </p>
          )}
        </div>
        <div className="track-header-side">
          {track && <StatusChip name={track.statusName} />}
          <span className={`live-badge${live ? ' is-live' : ''}`} role="status">
            <span className="live-dot" aria-hidden="true" /> {live ? t('track.live') : t('track.offline')}
          </span>
          <Link href={`/chat/tour/${tourId}`} className="p-button p-button-outlined p-button-sm">
            <i className="pi pi-comments p-button-icon p-button-icon-left" aria-hidden="true" />
            <span className="p-button-label">{t('track.chat')}</span>
          </Link>
        </div>
      </header>

      {failed && !track && (
        <div className="card track-error" role="alert">
          <p>{failed}</p>
          <Button type="button" label={t('common.retry')} icon="pi pi-refresh" onClick={() => void load()} />
        </div>
      )}

      <div className="track-layout">
        <div className="track-map card">
          <MapPanel ariaLabel={t('track.mapLabel')} markers={markers} trail={trail} height="100%" maxFitZoom={13} className="track-map-view" />
        </div>
        <aside className="track-side">
          <section className="card track-facts" aria-labelledby="track-facts-title">
            <h2 id="track-facts-title" className="visually-hidden">{t('track.facts')}</h2>
            <dl className="tabular">
              <div>
                <dt>{t('track.eta')}</dt>
                <dd className="track-eta">{track?.eta ? formatLocal(track.eta.at, lng) : '–'}</dd>
              </div>
              <div>
                <dt>{t('track.remaining')}</dt>
                <dd>{track?.eta ? formatMiles(track.eta.remainingMiles) : '–'}</dd>
              </div>
              <div>
                <dt>{t('track.lastPosition')}</dt>
                <dd data-testid="last-position">
                  {last ? <span dir="ltr">{`${last.latitude.toFixed(4)}, ${last.longitude.toFixed(4)}`}</span> : t('track.noPosition')}
                  {last && <span className="muted"> · {formatLocal(last.recordedAt, lng, false)}</span>}
                </dd>
              </div>
              <div>
                <dt>{t('track.speed')}</dt>
                <dd>{last?.speed !== null && last?.speed !== undefined ? t('track.mph', { speed: Math.round(last.speed) }) : '–'}</dd>
              </div>
              <div>
                <dt>{t('track.driver')}</dt>
                <dd>{track?.assignee?.name ?? '–'}</dd>
              </div>
            </dl>
          </section>
          <section className="card" aria-labelledby="track-stops-title">
            <h2 id="track-stops-title">{t('tours.stops.title')}</h2>
            {track ? <StopList stops={track.stops} nextStopId={track.nextStopId} /> : <div className="skeleton-block" />}
          </section>
          <section className="card" aria-labelledby="track-events-title">
            <h2 id="track-events-title">{t('tours.timeline.title')}</h2>
            <TourTimeline entries={events} loading={!track && !failed} compact />
          </section>
        </aside>
      </div>
    </section>
  );
}
