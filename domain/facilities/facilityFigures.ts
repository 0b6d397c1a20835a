/**
 * A facility's figures (docs/domain.md "Facilities"), computed from its visits: time on site
 * (arrival to departure), when trucks arrive by weekday and hour in the stop's time zone, the share
 * of arrivals by the appointment plus the grace, and the share of visits with a detention claim.
 * Each figure counts the visits behind it and is null under `FIGURES_FROM` of them. Pure functions.
 */
import { facilityTags, type FacilityTag } from './facility.ts';

/** Under this many visits behind a figure, the figure is not shown. */
export const FIGURES_FROM = 3;

/** One stop of a tour at the facility, as the log recorded it. */
export type FacilityVisit = {
  arrivedAt: string | null;
  departedAt: string | null;
  /** The stop's appointment (the load's pickup or drop-off start); null for stops between. */
  appointmentAt: string | null;
  graceMinutes: number;
  /** The IANA time zone of the stop. */
  timeZone: string;
  /** A detention claim was made for this stop. */
  detention: boolean;
};

export type WeekdayHour = {
  /** 1 Monday to 7 Sunday, in the stop's time zone. */
  weekday: number;
  /** 0 to 23, the hour of the arrival in the stop's time zone. */
  hour: number;
  /** Minutes on site, null under `FIGURES_FROM` visits. */
  median: number | null;
  visits: number;
};

export type FacilityFigures = {
  /** Visits with both an arrival and a departure. */
  visits: number;
  timeOnSite: { median: number | null; p75: number | null };
  byWeekday: WeekdayHour[];
  /** 0 to 1: of the measured arrivals with an appointment, those by the appointment plus the grace. */
  onTimeShare: number | null;
  /** The arrivals with an appointment behind `onTimeShare`. */
  onTimeVisits: number;
  /** 0 to 1: of the visits, those with a detention claim. */
  detentionShare: number | null;
};

/** The value at `fraction` of the sorted values, interpolated between neighbours (as percentile_cont). */
export const percentile = (values: readonly number[], fraction: number): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (sorted.length - 1) * fraction;
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
};

const whole = (value: number | null) => (value === null ? null : Math.round(value));
const share = (part: number, whole: number) => Math.round((part / whole) * 100) / 100;

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const formats = new Map<string, Intl.DateTimeFormat>();
const formatIn = (timeZone: string) => {
  let format = formats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        weekday: 'short',
        hour: '2-digit',
        hourCycle: 'h23',
      });
    } catch {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: 'UTC',
        weekday: 'short',
        hour: '2-digit',
        hourCycle: 'h23',
      });
    }
    formats.set(timeZone, format);
  }
  return format;
};

/** The weekday (1 Monday to 7 Sunday) and hour of an instant in a time zone. */
export const weekdayHourOf = (at: string, timeZone: string): { weekday: number; hour: number } => {
  const parts = formatIn(timeZone).formatToParts(new Date(at));
  const weekday = WEEKDAYS[parts.find((part) => part.type === 'weekday')?.value ?? ''] ?? 1;
  const hour = Number(parts.find((part) => part.type === 'hour')?.value ?? 0) % 24;
  return { weekday, hour };
};

const minutesOf = (visit: FacilityVisit) =>
  (Date.parse(visit.departedAt!) - Date.parse(visit.arrivedAt!)) / 60_000;

/** The figures of a facility from its visits (any order). */
export const facilityFigures = (visits: readonly FacilityVisit[]): FacilityFigures => {
  const measured = visits.filter(
    (visit) =>
      visit.arrivedAt !== null &&
      visit.departedAt !== null &&
      Date.parse(visit.departedAt) >= Date.parse(visit.arrivedAt),
  );
  const minutes = measured.map(minutesOf);
  const enough = measured.length >= FIGURES_FROM;

  const cells = new Map<string, { weekday: number; hour: number; minutes: number[] }>();
  for (const visit of measured) {
    const { weekday, hour } = weekdayHourOf(visit.arrivedAt!, visit.timeZone);
    const key = `${weekday}:${hour}`;
    const cell = cells.get(key) ?? { weekday, hour, minutes: [] };
    cell.minutes.push(minutesOf(visit));
    cells.set(key, cell);
  }
  const byWeekday = [...cells.values()]
    .sort((a, b) => a.weekday - b.weekday || a.hour - b.hour)
    .map((cell) => ({
      weekday: cell.weekday,
      hour: cell.hour,
      median: cell.minutes.length >= FIGURES_FROM ? whole(percentile(cell.minutes, 0.5)) : null,
      visits: cell.minutes.length,
    }));

  const appointed = visits.filter((visit) => visit.arrivedAt !== null && visit.appointmentAt);
  const onTime = appointed.filter(
    (visit) =>
      Date.parse(visit.arrivedAt!) <=
      Date.parse(visit.appointmentAt!) + visit.graceMinutes * 60_000,
  ).length;

  return {
    visits: measured.length,
    timeOnSite: {
      median: enough ? whole(percentile(minutes, 0.5)) : null,
      p75: enough ? whole(percentile(minutes, 0.75)) : null,
    },
    byWeekday,
    onTimeShare: appointed.length >= FIGURES_FROM ? share(onTime, appointed.length) : null,
    onTimeVisits: appointed.length,
    detentionShare: enough
      ? share(measured.filter((visit) => visit.detention).length, measured.length)
      : null,
  };
};

/** Every tag with the number of drivers whose latest tagging holds it, in the tags' order. */
export const tagCounts = (
  tagsByDriver: readonly (readonly string[])[],
): { tag: FacilityTag; count: number }[] =>
  facilityTags.map((tag) => ({
    tag,
    count: tagsByDriver.filter((tags) => tags.includes(tag)).length,
  }));
