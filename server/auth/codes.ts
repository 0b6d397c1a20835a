import { createHash, randomInt } from 'node:crypto';

/** Sign-up and reset codes are kept only as their SHA-256. */
export const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');
/** A sign-up code: six digits, e-mailed. */
export const newSixDigitCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
