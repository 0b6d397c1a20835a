import { z } from 'zod';
import { PHONE_FORMAT_MESSAGE, PHONE_REQUIRED_MESSAGE } from './messages.ts';

/**
 * A US phone number (specification section 5): three digits, optionally in parentheses, an optional
 * separator (space, dash or dot), three digits, an optional separator, four digits. Accepts
 * "(555) 555-5555", "555-555-5555", "555.555.5555" and "5555555555".
 */
export const US_PHONE_PATTERN = /^(?:\(\d{3}\)|\d{3})[ .-]?\d{3}[ .-]?\d{4}$/;
/** The same, or empty: for optional phones (a stop's contact phone). */
export const OPTIONAL_US_PHONE_PATTERN = new RegExp(
  `^(?:${US_PHONE_PATTERN.source.slice(1, -1)})?$`,
);

// Defined in messages.ts, apart from zod and luxon, for the browser's message tables.
export { PHONE_FORMAT_MESSAGE, PHONE_REQUIRED_MESSAGE };

export const isUsPhone = (value: string): boolean => US_PHONE_PATTERN.test(value.trim());

/** A required phone: empty gives `requiredMessage` alone, anything else must match the pattern. */
export const requiredPhone = (requiredMessage: string = PHONE_REQUIRED_MESSAGE) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { error: requiredMessage, abort: true })
    .regex(US_PHONE_PATTERN, { error: PHONE_FORMAT_MESSAGE });

/** 'Please enter phone!' when empty, then the US format. */
export const phoneSchema = requiredPhone();

/** An optional phone: absent or empty passes, anything else must match the pattern. */
export const optionalPhoneSchema = z
  .string({ error: PHONE_FORMAT_MESSAGE })
  .trim()
  .regex(OPTIONAL_US_PHONE_PATTERN, { error: PHONE_FORMAT_MESSAGE })
  .optional();
