import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import {
  createSecretBox,
  loadSecretsKey,
  parseSecretsKey,
  SealedSecretError,
} from './secretBox.ts';

const key = randomBytes(32);
const box = createSecretBox(key.toString('base64'));
const serviceA = '0b7e3a52-6f1d-5c44-9a1e-2d3c4b5a6f70';
const serviceB = '1c8f4b63-7a2e-5d55-8b2f-3e4d5c6b7a81';

t.test('a round trip, with a fresh IV each time', async (t) => {
  const sealed = box.seal('samsara-token-123', serviceA);
  t.match(sealed, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
  t.notMatch(sealed, /samsara-token-123/, 'no clear text in the sealed form');
  t.equal(box.open(sealed, serviceA), 'samsara-token-123');
  t.not(
    box.seal('samsara-token-123', serviceA),
    sealed,
    'the same secret seals differently each time',
  );
  t.equal(box.open(box.seal('ünïcödé ✓', serviceA), serviceA), 'ünïcödé ✓');
});

t.test('a tampered ciphertext, another service or another key is refused', async (t) => {
  const sealed = box.seal('samsara-token-123', serviceA);
  const [version, iv, ciphertext, tag] = sealed.split('.');
  const bytes = Buffer.from(ciphertext!, 'base64url');
  bytes[0] ^= 1;
  t.throws(
    () => box.open([version, iv, bytes.toString('base64url'), tag].join('.'), serviceA),
    SealedSecretError,
    'one flipped bit',
  );
  const tagBytes = Buffer.from(tag!, 'base64url');
  tagBytes[15] ^= 0x80;
  t.throws(
    () => box.open([version, iv, ciphertext, tagBytes.toString('base64url')].join('.'), serviceA),
    SealedSecretError,
    'a changed tag',
  );
  t.throws(() => box.open(sealed, serviceB), SealedSecretError, 'sealed for another service');
  t.throws(
    () => createSecretBox(randomBytes(32).toString('hex')).open(sealed, serviceA),
    SealedSecretError,
    'another key',
  );
  t.throws(() => box.open('v2.a.b.c', serviceA), SealedSecretError);
  t.throws(() => box.open('not sealed', serviceA), SealedSecretError);
});

t.test('the key: hex or base64 of 32 bytes, else kept in DATA_DIR', async (t) => {
  t.same(parseSecretsKey(key.toString('hex')), key);
  t.same(parseSecretsKey(key.toString('base64')), key);
  t.same(parseSecretsKey(key.toString('base64url')), key);
  t.throws(() => parseSecretsKey(randomBytes(16).toString('hex')), /32 bytes/);
  t.throws(() => parseSecretsKey('not a key!'), /32 bytes/);
  t.equal(
    loadSecretsKey({ value: key.toString('hex'), inMemory: false, dataDir: '/nonexistent' }),
    key.toString('base64'),
    'SECRETS_KEY wins',
  );
  const memory = loadSecretsKey({ value: undefined, inMemory: true, dataDir: '/nonexistent' });
  t.not(
    memory,
    loadSecretsKey({ value: undefined, inMemory: true, dataDir: '/nonexistent' }),
    'random per process in memory',
  );
  const dataDir = mkdtempSync(path.join(tmpdir(), 'eld-key-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const generated = loadSecretsKey({ value: undefined, inMemory: false, dataDir });
  t.equal(
    loadSecretsKey({ value: undefined, inMemory: false, dataDir }),
    generated,
    'the same key after a restart',
  );
  t.equal(readFileSync(path.join(dataDir, 'secrets-key'), 'utf8'), generated);
  t.equal(
    statSync(path.join(dataDir, 'secrets-key')).mode & 0o777,
    0o600,
    'readable by the owner only',
  );
  t.equal(parseSecretsKey(generated).length, 32);
});
