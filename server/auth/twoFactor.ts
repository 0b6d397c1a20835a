/**
 * Two-factor sign-in: TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of clock drift
 * either way) with `otpauth`, the enrolment's QR code with `qrcode`, and the single-use recovery
 * codes, kept only as their SHA-256. The secret itself is kept sealed (server/cluster/secretBox.ts)
 * and opened only to check a code.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

export const TOTP_ISSUER = 'Freight Marketplace';
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** What the sealed secret is bound to: a sealed secret copied onto another user does not open. */
export const twoFactorContext = (userId: string) => `two-factor:${userId}`;

const totpOf = (secretBase32: string, label = '') =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });

/** A new secret (160 bits, base32) with its otpauth:// URL and the URL's QR code as SVG. */
export async function newTotpSecret(label: string) {
  const secret = new Secret({ size: 20 }).base32;
  const otpauthUrl = totpOf(secret, label).toString();
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1 });
  return { secret, otpauthUrl, qrSvg };
}

/** The 30-second step a code is valid at (now, one step before or after), or null when it is not a valid code. */
export function totpStepOf(secretBase32: string, code: string, now: number): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secretBase32).validate({ token, timestamp: now, window: 1 });
  if (delta === null) return null;
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** The code of a secret at a time (tests, the demo's documented secret). */
export const totpCodeAt = (secretBase32: string, now: number) =>
  totpOf(secretBase32).generate({ timestamp: now });

/** Recovery codes read like `a1b2c-3d4e5`: ten hex digits from 40 random bits each. */
export const newRecoveryCodes = (): string[] =>
  Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const hex = randomBytes(5).toString('hex');
    return `${hex.slice(0, 5)}-${hex.slice(5)}`;
  });

/** A recovery code as typed (any case, with or without the dash and spaces) is hashed in one form. */
export const hashRecoveryCode = (code: string) =>
  createHash('sha256')
    .update(code.toLowerCase().replace(/[^0-9a-f]/g, ''))
    .digest('hex');

/** A recovery code, not a TOTP code: anything but six digits. */
export const looksLikeRecoveryCode = (code: string) => !/^\d{6}$/.test(code.replace(/\s/g, ''));

/** A sign-in's device: its browser and address, hashed (the event keeps both, the key tells them apart). */
export const deviceKeyOf = (userAgent: string, address: string) =>
  createHash('sha256').update(`${userAgent}\n${address}`).digest('hex').slice(0, 32);
