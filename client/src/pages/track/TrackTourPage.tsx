import { Button } from 'primereact/button';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { cityOf } from '../../shared/format.ts';
import { tourIdOf } from '../../shared/tours/tourId.ts';
import { StopList } from '../../shared/tours/StopList.tsx';
import {
  type TimelineEntry,
  type TourTrack,
  type TrackPosition,
  toursApi,
} from '../../shared/tours/tours.api.ts';
import { TourTimeline } from '../../shared/tours/TourTimeline.tsx';
import { PodView } from '../../shared/pod/PodView.tsx';
import { ClaimsPanel } from '../../shared/claims/ClaimsPanel.tsx';
import { CurrentStopClock } from '../../shared/claims/DetentionClock.tsx';
import { useTourChannel } from '../../shared/tours/tourChannel.ts';
import { TOURS_ALL } from '../../../../domain/permissions.ts';
import { authUserAtom, roleNames } from '../../state/session.ts';
import { ShareTrackingDialog } from './ShareTrackingDialog.tsx';
import { DockLinkDialog } from './DockLinkDialog.tsx';
import { TrackFacts, TrackMap, type TrackMapStop } from './TrackMap.tsx';
import { extendTrail, TRAIL_LIMIT } from './trail.ts';
import './track.css';

/** How often the ETA is asked again while positions stream in (the server computes it). */
const ETA_REFRESH_MS = 60_000;

const markerKind = (locationType: number): TrackMapStop['kind'] =>
  locationType === 1 ? 'pickup' : locationType === 4 ? 'dropoff' : 'stop';

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
  const [sharing, setSharing] = useState(false);
  const user = useAtomValue(authUserAtom);
  // The tour's shipper or carrier shares it (a driver works it; a Superadmin belongs to neither side).
  const canShare = Boolean(user?.organization && user.permissions.includes(TOURS_ALL));
  // The dock is the shipper's: only the shipper's people make a dock link.
  const canDockLink = canShare && roleNames(user).includes('Shipper');
  const [dockLinking, setDockLinking] = useState(false);

  const load = useCallback(async () => {
    if (!tourId) return;
    try {
      const [answer, timeline] = await Promise.all([
        toursApi.track(tourId),
        toursApi.events(tourId),
      ]);
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

  useTourChannel(
    tourId,
    {
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
    },
    Boolean(tourId),
  );

  const last = trail.at(-1) ?? null;
  const stops: TrackMapStop[] = (track?.stops ?? []).map((stop) => ({
    id: stop.id,
    kind: markerKind(stop.locationType),
    latitude: stop.latitude,
    longitude: stop.longitude,
    label: cityOf(stop),
    title: `${t(`tours.stops.types.${stop.locationType}` as 'tours.stops.types.1')}: ${stop.name}`,
  }));

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
          <h1>
            {t(titleKey)}
            {track ? ` · ${track.loadGuid}` : ''}
          </h1>
          {track && (
            <p className="track-route">
              {/* Isolated: two Latin names around the arrow would otherwise run left to right in Arabic, against the flipped arrow. */}
              <bdi>{cityOf(track.stops[0] ?? {})}</bdi>{' '}
              <i className="pi pi-arrow-right flip-rtl" aria-hidden="true" />{' '}
              <bdi>{cityOf(track.stops.at(-1) ?? {})}</bdi>
            </p>
          )}
        </div>
        <div className="track-header-side">
          {track && <StatusChip name={track.statusName} />}
          <span className={`live-badge${live ? ' is-live' : ''}`} role="status">
            <span className="live-dot" aria-hidden="true" />{' '}
            {live ? t('track.live') : t('track.offline')}
          </span>
          {canShare && (
            <Button
              type="button"
              size="small"
              outlined
              icon="pi pi-share-alt"
              label={t('sharedTrack.share')}
              onClick={() => setSharing(true)}
            />
          )}
          {canDockLink && (
            <Button
              type="button"
              size="small"
              outlined
              icon="pi pi-shield"
              label={t('dock.makeLink')}
              onClick={() => setDockLinking(true)}
            />
          )}
          <Link href={`/chat/tour/${tourId}`} className="p-button p-button-outlined p-button-sm">
            <i className="pi pi-comments p-button-icon p-button-icon-left" aria-hidden="true" />
            <span className="p-button-label">{t('track.chat')}</span>
          </Link>
        </div>
      </header>

      {failed && !track && (
        <div className="card track-error" role="alert">
          <p>{failed}</p>
          <Button
            type="button"
            label={t('common.retry')}
            icon="pi pi-refresh"
            onClick={() => void load()}
          />
        </div>
      )}

      <div className="track-layout">
        <TrackMap stops={stops} trail={trail} />
        <aside className="track-side">
          <TrackFacts
            eta={track?.eta}
            last={last}
            lng={lng}
            extra={
              <div>
                <dt>{t('track.driver')}</dt>
                <dd>{track?.assignee?.name ?? '–'}</dd>
              </div>
            }
          />
          {track && <CurrentStopClock tour={track} events={events} />}
          <section className="card" aria-labelledby="track-stops-title">
            <h2 id="track-stops-title">{t('tours.stops.title')}</h2>
            {track ? (
              <StopList stops={track.stops} nextStopId={track.nextStopId} />
            ) : (
              <div className="skeleton-block" />
            )}
          </section>
          <section className="card" aria-labelledby="track-events-title">
            <h2 id="track-events-title">{t('tours.timeline.title')}</h2>
            <TourTimeline entries={events} loading={!track && !failed} compact />
          </section>
          {track && (
            <ClaimsPanel tourId={track.id} stopNames={track.stops.map((stop) => stop.name)} />
          )}
          {track && (
            <div className="card">
              <PodView tourId={track.id} refreshKey={`${track.status}-${events.length}`} />
            </div>
          )}
        </aside>
      </div>
      {sharing && <ShareTrackingDialog tourId={tourId} onClose={() => setSharing(false)} />}
      {dockLinking && <DockLinkDialog tourId={tourId} onClose={() => setDockLinking(false)} />}
    </section>
  );
}
