/** Two-factor sign-in: enrolment with an authenticator app, its recovery codes, turning it off. */
import { z } from 'zod';
import { errorAnswers, guardedErrors } from './common.ts';

export const TwoFactorSetupSchema = z
  .object({
    /** The TOTP secret in base32, for typing into the app by hand. */
    secret: z.string(),
    otpauthUrl: z.string(),
    /** The `otpauthUrl` as a QR code, an SVG document. */
    qrSvg: z.string(),
  })
  .meta({ id: 'TwoFactorSetup' });

const codeSchema = z
  .string({ error: 'Please enter the code' })
  .trim()
  .min(1, 'Please enter the code')
  .max(64);

export const TwoFactorConfirmBodySchema = z.object({ code: codeSchema });
export const RecoveryCodesSchema = z
  .object({ recoveryCodes: z.array(z.string()).length(10) })
  .meta({ id: 'RecoveryCodes' });

export const TwoFactorDisableBodySchema = z.object({
  password: z.string({ error: 'Please enter your current password' }).max(1024),
  code: codeSchema,
});

export const twoFactorSetupContract = {
  response: { 200: TwoFactorSetupSchema, ...guardedErrors, ...errorAnswers(409) },
};
export const twoFactorConfirmContract = {
  body: TwoFactorConfirmBodySchema,
  response: { 200: RecoveryCodesSchema, ...guardedErrors, ...errorAnswers(400, 409) },
};
export const twoFactorDisableContract = {
  body: TwoFactorDisableBodySchema,
  response: {
    204: z.null().meta({ description: 'Two-factor sign-in is off' }),
    ...guardedErrors,
    ...errorAnswers(400, 409),
  },
};
