import { z } from 'zod';

/**
 * Times a client sends that are not observations (those are `observedTime`): table filters, a
 * history replay, a load's pickup. The database stores years 4713 BC to 294276 AD and JavaScript
 * 271821 BC to 275760 AD; anything outside 1970..2100 is a typing error or a probe, and is refused
 * with a 400 naming the field before it reaches SQL.
 */
export const SANE_YEAR_MIN = 1970;
export const SANE_YEAR_MAX = 2100;
const SANE_MIN_MS = Date.UTC(SANE_YEAR_MIN, 0, 1);
const SANE_MAX_MS = Date.UTC(SANE_YEAR_MAX + 1, 0, 1);

/** Whether `ms` lies from 1970-01-01 to the end of 2100 (UTC). */
export const isSaneInstant = (ms: number): boolean =>
  Number.isFinite(ms) && ms >= SANE_MIN_MS && ms < SANE_MAX_MS;

export const saneTimeMessage = (field: string) =>
  `${field} must be a date and time between ${SANE_YEAR_MIN} and ${SANE_YEAR_MAX}`;

/** A date and time as text (ISO 8601, a four-digit year), in 1970..2100, answered as an ISO instant in UTC; null when it is not one. */
export const saneInstantOf = (value: unknown): string | null => {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value.trim())) return null;
  const ms = Date.parse(value.trim());
  return isSaneInstant(ms) ? new Date(ms).toISOString() : null;
};

/** The zod form of {@link saneInstantOf}: an ISO date and time in 1970..2100; the error names `field`. */
export const saneInstant = (field: string) =>
  z.string({ error: saneTimeMessage(field) }).transform((value, context) => {
    const instant = saneInstantOf(value);
    if (instant === null) {
      context.addIssue({ code: 'custom', message: saneTimeMessage(field) });
      return z.NEVER;
    }
    return instant;
  });

/** How far ahead a business date (a pickup, a delivery, an offer's expiration) may lie: two years. */
export const BUSINESS_YEARS_AHEAD = 2;
export const BUSINESS_MAX_AHEAD_MS = BUSINESS_YEARS_AHEAD * 366 * 24 * 60 * 60_000;
export const businessDateTooFarMessage = `Please pick a date within the next ${BUSINESS_YEARS_AHEAD} years.`;
