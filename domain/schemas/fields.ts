import { z } from 'zod';
import {
  EMAIL_REQUIRED_MESSAGE,
  EMAIL_FORMAT_MESSAGE,
  INTEREST_CONTACT_REQUIRED_MESSAGE,
  INTEREST_CONTACT_TOO_LONG_MESSAGE,
} from './messages.ts';

/** The longest text a field takes unless it says otherwise: names, usernames, addresses, codes. */
export const TEXT_MAX_LENGTH = 200;
export const textTooLongMessage = (label: string, max: number) =>
  `${label} can have at most ${max.toLocaleString('en-US')} characters`;

/** A required text: missing, empty or blank gives `message`; the value is trimmed; longer than `max` is refused. */
export const requiredText = (
  message: string,
  max: number = TEXT_MAX_LENGTH,
  label = 'This field',
) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: textTooLongMessage(label, max) });

// Defined in messages.ts, apart from zod and luxon, for the browser's message tables.
export {
  EMAIL_REQUIRED_MESSAGE,
  EMAIL_FORMAT_MESSAGE,
  INTEREST_CONTACT_REQUIRED_MESSAGE,
  INTEREST_CONTACT_TOO_LONG_MESSAGE,
};

/** 'Please enter Email Address!' when empty, else 'The Email you entered is not a valid format!'. */
export const emailSchema = z
  .string({ error: EMAIL_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: EMAIL_REQUIRED_MESSAGE, abort: true })
  .max(254, { error: EMAIL_FORMAT_MESSAGE, abort: true })
  .email({ error: EMAIL_FORMAT_MESSAGE });

export const INTEREST_CONTACT_MAX_LENGTH = 200;

/** One line: line breaks, tabs and other control characters become single spaces; then trimmed. */
export const oneLine = (text: string): string =>
  text
    .normalize('NFKC')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();

/**
 * The landing form's one input (specification: sent when not empty, no format check): what the
 * visitor typed, as one line of 1 to 200 characters; usually an e-mail address, perhaps a phone.
 */
export const interestContactSchema = z
  .string({ error: INTEREST_CONTACT_REQUIRED_MESSAGE })
  .overwrite(oneLine)
  .min(1, { error: INTEREST_CONTACT_REQUIRED_MESSAGE, abort: true })
  .max(INTEREST_CONTACT_MAX_LENGTH, { error: INTEREST_CONTACT_TOO_LONG_MESSAGE });
