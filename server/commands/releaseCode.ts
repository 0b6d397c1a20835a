/**
 * The driver's release code (docs/domain.md "Release code"): six digits that change every 30 seconds
 * like a TOTP code. Each assignment draws a random secret, sealed with the server's key for that
 * tour (`SecretBox`) and kept on the assignment; the code's key is an HMAC of that secret over the
 * tour and the driver, so a code is good for one driver on one tour only. Shown to the assigned
 * driver alone, from an hour before the pickup appointment until the truck leaves the pickup.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { SecretBox } from '../cluster/secretBox.ts';

export const RELEASE_CODE_PERIOD_SECONDS = 30;
/** The code shows from this long before the pickup appointment. */
export const RELEASE_WINDOW_BEFORE_MS = 3_600_000;

const context = (tourId: string) => `release-code:${tourId}`;

/** A fresh secret for an assignment, sealed for its tour. */
export const sealNewReleaseSecret = (secrets: SecretBox, tourId: string): string =>
  secrets.seal(randomBytes(32).toString('base64url'), context(tourId));

const totpOf = (secrets: SecretBox, sealed: string, tourId: string, driverId: string) => {
  const key = createHmac('sha256', secrets.open(sealed, context(tourId)))
    .update(`${tourId}:${driverId}`)
    .digest();
  return {
    secret: new Secret({ buffer: new Uint8Array(key).buffer }),
    algorithm: 'SHA256',
    digits: 6,
    period: RELEASE_CODE_PERIOD_SECONDS,
  };
};

/** The code at `at` (ms) and the end of its 30 seconds. */
export function releaseCodeAt(
  secrets: SecretBox,
  sealed: string,
  tourId: string,
  driverId: string,
  at: number,
): { code: string; validUntil: string } {
  const period = RELEASE_CODE_PERIOD_SECONDS * 1000;
  return {
    code: TOTP.generate({ ...totpOf(secrets, sealed, tourId, driverId), timestamp: at }),
    validUntil: new Date((Math.floor(at / period) + 1) * period).toISOString(),
  };
}

/** Whether `code` is the driver's code now or in the 30 seconds before (the dock types what the phone showed). */
export function releaseCodeMatches(
  secrets: SecretBox,
  sealed: string,
  tourId: string,
  driverId: string,
  code: string,
  at: number,
): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  const options = totpOf(secrets, sealed, tourId, driverId);
  return [0, -1].some(
    (step) =>
      TOTP.generate({ ...options, timestamp: at + step * RELEASE_CODE_PERIOD_SECONDS * 1000 }) ===
      code,
  );
}
