/**
 * The cluster's keys as the server uses them: the check value that tells two keys apart without
 * storing either, the access tokens' signing keys and the sealing keys by generation.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createSecretBox, SealedSecretError, type SecretBox } from './secretBox.ts';

const CHECK_TEXT = 'freight-marketplace key check v1';
/** HMAC-SHA256 of a constant under the key: shows whether two keys are the same without storing either. */
export function keyCheckOf(key: Buffer | string): string {
  return createHmac('sha256', key).update(CHECK_TEXT).digest('base64url');
}
export const sameCheck = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The signing keys of access tokens, as the token service and @fastify/jwt use them. */
export type JwtKeys = {
  /** What a new token is signed with; `kid` null: no `kid` header (one key from the environment or in memory). */
  signing(): { kid: string | null; secret: string };
  /** The key that verifies a token with this `kid` (undefined: none in the header), or null: unknown or retired. */
  verifying(kid: string | undefined): string | null;
  /** Reads the keys again (a `kid` not known here yet); at most about once a second. */
  refresh(): Promise<void>;
};

/** One key for every token: JWT_SECRET, or a database in memory. */
export function staticJwtKeys(secret: string): JwtKeys {
  return {
    signing: () => ({ kid: null, secret }),
    verifying: () => secret,
    refresh: async () => undefined,
  };
}

/** The sealing keys: the newest seals, every known one opens what it sealed. */
export type SealingKeys = {
  current: { generation: number; key: string };
  byGeneration: Map<number, string>;
};

const SEALED_V2 = /^v2\.(\d{1,9})\.(.+)$/s;

/** A SecretBox over generations of keys: seals `v2.<generation>.<iv>.<ciphertext>.<tag>` with the newest. */
export function createGenerationalSecretBox(keys: () => SealingKeys): SecretBox {
  const boxes = new Map<string, SecretBox>();
  const boxOf = (key: string) => {
    let box = boxes.get(key);
    if (!box) boxes.set(key, (box = createSecretBox(key)));
    return box;
  };
  return {
    seal(plaintext, context) {
      const { current } = keys();
      return `v2.${current.generation}.${boxOf(current.key).seal(plaintext, context).slice('v1.'.length)}`;
    },
    open(sealed, context) {
      const { byGeneration } = keys();
      const v2 = SEALED_V2.exec(sealed);
      const generation = v2 ? Number(v2[1]) : 1;
      const key = byGeneration.get(generation);
      if (!key) throw new SealedSecretError();
      return boxOf(key).open(v2 ? `v1.${v2[2]}` : sealed, context);
    },
  };
}
