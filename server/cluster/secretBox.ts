/**
 * Secrets at rest (ELD provider credentials, webhook signing secrets): AES-256-GCM with a 32-byte key from SECRETS_KEY (64 hex digits or
 * base64), else generated once and kept in DATA_DIR (like the JWT secret), else, for a database in
 * memory, random per process. Each secret is bound to the service it belongs to (additional
 * authenticated data), so a sealed secret copied onto another service does not open.
 *
 * Sealed form: `v1.<iv>.<ciphertext>.<tag>`, each part base64url; a fresh 96-bit IV per seal.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

/** The key as 32 bytes, from 64 hex digits or base64 (standard or url-safe); anything else is refused. */
export function parseSecretsKey(text: string): Buffer {
  const value = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(value)
    ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(value)
      ? Buffer.from(value.replaceAll('-', '+').replaceAll('_', '/'), 'base64')
      : null;
  if (!key || key.length !== KEY_BYTES)
    throw new Error('SECRETS_KEY must be 32 bytes, written as 64 hex digits or in base64');
  return key;
}

/**
 * The configured key, as base64: SECRETS_KEY, else the key file in DATA_DIR (created on first
 * start, readable by the owner only), else a random key for a database in memory.
 */
export function loadSecretsKey(options: {
  value: string | undefined;
  inMemory: boolean;
  dataDir: string;
}): string {
  if (options.value) return parseSecretsKey(options.value).toString('base64');
  if (options.inMemory) return randomBytes(KEY_BYTES).toString('base64');
  const file = path.join(options.dataDir, 'secrets-key');
  if (existsSync(file)) return parseSecretsKey(readFileSync(file, 'utf8')).toString('base64');
  mkdirSync(options.dataDir, { recursive: true });
  const key = randomBytes(KEY_BYTES).toString('base64');
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}

/** A sealed secret that does not open: tampered with, sealed under another key or for another service. */
export class SealedSecretError extends Error {
  constructor() {
    super('The stored secret cannot be opened: it was changed, or sealed with another key');
    this.name = 'SealedSecretError';
  }
}

export type SecretBox = {
  /** Seals `plaintext` for `context` (the organization service id). */
  seal(plaintext: string, context: string): string;
  /** Opens what `seal` gave for the same context; throws SealedSecretError otherwise. */
  open(sealed: string, context: string): string;
};

export function createSecretBox(keyText: string): SecretBox {
  const key = parseSecretsKey(keyText);
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv, ciphertext, cipher.getAuthTag()]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      const parts = sealed.split('.');
      if (parts.length !== 4 || parts[0] !== VERSION) throw new SealedSecretError();
      const [iv, ciphertext, tag] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
      if (iv!.length !== IV_BYTES || tag!.length !== TAG_BYTES) throw new SealedSecretError();
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv!, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(tag!);
        return Buffer.concat([decipher.update(ciphertext!), decipher.final()]).toString('utf8');
      } catch {
        throw new SealedSecretError();
      }
    },
  };
}
