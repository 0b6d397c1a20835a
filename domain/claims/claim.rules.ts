/**
 * The arithmetic of accessorials, from the agreed terms and recorded times only (docs/domain.md
 * "Accessorial terms and claims"). Pure: the screens' detention clock and the claims use the same.
 */
import type { AccessorialTerms } from '../loads/terms.ts';
import type { StopKind } from './claim.types.ts';

const MINUTE = 60_000;
const cents = (value: number) => Math.round(value * 100) / 100;

export type DetentionReason = 'late' | 'no-arrival' | 'no-terms' | null;

export type Detention = {
  /** When the clock starts: the later of the arrival and the appointment. */
  clockStartsAt: string | null;
  /** When detention starts: the clock's start plus the free time. */
  detentionStartsAt: string | null;
  /** Minutes on site counted by the clock (to `leftAt` or `now`). */
  minutesOnSite: number;
  /** Billable minutes beyond the free time (0 for a late truck). */
  minutes: number;
  /** Under the rate and the cap. */
  amount: number;
  /** Why none is earned: a truck later than its appointment plus the grace, or no recorded arrival. */
  reason: DetentionReason;
};

export const DETENTION_REASONS: Record<Exclude<DetentionReason, null>, string> = {
  late: 'The truck arrived after its appointment and the grace period, so it earns no detention',
  'no-arrival': 'No arrival was recorded at this stop',
  'no-terms': 'This load has no accessorial terms',
};

/**
 * Detention at one stop: the clock starts at the later of the arrival and the appointment (an
 * early truck does not start it); the free time of the stop's kind is not billed; billed by the
 * minute at the hourly rate, up to the cap. A truck arriving after its appointment plus the grace
 * earns none. `until` is the departure, or now while the truck is still there.
 */
export const detentionOf = (
  terms: AccessorialTerms | null,
  stop: { kind: StopKind; arrivedAt: string | null; appointmentAt: string | null },
  until: string,
): Detention => {
  const none = (reason: DetentionReason, clockStartsAt: string | null = null): Detention => ({
    clockStartsAt,
    detentionStartsAt: null,
    minutesOnSite: 0,
    minutes: 0,
    amount: 0,
    reason,
  });
  if (!terms) return none('no-terms');
  if (!stop.arrivedAt) return none('no-arrival');
  const arrived = Date.parse(stop.arrivedAt);
  const appointment = stop.appointmentAt ? Date.parse(stop.appointmentAt) : null;
  if (appointment !== null && arrived > appointment + terms.graceMinutes * MINUTE)
    return none('late', stop.arrivedAt);
  const start = appointment === null ? arrived : Math.max(arrived, appointment);
  const free = terms.freeTimeHours[stop.kind] * 60;
  const minutesOnSite = Math.max(0, Math.floor((Date.parse(until) - start) / MINUTE));
  const minutes = Math.max(0, minutesOnSite - free);
  const uncapped = cents((minutes / 60) * terms.detentionPerHour);
  return {
    clockStartsAt: new Date(start).toISOString(),
    detentionStartsAt: new Date(start + free * MINUTE).toISOString(),
    minutesOnSite,
    minutes,
    amount: terms.detentionCap === null ? uncapped : Math.min(uncapped, terms.detentionCap),
    reason: null,
  };
};

/** The calendar day of an instant in a time zone, as YYYY-MM-DD. */
const localDay = (at: number, timezone: string): string => {
  try {
    return new Date(at).toLocaleDateString('en-CA', { timeZone: timezone });
  } catch {
    return new Date(at).toISOString().slice(0, 10);
  }
};

/**
 * Layover: a truck held overnight at a stop is paid per day, one day for each midnight (in the
 * stop's zone) between the start of its clock and its departure.
 */
export const layoverOf = (
  terms: AccessorialTerms | null,
  stop: { arrivedAt: string | null; appointmentAt: string | null; timezone: string },
  leftAt: string,
): { days: number; minutes: number; amount: number } => {
  if (!terms || !stop.arrivedAt) return { days: 0, minutes: 0, amount: 0 };
  const arrived = Date.parse(stop.arrivedAt);
  const appointment = stop.appointmentAt ? Date.parse(stop.appointmentAt) : null;
  const start = appointment === null ? arrived : Math.max(arrived, appointment);
  const end = Date.parse(leftAt);
  if (end <= start) return { days: 0, minutes: 0, amount: 0 };
  const first = Date.parse(`${localDay(start, stop.timezone)}T00:00:00Z`);
  const last = Date.parse(`${localDay(end, stop.timezone)}T00:00:00Z`);
  const days = Math.round((last - first) / (24 * 60 * MINUTE));
  return {
    days,
    minutes: Math.floor((end - start) / MINUTE),
    amount: cents(days * terms.layoverPerDay),
  };
};

/** TONU: the terms' flat fee once the carrier confirmed (or was dispatched); nothing before. */
export const tonuOf = (
  terms: AccessorialTerms | null,
  committed: 'confirmed' | 'dispatched' | null,
): number => (terms && committed ? terms.tonu : 0);

/** When silence approves a claim made at `claimedAt`. */
export const dueAtOf = (terms: AccessorialTerms, claimedAt: string): string =>
  new Date(Date.parse(claimedAt) + terms.disputeWindowHours * 60 * MINUTE).toISOString();
