import type { TFunction } from 'i18next';
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LocationType } from '../../../../domain/catalog.ts';
import { formatPrice, formatZoned } from '../format.ts';
import { type LoadDetail, loadsApi } from '../loads/loads.api.ts';
import { type AccessorialTerms, termsOf } from '../terms/terms.ts';
import type { TimelineEntry, TourStopView } from '../tours/tours.api.ts';
import type { TrackDetention } from '../../../../domain/contracts/tourTracking.contract.ts';
import { detentionClock } from './detentionClock.ts';
import './claims.css';

/** '2 h 05 min', or '35 min' under an hour. */
export function formatDuration(minutes: number, t: TFunction): string {
  const hours = Math.floor(minutes / 60);
  const rest = String(minutes % 60).padStart(hours > 0 ? 2 : 1, '0');
  return hours > 0
    ? t('accessorials.duration', { hours, minutes: rest })
    : t('accessorials.durationMinutes', { minutes: rest });
}

/** The current time, again every `everyMs`. */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

export interface DetentionClockProps {
  stopName: string;
  arrivedAt: string;
  appointmentAt: string | null;
  /** The stop's zone, for the times it shows (CST, EDT). */
  zone: string | null;
  leftAt?: string | null;
  terms: AccessorialTerms | null;
  pickupSide: boolean;
  /** The time to show the clock at; ticks by itself when absent. */
  now?: number;
}

/**
 * The detention clock of the stop the truck is at: time on site since the later of the arrival and
 * the appointment, when detention starts (or since when it runs and what it comes to), and, for a
 * truck that arrived after its appointment plus the grace, why no detention is earned.
 */
export function DetentionClock(props: DetentionClockProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const ticking = useNow();
  const now = props.now ?? ticking;
  const clock = detentionClock({ ...props, now });
  const time = (at: string | null) => formatZoned(at, props.zone, lng);
  const lines: { key: string; text: string; tone?: 'warn' | 'info' }[] = [];

  if (clock.early && clock.kind !== 'late')
    lines.push({
      key: 'early',
      text: t('accessorials.clock.early', {
        arrived: time(props.arrivedAt),
        appointment: time(props.appointmentAt),
      }),
    });
  switch (clock.kind) {
    case 'noTerms':
      lines.push({ key: 'noTerms', text: t('accessorials.clock.noTerms'), tone: 'info' });
      break;
    case 'late':
      lines.push({
        key: 'late',
        text: t('accessorials.clock.late', {
          arrived: time(props.arrivedAt),
          appointment: time(props.appointmentAt),
          minutes: props.terms?.graceMinutes ?? 0,
        }),
        tone: 'warn',
      });
      break;
    case 'waiting':
      lines.push({
        key: 'waiting',
        text: t('accessorials.clock.waiting', { time: time(clock.clockStartAt) }),
      });
      lines.push({
        key: 'startsAt',
        text: t('accessorials.clock.startsAt', {
          time: time(clock.detentionStartsAt),
          hours: clock.freeHours ?? 0,
        }),
      });
      break;
    case 'free':
      lines.push({
        key: 'startsAt',
        text: t('accessorials.clock.startsAt', {
          time: time(clock.detentionStartsAt),
          hours: clock.freeHours ?? 0,
        }),
      });
      break;
    case 'detention':
      lines.push({
        key: 'started',
        text: t('accessorials.clock.started', {
          time: time(clock.detentionStartsAt),
          duration: formatDuration(clock.detentionMinutes, t),
          amount: formatPrice(clock.amount, lng),
        }),
        tone: 'warn',
      });
      if (clock.capped)
        lines.push({
          key: 'capped',
          text: t('accessorials.clock.capped', {
            amount: formatPrice(props.terms?.detentionCap, lng),
          }),
        });
      break;
  }

  return (
    <section className={`card detention-clock is-${clock.kind}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('accessorials.clock.title')}</h2>
      <p className="muted">{t('accessorials.clock.stop', { name: props.stopName })}</p>
      <p className="detention-clock-on-site tabular" role="timer" aria-live="off">
        <i className="pi pi-clock" aria-hidden="true" />{' '}
        {t('accessorials.clock.onSite', { duration: formatDuration(clock.onSiteMinutes, t) })}
      </p>
      <p className="muted tabular">
        {t('accessorials.clock.countingFrom', { time: time(clock.clockStartAt) })}
      </p>
      <ul className="detention-clock-lines">
        {lines.map((line) => (
          <li key={line.key} className={line.tone ? `is-${line.tone}` : undefined}>
            {line.text}
          </li>
        ))}
      </ul>
    </section>
  );
}

const pickupSide = (locationType: number) =>
  locationType === LocationType.Pickup || locationType === LocationType.ExtraPickupStop;

/** What the clock needs of a tour: its load, its stops (which one the truck is at) and the timeline (when it arrived). */
export interface TourForClock {
  loadId: string;
  stops: TourStopView[];
  /** The agreed terms and the stops' appointments, as the tracking answer carries them. */
  detention?: TrackDetention | undefined;
}

/**
 * The clock of the stop the truck is at now (arrived, not yet left), on the driver's page and the
 * tracking page; nothing between stops. The terms and the appointments come with the tour's
 * tracking answer (the assigned driver reads no load); without them, from the load.
 */
export function CurrentStopClock({
  tour,
  events,
}: {
  tour: TourForClock | null;
  events: readonly TimelineEntry[];
}) {
  const [load, setLoad] = useState<LoadDetail | null>(null);
  const detention = tour?.detention ?? null;
  const loadId = detention ? null : (tour?.loadId ?? null);
  useEffect(() => {
    if (!loadId) return;
    let current = true;
    loadsApi
      .get(loadId)
      .then((answer) => {
        if (current) setLoad(answer);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [loadId]);

  const stop = tour?.stops.find((entry) => entry.arrived && !entry.departed) ?? null;
  const arrivedAt = useMemo(() => {
    if (!stop) return null;
    const arrivals = events.filter((entry) => entry.type === 'arrived' && entry.stopId === stop.id);
    return arrivals.at(-1)?.at ?? null;
  }, [events, stop?.id]);

  if (!stop || !arrivedAt) return null;
  const pickup = pickupSide(stop.locationType);
  if (detention) {
    const appointment = detention.appointments.find((entry) => entry.stopId === stop.id);
    return (
      <DetentionClock
        stopName={stop.name}
        arrivedAt={arrivedAt}
        appointmentAt={appointment?.at ?? null}
        zone={appointment?.timezone ?? null}
        terms={termsOf(detention)}
        pickupSide={pickup}
      />
    );
  }
  if (!load || load.id !== loadId) return null;
  return (
    <DetentionClock
      stopName={stop.name}
      arrivedAt={arrivedAt}
      appointmentAt={pickup ? load.pickupTimestampStart : load.dropOffTimestampStart}
      zone={pickup ? load.pickupTimezone : load.dropoffTimezone}
      terms={termsOf(load)}
      pickupSide={pickup}
    />
  );
}
