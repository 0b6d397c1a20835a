import { z } from 'zod';
import { observedTimeFormatMessage, observedTimeWindowMessage } from './messages.ts';

export { observedTimeFormatMessage, observedTimeWindowMessage };

/** How far back a time something was observed at may lie: a phone that was offline for a week still delivers. */
export const OBSERVED_TIME_MAX_AGE_MS = 7 * 24 * 60 * 60_000;
/** How far ahead of the server's clock it may lie: a device's clock that runs a little fast. */
export const OBSERVED_TIME_MAX_AHEAD_MS = 5 * 60_000;

/**
 * Whether a time something was observed at (a position's fix, an ELD report) lies from 7 days
 * before `nowMs` to 5 minutes after it. Anything else is a broken clock or a forged time, and would
 * sit in the log and the read models for good.
 */
export const isObservedTimeInWindow = (atMs: number, nowMs: number): boolean =>
  Number.isFinite(atMs) &&
  atMs >= nowMs - OBSERVED_TIME_MAX_AGE_MS &&
  atMs <= nowMs + OBSERVED_TIME_MAX_AHEAD_MS;

/**
 * A client's "when this happened": an ISO 8601 time with its offset, inside the window around
 * `now()` (read as each value is checked), answered as the canonical UTC ISO string. A time that
 * does not parse, or whose year has more than four digits ('+275760-09-13T00:00:00Z'), is refused
 * by its format; 0000-01-01 or next year by the window; either error names `field`.
 */
export const observedTime = (field: string, now: () => number) =>
  z.iso
    .datetime({ offset: true, error: observedTimeFormatMessage(field), abort: true })
    .refine((text) => Number.isFinite(Date.parse(text)), {
      error: observedTimeFormatMessage(field),
      abort: true,
    })
    .refine((text) => isObservedTimeInWindow(Date.parse(text), now()), {
      error: observedTimeWindowMessage(field),
    })
    .transform((text) => new Date(text).toISOString());
