import { Button } from 'primereact/button';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { TourStatus } from '../../../../domain/catalog.ts';
import { messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { notify } from '../../state/common.ts';
import { cityOf, formatLocal, useFormats } from '../../shared/format.ts';
import { StatusChangeDialog } from '../../shared/tours/StatusChangeDialog.tsx';
import { StopList } from '../../shared/tours/StopList.tsx';
import {
  type TimelineEntry,
  type TourRow,
  type TourTrack,
  toursApi,
} from '../../shared/tours/tours.api.ts';
import { TourTimeline } from '../../shared/tours/TourTimeline.tsx';
import { useTourChannel } from '../../shared/tours/tourChannel.ts';
import { isActiveTour, nextStep, type StatusStep } from '../../shared/tours/tourSteps.ts';
import { DriverFacilities } from './DriverFacilities.tsx';
import { LocationPanel } from './LocationPanel.tsx';
import { NextStopCard } from './NextStopCard.tsx';
import { PodCard } from './PodCard.tsx';
import { CurrentStopClock } from '../../shared/claims/DetentionClock.tsx';
import { LumperReceiptCard } from '../../shared/claims/LumperReceiptCard.tsx';
import { ReleaseCodeCard } from './ReleaseCodeCard.tsx';
import { useLocationSharing } from './useLocationSharing.ts';
import './driver.css';

/** The tour a driver works on now: the first one on the road, else the first upcoming one. */
const currentOf = (rows: TourRow[]): TourRow | null =>
  rows.find((row) => isActiveTour(row.status)) ??
  rows.find((row) => row.status !== TourStatus.Canceled && row.status !== TourStatus.Delivered) ??
  rows[0] ??
  null;

/** /driver: a phone app for the assigned driver. One tour, its next stop, one big button for the next step. */
export default function DriverPage({ titleKey }: PageProps) {
  const { t, i18n } = useTranslation();
  const format = useFormats();
  const lng = i18n.resolvedLanguage ?? 'en';
  const [rows, setRows] = useState<TourRow[] | null>(null);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [track, setTrack] = useState<TourTrack | null>(null);
  const [events, setEvents] = useState<TimelineEntry[]>([]);
  const [failed, setFailed] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<StatusStep | null>(null);

  const tourRow = rows ? (rows.find((row) => row.id === chosenId) ?? currentOf(rows)) : null;
  const tourId = tourRow?.id ?? null;

  const loadTours = useCallback(async () => {
    try {
      setRows((await toursApi.assigned()).data);
      setFailed(null);
    } catch (error) {
      setFailed(messageOf(error));
    }
  }, []);

  const loadTour = useCallback(async (id: string) => {
    try {
      const [detail, timeline] = await Promise.all([toursApi.track(id), toursApi.events(id)]);
      setTrack(detail);
      setEvents(timeline);
    } catch (error) {
      notify('error', messageOf(error));
    }
  }, []);

  useEffect(() => {
    void loadTours();
  }, [loadTours]);
  useEffect(() => {
    setTrack(null);
    setEvents([]);
    if (tourId) void loadTour(tourId);
  }, [tourId, loadTour]);

  const refresh = () => {
    void loadTours();
    if (tourId) void loadTour(tourId);
  };
  useTourChannel(tourId, { onChange: refresh, onReconnect: refresh });

  const status = track?.status ?? tourRow?.status ?? 0;
  const sharing = useLocationSharing(tourId, isActiveTour(status));
  const step = nextStep(status, 'driver');
  const nextStop = track
    ? (track.stops.find((stop) => stop.id === track.nextStopId) ?? null)
    : null;
  // From the arrival at the last stop until Delivered: the proof of delivery is taken there.
  const lastStop = track?.stops.at(-1) ?? null;
  const atLastStop =
    Boolean(lastStop?.arrived) &&
    (status === TourStatus.InTransit || status === TourStatus.PendingDeliveryConfirmation);
  const others =
    rows?.filter(
      (row) =>
        row.id !== tourId &&
        row.status !== TourStatus.Canceled &&
        row.status !== TourStatus.Delivered,
    ) ?? [];

  const header = (
    <header className="page-header">
      <h1>{t(titleKey)}</h1>
    </header>
  );

  if (rows === null) {
    return (
      <section className="page page-driver">
        {header}
        {failed ? (
          <div className="card driver-empty" role="alert">
            <p>{failed}</p>
            <Button
              type="button"
              label={t('common.retry')}
              icon="pi pi-refresh"
              onClick={() => void loadTours()}
            />
          </div>
        ) : (
          <div className="card driver-card" aria-busy="true">
            <div className="skeleton-line is-wide" />
            <div className="skeleton-line" />
            <div className="skeleton-block" />
          </div>
        )}
      </section>
    );
  }

  if (!tourRow) {
    return (
      <section className="page page-driver">
        {header}
        <div className="card driver-empty">
          <i className="pi pi-truck" aria-hidden="true" />
          <h2>{t('driver.noTour.title')}</h2>
          <p className="muted">{t('driver.noTour.text')}</p>
          <Button
            type="button"
            label={t('driver.reload')}
            icon="pi pi-refresh"
            outlined
            onClick={() => void loadTours()}
          />
        </div>
      </section>
    );
  }

  return (
    <section className="page page-driver">
      {header}
      <div className="driver-layout">
        <article className="card driver-card driver-tour" aria-labelledby="driver-tour-title">
          <div className="driver-tour-head">
            <h2 id="driver-tour-title" className="tabular">
              {t('driver.load', { load: tourRow.loadGuid })}
            </h2>
            <StatusChip name={track?.statusName ?? tourRow.statusName} />
          </div>
          <p className="driver-route">
            {/* Isolated: two Latin names around the arrow would otherwise run left to right in Arabic, against the flipped arrow. */}
            <bdi>{cityOf(tourRow.pickup)}</bdi>{' '}
            <i className="pi pi-arrow-right flip-rtl" aria-hidden="true" />{' '}
            <bdi>{cityOf(tourRow.dropoff)}</bdi>
          </p>
          {track?.eta && (
            <p className="driver-eta tabular">
              {t('driver.eta', {
                time: formatLocal(track.eta.at, lng, false),
                distance: format.miles(track.eta.remainingMiles),
              })}
            </p>
          )}

          {step ? (
            <Button
              type="button"
              className="driver-step-button"
              label={t(`tours.steps.${step.key}.button`)}
              icon="pi pi-check"
              onClick={() => setConfirming(step)}
            />
          ) : (
            <p className={`driver-step-note status-${status}`} role="status">
              {status === TourStatus.PendingDeliveryConfirmation
                ? t('driver.waitingConfirmation')
                : status === TourStatus.Delivered
                  ? t('driver.delivered')
                  : status === TourStatus.Canceled
                    ? t('driver.canceled')
                    : t('driver.notReady')}
            </p>
          )}

          <div className="driver-links">
            <Link
              href={`/chat/tour/${tourRow.id}`}
              className="p-button p-button-outlined driver-link"
            >
              <i className="pi pi-comments p-button-icon p-button-icon-left" aria-hidden="true" />
              <span className="p-button-label">{t('driver.chat')}</span>
            </Link>
            <Link
              href={`/track/tour/${tourRow.id}`}
              className="p-button p-button-outlined driver-link"
            >
              <i className="pi pi-map p-button-icon p-button-icon-left" aria-hidden="true" />
              <span className="p-button-label">{t('driver.map')}</span>
            </Link>
          </div>
        </article>

        <ReleaseCodeCard key={tourRow.id} tourId={tourRow.id} />

        <LocationPanel sharing={sharing} active={isActiveTour(status)} />

        {nextStop && isActiveTour(status) && (
          <NextStopCard tourId={tourRow.id} stop={nextStop} onDone={refresh} />
        )}

        {track && <CurrentStopClock tour={track} events={events} />}

        {atLastStop && <PodCard tourId={tourRow.id} />}

        {/* At a stop (a lumper unloads there) or at the last one until delivered. */}
        {((isActiveTour(status) && track?.stops.some((stop) => stop.arrived && !stop.departed)) ||
          atLastStop) && (
          <LumperReceiptCard key={tourRow.id} tourId={tourRow.id} onSent={refresh} />
        )}

        <section className="card driver-card" aria-labelledby="driver-stops">
          <h2 id="driver-stops">{t('tours.stops.title')}</h2>
          {track ? (
            <StopList stops={track.stops} nextStopId={track.nextStopId} />
          ) : (
            <div className="skeleton-block" />
          )}
        </section>

        {track && <DriverFacilities key={tourRow.id} tourId={tourRow.id} stops={track.stops} />}

        <section className="card driver-card" aria-labelledby="driver-timeline">
          <h2 id="driver-timeline">{t('tours.timeline.title')}</h2>
          <TourTimeline entries={events.slice(-8)} loading={!track} compact />
        </section>

        {others.length > 0 && (
          <section className="card driver-card" aria-labelledby="driver-others">
            <h2 id="driver-others">{t('driver.otherTours')}</h2>
            <ul className="driver-other-tours">
              {others.map((row) => (
                <li key={row.id}>
                  <Button
                    type="button"
                    text
                    className="driver-other"
                    onClick={() => setChosenId(row.id)}
                  >
                    <strong className="tabular">{row.loadGuid}</strong>
                    <span>
                      {cityOf(row.pickup)} → {cityOf(row.dropoff)}
                    </span>
                    <StatusChip name={row.statusName} />
                  </Button>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>

      {confirming && (
        <StatusChangeDialog
          tourId={tourRow.id}
          loadGuid={tourRow.loadGuid}
          change={{ kind: 'step', step: confirming }}
          onClose={() => setConfirming(null)}
          onDone={() => {
            setConfirming(null);
            refresh();
          }}
        />
      )}
    </section>
  );
}
