/**
 * Accessorial terms (detention, TONU, layover, lumper) as the loads and offers carry them, the
 * form's state for them and its checks. A load or an offer without terms has `terms` null or absent:
 * it reads "No terms".
 */

export type LumperPaidBy = 'shipper' | 'carrier-reimbursed';

/** The `terms` of POST/PUT loads, GET loads/{id} and an offer or counter-offer. */
export interface AccessorialTerms {
  /** Hours at a stop before detention starts. */
  freeTimeHours: { pickup: number; delivery: number };
  /** Dollars per hour of detention past the free time. */
  detentionPerHour: number;
  /** The most a stop's detention may come to, in dollars; null: no cap. */
  detentionCap: number | null;
  /** Truck ordered, not used: the flat fee when the shipper cancels after the carrier committed. */
  tonu: number;
  /** Dollars per day the truck is held overnight. */
  layoverPerDay: number;
  lumper: LumperPaidBy;
  /** Minutes after the appointment a truck may arrive and still earn detention. */
  graceMinutes: number;
  /** Hours the shipper has to approve or dispute a claim; silence approves it after. */
  disputeWindowHours: number;
}

/** Anything that may carry terms: a load, an offer, a marketplace row. */
export type WithTerms = { terms?: AccessorialTerms | null };

/** The terms a load or offer carries, null when it has none (posted before terms, or without). */
export const termsOf = (value: unknown): AccessorialTerms | null => {
  if (typeof value !== 'object' || value === null) return null;
  const terms = (value as WithTerms).terms;
  return terms && typeof terms === 'object' && terms.freeTimeHours ? terms : null;
};

/** What a dispatcher usually agrees when the organization has no defaults of its own. */
export const usualTerms: AccessorialTerms = {
  freeTimeHours: { pickup: 2, delivery: 2 },
  detentionPerHour: 75,
  detentionCap: 600,
  tonu: 250,
  layoverPerDay: 300,
  lumper: 'carrier-reimbursed',
  graceMinutes: 30,
  disputeWindowHours: 48,
};

/** The terms part of a form: on or off, and each number as typed (null while empty). */
export interface TermsFormValues {
  enabled: boolean;
  pickupFreeHours: number | null;
  deliveryFreeHours: number | null;
  detentionPerHour: number | null;
  detentionCap: number | null;
  tonu: number | null;
  layoverPerDay: number | null;
  lumper: LumperPaidBy;
  graceMinutes: number | null;
  disputeWindowHours: number | null;
}

export type TermsNumberField = Exclude<keyof TermsFormValues, 'enabled' | 'lumper'>;

export const termsFormOf = (terms: AccessorialTerms | null, enabled = terms !== null) => {
  const from = terms ?? usualTerms;
  return {
    enabled,
    pickupFreeHours: from.freeTimeHours.pickup,
    deliveryFreeHours: from.freeTimeHours.delivery,
    detentionPerHour: from.detentionPerHour,
    detentionCap: from.detentionCap,
    tonu: from.tonu,
    layoverPerDay: from.layoverPerDay,
    lumper: from.lumper,
    graceMinutes: from.graceMinutes,
    disputeWindowHours: from.disputeWindowHours,
  } satisfies TermsFormValues;
};

/** The body's `terms`: null when the form has them off. */
export const toTerms = (values: TermsFormValues): AccessorialTerms | null =>
  values.enabled
    ? {
        freeTimeHours: {
          pickup: values.pickupFreeHours ?? 0,
          delivery: values.deliveryFreeHours ?? 0,
        },
        detentionPerHour: values.detentionPerHour ?? 0,
        detentionCap: values.detentionCap ?? 0,
        tonu: values.tonu ?? 0,
        layoverPerDay: values.layoverPerDay ?? 0,
        lumper: values.lumper,
        graceMinutes: values.graceMinutes ?? 0,
        disputeWindowHours: values.disputeWindowHours ?? 0,
      }
    : null;

