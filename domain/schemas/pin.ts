import { z } from 'zod';
import { limits } from '../catalog.ts';
import { emailSchema } from './fields.ts';

/** The verification code (PIN) e-mailed at sign-up: exactly 6 digits (specification sections 5 and 9). */
export const PIN_PATTERN = new RegExp(`^\\d{${limits.pinLength}}$`);
export const PIN_MESSAGE = 'Please enter the 6-digit code';

export const pinSchema = z.string({ error: PIN_MESSAGE }).trim().regex(PIN_PATTERN, { error: PIN_MESSAGE });

/** POST confirm-signup. */
export const confirmSignupBodySchema = z.object({ email: emailSchema, code: pinSchema });
export type ConfirmSignupBody = z.infer<typeof confirmSignupBodySchema>;
