import { createHash, randomBytes } from 'node:crypto';

/**
 * Tracking links' tokens: 256 random bits, base64url (43 characters), shown once to their creator.
 * Only their SHA-256 is kept (in the tour's stream and its read model), as refresh tokens are.
 */
export const newShareToken = (): string => randomBytes(32).toString('base64url');

export const hashShareToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');
