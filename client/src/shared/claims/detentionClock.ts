import type { AccessorialTerms } from '../terms/terms.ts';

/**
 * The detention clock of one stop, from the recorded arrival, the appointment and the terms. The
 * clock starts at the later of the arrival and the appointment (an early truck does not start it);
 * detention starts after the stop's free time; a truck that arrived after the appointment plus the
 * grace earns none. A pure function of its inputs: the screens tick `now`.
 */
export interface DetentionClockInput {
  arrivedAt: string;
  appointmentAt: string | null;
  /** The recorded departure: the clock stops there. */
  leftAt?: string | null;
  terms: AccessorialTerms | null;
  /** A pickup (free time at pickup) or a delivery. */
  pickupSide: boolean;
  now: number;
}

export type DetentionClockKind =
  /** No terms on the load: time on site only. */
  | 'noTerms'
  /** Arrived after the appointment plus the grace: no detention. */
  | 'late'
  /** Arrived early: the clock waits for the appointment. */
  | 'waiting'
  /** Inside the free time. */
  | 'free'
  /** Past the free time: detention runs. */
  | 'detention';

export interface DetentionClockState {
  kind: DetentionClockKind;
  /** Where the clock counts from: the later of the arrival and the appointment. */
  clockStartAt: string;
  /** The truck arrived before its appointment. */
  early: boolean;
  /** Minutes on site counted by the clock (from clockStartAt to the departure or now). */
  onSiteMinutes: number;
  freeHours: number | null;
  detentionStartsAt: string | null;
  detentionMinutes: number;
  /** Detention earned so far under the rate and the cap; null without terms or when late. */
  amount: number | null;
  capped: boolean;
}

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

export function detentionClock(input: DetentionClockInput): DetentionClockState {
  const arrived = Date.parse(input.arrivedAt);
  const appointment = input.appointmentAt ? Date.parse(input.appointmentAt) : Number.NaN;
  const hasAppointment = Number.isFinite(appointment);
  const end = input.leftAt ? Math.min(Date.parse(input.leftAt), input.now) : input.now;
  const start = hasAppointment ? Math.max(arrived, appointment) : arrived;
  const early = hasAppointment && arrived < appointment;
  const onSiteMinutes = Math.max(0, Math.floor((end - start) / MINUTE));
  const terms = input.terms;
  const base = {
    clockStartAt: iso(start),
    early,
    onSiteMinutes,
    freeHours: null,
    detentionStartsAt: null,
    detentionMinutes: 0,
    amount: null,
    capped: false,
  };
  if (!terms) return { ...base, kind: 'noTerms' };
  const freeHours = input.pickupSide ? terms.freeTimeHours.pickup : terms.freeTimeHours.delivery;
  if (hasAppointment && arrived > appointment + terms.graceMinutes * MINUTE)
    return { ...base, kind: 'late', freeHours };
  const startsAt = start + freeHours * 60 * MINUTE;
  const withFree = { ...base, freeHours, detentionStartsAt: iso(startsAt) };
  if (end < start) return { ...withFree, kind: 'waiting', amount: 0 };
  if (end < startsAt) return { ...withFree, kind: 'free', amount: 0 };
  const detentionMinutes = Math.floor((end - startsAt) / MINUTE);
  const earned = Math.round(terms.detentionPerHour * detentionMinutes * (100 / 60)) / 100;
  const cap = terms.detentionCap;
  const capped = cap !== null && cap > 0 && earned >= cap;
  return {
    ...withFree,
    kind: 'detention',
    detentionMinutes,
    amount: capped ? cap : earned,
    capped,
  };
}
