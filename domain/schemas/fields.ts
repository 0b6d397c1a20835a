import { z } from 'zod';
import { EMAIL_REQUIRED_MESSAGE, EMAIL_FORMAT_MESSAGE } from './messages.ts';

/** A required text: missing, empty or blank gives `message`; the value is trimmed. */
export const requiredText = (message: string) => z.string({ error: message }).trim().min(1, { error: message });

// Defined in messages.ts, apart from zod and luxon, for the browser's message tables.
export { EMAIL_REQUIRED_MESSAGE, EMAIL_FORMAT_MESSAGE };

/** 'Please enter Email Address!' when empty, else 'The Email you entered is not a valid format!'. */
export const emailSchema = z.string({ error: EMAIL_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: EMAIL_REQUIRED_MESSAGE, abort: true })
  .email({ error: EMAIL_FORMAT_MESSAGE });
