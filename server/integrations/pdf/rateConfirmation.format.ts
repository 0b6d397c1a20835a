import { DateTime } from 'luxon';

/**
 * How the rate confirmation writes money, weights and times. Always US English, whatever the
 * host's locale, so the same load gives the same document everywhere.
 */

const dollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** 1234.5 → "$1,234.50". */
export const formatUsd = (amount: number): string => dollars.format(amount);

/** 42000 → "42,000 lbs". */
export const formatPounds = (weight: number): string => `${wholeNumber.format(weight)} lbs`;

/**
 * An instant as read on the wall clock of `zone`, with the zone's abbreviation for that date:
 * "2026-12-01T14:00:00Z" in America/Chicago → "12/01/2026 08:00 AM CST". A value that is not a
 * date is written as it came rather than as "Invalid DateTime".
 */
export function formatZoned(iso: string, zone: string): string {
  const time = DateTime.fromISO(iso, { zone, locale: 'en-US' });
  return time.isValid ? time.toFormat('MM/dd/yyyy hh:mm a ZZZZ') : iso;
}

/** The date part only: "12/01/2026". */
export function formatZonedDate(iso: string, zone: string): string {
  const time = DateTime.fromISO(iso, { zone, locale: 'en-US' });
  return time.isValid ? time.toFormat('MM/dd/yyyy') : iso;
}

/** The issue instant, refused when it is not one: it becomes the document's creation date. */
export function parseInstant(iso: string, what: string): Date {
  // A time without a zone designator is read as UTC, never in the host's zone.
  const time = DateTime.fromISO(iso, { zone: 'utc' });
  if (!time.isValid) throw new RangeError(`${what} is not an ISO 8601 instant: ${iso}`);
  return time.toJSDate();
}