/** The body path of each form field, as the server names it in a 400. */
export const termsPaths: Record<TermsNumberField | 'lumper', string> = {
  pickupFreeHours: 'terms.freeTimeHours.pickup',
  deliveryFreeHours: 'terms.freeTimeHours.delivery',
  detentionPerHour: 'terms.detentionPerHour',
  detentionCap: 'terms.detentionCap',
  tonu: 'terms.tonu',
  layoverPerDay: 'terms.layoverPerDay',
  lumper: 'terms.lumper',
  graceMinutes: 'terms.graceMinutes',
  disputeWindowHours: 'terms.disputeWindowHours',
};

/** Each number's bounds: free time within a day, grace within 4 hours, a window of 1 hour to 30 days. */
const bounds: Record<TermsNumberField, { min: number; max: number }> = {
  pickupFreeHours: { min: 0, max: 24 },
  deliveryFreeHours: { min: 0, max: 24 },
  detentionPerHour: { min: 0, max: 10_000 },
  detentionCap: { min: 0, max: 100_000 },
  tonu: { min: 0, max: 100_000 },
  layoverPerDay: { min: 0, max: 100_000 },
  graceMinutes: { min: 0, max: 240 },
  disputeWindowHours: { min: 1, max: 720 },
};

/** A check's message: its translation key under `accessorials.errors` and its values. */
export interface TermsError {
  key: 'required' | 'range' | 'capBelowRate';
  values?: Record<string, number>;
}

/** The terms' checks, by body path ('terms.detentionCap'); none when the terms are off. */
export function validateTerms(values: TermsFormValues): Record<string, TermsError> {
  if (!values.enabled) return {};
  const errors: Record<string, TermsError> = {};
  for (const field of Object.keys(bounds) as TermsNumberField[]) {
    const value = values[field];
    const { min, max } = bounds[field];
    if (value === null || !Number.isFinite(value)) errors[termsPaths[field]] = { key: 'required' };
    else if (value < min || value > max)
      errors[termsPaths[field]] = { key: 'range', values: { min, max } };
  }
  if (
    !errors[termsPaths.detentionCap] &&
    values.detentionPerHour !== null &&
    values.detentionCap !== null &&
    values.detentionPerHour > 0 &&
    values.detentionCap < values.detentionPerHour
  )
    errors[termsPaths.detentionCap] = { key: 'capBelowRate' };
  return errors;
}

/** The organization's default terms in GET /account, where the server gives them. */
export const defaultTermsOf = (account: unknown): AccessorialTerms | null => {
  if (typeof account !== 'object' || account === null) return null;
  const sections = account as Record<string, unknown>;
  for (const section of ['shipper', 'organization']) {
    const value = sections[section];
    if (typeof value === 'object' && value !== null) {
      const found = termsOf({ terms: (value as { defaultTerms?: unknown }).defaultTerms });
      if (found) return found;
    }
  }
  return termsOf({ terms: sections.defaultTerms });
};

/** The terms a counter-offer proposed (`counterTerms` of an offer), null when it proposed none. */
export const counterTermsOf = (offer: unknown): AccessorialTerms | null =>
  typeof offer === 'object' && offer !== null
    ? termsOf({ terms: (offer as Record<string, unknown>).counterTerms })
    : null;

/** Whether two sets of terms say the same, field by field (whatever order their keys came in). */
export const sameTermsAs = (a: AccessorialTerms | null, b: AccessorialTerms | null): boolean => {
  if (a === null || b === null) return a === b;
  return (
    a.freeTimeHours.pickup === b.freeTimeHours.pickup &&
    a.freeTimeHours.delivery === b.freeTimeHours.delivery &&
    a.detentionPerHour === b.detentionPerHour &&
    (a.detentionCap ?? null) === (b.detentionCap ?? null) &&
    a.tonu === b.tonu &&
    a.layoverPerDay === b.layoverPerDay &&
    a.lumper === b.lumper &&
    a.graceMinutes === b.graceMinutes &&
    a.disputeWindowHours === b.disputeWindowHours
  );
};
