import { Button } from 'primereact/button';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { watchSharedTour } from '../../realtime/socket.ts';
import { cityOf, formatLocal } from '../../shared/format.ts';
import type { TrackPosition } from '../../shared/tours/tours.api.ts';
import { trackingLinkApi, type SharedStop, type SharedTrack } from './trackingLink.api.ts';
import { TrackFacts, TrackMap, type TrackMapStop } from './TrackMap.tsx';
import { extendTrail, TRAIL_LIMIT } from './trail.ts';
import '../../shared/tours/tours.css';
import './track.css';

/** After the connection was closed while the link still works (a server restart): connect again this much later. */
const RECONNECT_MS = 5_000;

const stopsOnMap = (stops: SharedStop[], t: (key: string) => string): TrackMapStop[] =>
  stops.map((stop, index) => ({
    id: `stop-${index}`,
    kind: stop.type,
    latitude: stop.latitude,
    longitude: stop.longitude,
    label: cityOf(stop),
    title: `${t(`sharedTrack.stopType.${stop.type}`)}: ${cityOf(stop)}`,
  }));

/**
 * /shared/track/:token (public, bare layout): what a tracking link shows its holder — the map with
 * the stops and the truck moving live, the stops' times, the ETA — and that the link ended, at once,
 * when it is revoked or expires. Nothing about prices, contacts or people.
 */
export default function SharedTrackPage({ params }: PageProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const token = params.token ?? '';
  const [track, setTrack] = useState<SharedTrack | null>(null);
  const [trail, setTrail] = useState<TrackPosition[]>([]);
  const [ended, setEnded] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [live, setLive] = useState(false);
  const [connection, setConnection] = useState(0);

  /** The link's answer; false once it has ended. */
  const load = useCallback(async (): Promise<boolean> => {
    try {
      const answer = await trackingLinkApi.track(token);
      setTrack(answer);
      setTrail(answer.trail);
      setFailed(null);
      return true;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
        setEnded(true);
        return false;
      }
      setFailed(messageOf(error));
      return true;
    }
  }, [token]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (ended || !token) return undefined;
    let retry: ReturnType<typeof setTimeout> | null = null;
    const stop = watchSharedTour(token, {
      onPosition: (position) =>
        setTrail((current) => extendTrail(current, position).slice(-TRAIL_LIMIT)),
      onChange: () => void load(),
      onLive: setLive,
      onClosed: () => {
        setLive(false);
        void load().then((works) => {
          if (works) retry = setTimeout(() => setConnection((count) => count + 1), RECONNECT_MS);
        });
      },
    });
    return () => {
      if (retry) clearTimeout(retry);
      stop();
    };
  }, [token, ended, load, connection]);

  if (ended) {
    return (
      <section className="page page-track page-shared-track">
        <div className="card shared-ended" role="status">
          <i className="pi pi-link" aria-hidden="true" />
          <h1>{t('sharedTrack.endedTitle')}</h1>
          <p>{t('sharedTrack.ended')}</p>
        </div>
      </section>
    );
  }

  const last = trail.at(-1) ?? null;
  return (
    <section className="page page-track page-shared-track">
      <header className="track-header">
        <div>
          <h1>
            {t('sharedTrack.title')}
            {track ? (
              <>
                {' '}
                · <bdi>{track.loadGuid}</bdi>
              </>
            ) : (
              ''
            )}
          </h1>
          {track && (
            <p className="track-route">
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
        <TrackMap
          stops={stopsOnMap(track?.stops ?? [], t as (key: string) => string)}
          trail={trail}
        />
        <aside className="track-side">
          <TrackFacts eta={track?.eta} last={last} lng={lng} />
          <section className="card" aria-labelledby="shared-stops-title">
            <h2 id="shared-stops-title">{t('sharedTrack.stops')}</h2>
            {track ? (
              <ol className="shared-stops">
                {track.stops.map((stop, index) => (
                  <li key={index} className={`shared-stop stop-${stop.type}`}>
                    <strong>{t(`sharedTrack.stopType.${stop.type}`)}</strong> ·{' '}
                    <bdi>{cityOf(stop)}</bdi>
                    <dl>
                      <div>
                        <dt>{t('sharedTrack.scheduled')}</dt>
                        <dd>{stop.scheduledAt ? formatLocal(stop.scheduledAt, lng) : '–'}</dd>
                      </div>
                      <div>
                        <dt>{t('sharedTrack.arrived')}</dt>
                        <dd>{stop.arrivedAt ? formatLocal(stop.arrivedAt, lng) : '–'}</dd>
                      </div>
                      <div>
                        <dt>{t('sharedTrack.left')}</dt>
                        <dd>{stop.leftAt ? formatLocal(stop.leftAt, lng) : '–'}</dd>
                      </div>
                    </dl>
                  </li>
                ))}
              </ol>
            ) : (
              <div className="skeleton-block" />
            )}
            {track && (
              <p className="muted shared-until">
                {t('sharedTrack.until', { time: formatLocal(track.expiresAt, lng) })}
              </p>
            )}
          </section>
        </aside>
      </div>
    </section>
  );
}
