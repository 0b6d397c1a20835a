/**
 * Accessorial terms (docs/domain.md "Accessorial terms and claims"): what a carrier is paid beyond
 * the line haul when a stop keeps its truck (detention, layover), when the shipper cancels a truck it
 * ordered (TONU) or when a third party unloads it (lumper). Agreed on the load and its accepted offer
 * and printed on the rate confirmation; a claim is computed only from them and the recorded events.
 */

export type LumperPayer = 'shipper' | 'carrier-reimbursed';

export type AccessorialTerms = {
  /** Hours a truck may wait at a stop before detention starts. */
  freeTimeHours: { pickup: number; delivery: number };
  /** Dollars per hour of detention (billed to the minute). */
  detentionPerHour: number;
  /** The most a stop's detention may come to, in dollars; null: no cap. */
  detentionCap: number | null;
  /** Truck ordered, not used: the flat fee when the shipper cancels after the carrier committed. */
  tonu: number;
  /** Dollars per day (per night) a truck is held at a stop. */
  layoverPerDay: number;
  /** Who pays the lumper: the shipper directly, or the carrier reimbursed against the receipt. */
  lumper: LumperPayer;
  /** Minutes after the appointment a truck may still arrive and earn detention. */
  graceMinutes: number;
  /** Hours the shipper has to answer a claim before silence approves it. */
  disputeWindowHours: number;
};

/** The platform's terms where neither the load nor the shipper's defaults say otherwise. */
export const STANDARD_TERMS: AccessorialTerms = {
  freeTimeHours: { pickup: 2, delivery: 2 },
  detentionPerHour: 50,
  detentionCap: 500,
  tonu: 150,
  layoverPerDay: 250,
  lumper: 'carrier-reimbursed',
  graceMinutes: 30,
  disputeWindowHours: 48,
};

/** A body's terms: any field left out comes from the defaults. */
export type TermsInput = {
  freeTimeHours?: { pickup?: number | undefined; delivery?: number | undefined } | undefined;
  detentionPerHour?: number | undefined;
  detentionCap?: number | null | undefined;
  tonu?: number | undefined;
  layoverPerDay?: number | undefined;
  lumper?: LumperPayer | undefined;
  graceMinutes?: number | undefined;
  disputeWindowHours?: number | undefined;
};

/** The terms a body asks for, each missing field taken from `defaults`. */
export const completeTerms = (input: TermsInput, defaults: AccessorialTerms): AccessorialTerms => ({
  freeTimeHours: {
    pickup: input.freeTimeHours?.pickup ?? defaults.freeTimeHours.pickup,
    delivery: input.freeTimeHours?.delivery ?? defaults.freeTimeHours.delivery,
  },
  detentionPerHour: input.detentionPerHour ?? defaults.detentionPerHour,
  detentionCap: input.detentionCap === undefined ? defaults.detentionCap : input.detentionCap,
  tonu: input.tonu ?? defaults.tonu,
  layoverPerDay: input.layoverPerDay ?? defaults.layoverPerDay,
  lumper: input.lumper ?? defaults.lumper,
  graceMinutes: input.graceMinutes ?? defaults.graceMinutes,
  disputeWindowHours: input.disputeWindowHours ?? defaults.disputeWindowHours,
});

export const sameTerms = (a: AccessorialTerms | null, b: AccessorialTerms | null): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

/**
 * The terms a booking agreed: the accepted offer's own when it proposed some, else the load's;
 * null when neither has any (a load posted before terms existed).
 */
export const agreedTerms = (
  load: { terms?: AccessorialTerms | null | undefined },
  offer: { terms?: AccessorialTerms | null | undefined } | null,
): AccessorialTerms | null => offer?.terms ?? load.terms ?? null;
