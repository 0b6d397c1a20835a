/**
 * A booking's trust flags (docs/domain.md "Trust flags"): what the shipper should know about the
 * carrier that booked its load and the truck it sends, against double brokering and impostor
 * pickups. Flags never block anything; they inform the shipper.
 *
 * The facts come from the read models (see `projections/trust/`); this module only weighs them, so
 * the same rule reads a load's booking and, before acceptance, a carrier's offer.
 */
import { TourStatus } from '../catalog.ts';

export const trustFlagCodes = [
  'authority_inactive',
  'insurance_expired',
  'overbooked',
  'driver_not_of_carrier',
  'contact_changed_recently',
  'no_tractor_number',
  'pickup_held',
] as const;
export type TrustFlagCode = (typeof trustFlagCodes)[number];

export const trustStates = ['ready', 'flagged', 'protected'] as const;
export type TrustState = (typeof trustStates)[number];

export type TrustReason = { code: TrustFlagCode; text: string };
export type Trust = { state: TrustState; reasons: TrustReason[] };

/** The English sentence of each flag (the client shows its own translation by code). */
export const trustFlagTexts: Record<TrustFlagCode, string> = {
  authority_inactive: "The carrier's operating authority is not active",
  insurance_expired: "The carrier's insurance is not on file",
  overbooked: 'The carrier holds more loads at once than the trucks it registered',
  driver_not_of_carrier: 'The assigned driver is not an active member of the carrier',
  contact_changed_recently:
    "The booking was made within 24 hours of a change of the carrier's contact details",
  no_tractor_number: 'The driver was assigned without a tractor number',
  pickup_held: 'The dock held the pickup',
};

/** A contact change this long before a booking (or while its offer was open) flags it. */
export const CONTACT_CHANGE_WINDOW_MS = 24 * 3600_000;

export const READY: Trust = Object.freeze({ state: 'ready', reasons: [] }) as Trust;

const reasonsOf = (codes: TrustFlagCode[]): TrustReason[] =>
  trustFlagCodes
    .filter((code) => codes.includes(code))
    .map((code) => ({ code, text: trustFlagTexts[code] }));

/** What the carrier's recorded authority says; nothing when none was recorded. */
export type CarrierStanding = {
  authorityStatus: string | null;
  insuranceOnFile: boolean | null;
};

export const standingCodes = (standing: CarrierStanding | null | undefined): TrustFlagCode[] => {
  const codes: TrustFlagCode[] = [];
  if (standing?.authorityStatus === 'inactive' || standing?.authorityStatus === 'revoked')
    codes.push('authority_inactive');
  // A DOT number FMCSA does not know says nothing about insurance (its `false` is no finding).
  if (standing && standing.authorityStatus !== 'unknown' && standing.insuranceOnFile === false)
    codes.push('insurance_expired');
  return codes;
};

/** Whether a contact change requested at one of `requestedAt` falls in the window of a booking. */
export const contactChangedWithin = (
  requestedAt: readonly string[],
  from: string,
  until: string | null,
): boolean => {
  const start = Date.parse(from) - CONTACT_CHANGE_WINDOW_MS;
  const end = until === null ? Number.POSITIVE_INFINITY : Date.parse(until);
  return requestedAt.some((at) => {
    const time = Date.parse(at);
    return time >= start && time <= end;
  });
};

/** Tours that hold a truck: booked, not yet delivered or cancelled. */
export const tourHoldsTruck = (status: number | null): boolean =>
  status !== null &&
  status !== TourStatus.Delivered &&
  status !== TourStatus.DeliveredLegacy &&
  status !== TourStatus.Canceled;

/** The facts of a load's booking, as the read models hold them. */
export type BookingFacts = {
  standing: CarrierStanding | null;
  /** Its tour is beyond the carrier's registered trucks, counting its live tours in booking order. */
  overbooked: boolean;
  /** The assigned driver, if any, and whether it is still an Active member of the booking carrier. */
  driverAssigned: boolean;
  driverOfCarrier: boolean;
  /** Null when no driver was assigned or the assignment named no tractor. */
  tractorNumber: string | null;
  /** The latest dock outcome. */
  dock: 'released' | 'held' | null;
  contactChangedRecently: boolean;
};

/**
 * A booking's trust. Released at the dock (the release code verified, the truck the one named), the
 * doubts about who comes to the dock are answered: only the carrier's standing (authority,
 * insurance) can still flag it, and otherwise it reads protected. Before that, any reason flags it;
 * none reads ready.
 */
export function bookingTrust(facts: BookingFacts): Trust {
  const standing = standingCodes(facts.standing);
  if (facts.dock === 'released')
    return standing.length > 0
      ? { state: 'flagged', reasons: reasonsOf(standing) }
      : { state: 'protected', reasons: [] };
  const codes = [...standing];
  if (facts.overbooked) codes.push('overbooked');
  if (facts.driverAssigned && !facts.driverOfCarrier) codes.push('driver_not_of_carrier');
  if (facts.contactChangedRecently) codes.push('contact_changed_recently');
  if (facts.driverAssigned && !facts.tractorNumber) codes.push('no_tractor_number');
  if (facts.dock === 'held') codes.push('pickup_held');
  return codes.length > 0 ? { state: 'flagged', reasons: reasonsOf(codes) } : READY;
}

/** An offer before acceptance: the proposing carrier's standing, capacity and recent contact change. */
export function offerTrust(facts: {
  standing: CarrierStanding | null;
  /** Accepting it would give the carrier more live tours than registered trucks. */
  wouldOverbook: boolean;
  contactChangedRecently: boolean;
}): Trust {
  const codes = standingCodes(facts.standing);
  if (facts.wouldOverbook) codes.push('overbooked');
  if (facts.contactChangedRecently) codes.push('contact_changed_recently');
  return codes.length > 0 ? { state: 'flagged', reasons: reasonsOf(codes) } : READY;
}

/** The sum of a carrier's registered trucks (`trucks` of its registration, `[{type, count}]`). */
export const registeredTrucks = (trucks: unknown): number =>
  Array.isArray(trucks)
    ? trucks.reduce(
        (sum: number, entry) =>
          sum + (typeof entry?.count === 'number' && entry.count > 0 ? entry.count : 0),
        0,
      )
    : 0;
