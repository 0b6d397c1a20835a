import { z } from 'zod';
import { limits } from '../catalog.ts';
import { emailSchema } from './fields.ts';
import { PIN_MESSAGE } from './messages.ts';

/** The verification code (PIN) e-mailed at sign-up: exactly 6 digits (specification sections 5 and 9). */
export const PIN_PATTERN = new RegExp(`^\\d{${limits.pinLength}}$`);
// Defined in messages.ts, apart from zod and luxon, for the browser's message tables.
export { PIN_MESSAGE };

export const pinSchema = z
  .string({ error: PIN_MESSAGE })
  .trim()
  .regex(PIN_PATTERN, { error: PIN_MESSAGE });

/** POST confirm-signup. */
export const confirmSignupBodySchema = z.object({ email: emailSchema, code: pinSchema });
export type ConfirmSignupBody = z.infer<typeof confirmSignupBodySchema>;

/** POST confirm-signup/resend: the address a new sign-up code goes to. */
export const resendSignupCodeBodySchema = z.object({ email: emailSchema });
