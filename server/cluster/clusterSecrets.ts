/**
 * One source of secrets for every process on one database (docs/architecture.md "Several processes").
 *
 * - Access tokens are signed with HS256 keys kept in `cluster_secrets` (purpose 'jwt'); the token's
 *   `kid` header names the key's generation. JWT_SECRET in the environment overrides them all (one
 *   key, no `kid`, never stored).
 * - ELD credentials and webhook secrets are sealed with the newest AES-256-GCM key (purpose
 *   'sealing'); each sealed value names its key's generation (`v2.<generation>.…`; a `v1.…` value,
 *   sealed before keys had generations, opens with generation 1). SECRETS_KEY in the environment
 *   overrides the key kept in the database; then the table keeps only its check value.
 * - The first process on an empty table creates the keys (INSERT … ON CONFLICT DO NOTHING in a
 *   transaction, then read back: the first one wins); a DATA_DIR that kept `jwt-secret` and
 *   `secrets-key` files (before the keys moved into the database) gives its keys, so no one is
 *   signed out and nothing sealed becomes unreadable.
 * - A process whose SECRETS_KEY (or stored key) disagrees with the check stored beside the data
 *   refuses to start and says why.
 * - `npm run rotate-keys` (server/cluster/rotateKeys.ts) adds a generation of each; processes read
 *   the table again every `pollMs` and at once when a token names a `kid` they do not know.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DB } from '../../storage/schema.ts';
import {
  createGenerationalSecretBox,
  type JwtKeys,
  keyCheckOf,
  type SealingKeys,
  sameCheck,
  staticJwtKeys,
} from './keys.ts';
import { parseSecretsKey, SealedSecretError, type SecretBox } from './secretBox.ts';

export {
  createGenerationalSecretBox,
  type JwtKeys,
  keyCheckOf,
  type SealingKeys,
  staticJwtKeys,
} from './keys.ts';

export type ClusterSecrets = {
  jwt: JwtKeys;
  /** Seals with the newest key, opens with any known one. */
  box: SecretBox;
  sealing(): SealingKeys;
  /** The base64 of the newest sealing key (what `config.secretsKey` reports). */
  sealingKey(): string;
  /** Reads the table again now. */
  reload(): Promise<void>;
  close(): void;
};

export class ClusterSecretsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClusterSecretsError';
  }
}

type Row = {
  purpose: 'jwt' | 'sealing';
  generation: number;
  secret: string | null;
  key_check: string;
  origin: string;
  created_at: Date;
};

const readRows = async (db: Kysely<DB>): Promise<Row[]> =>
  (await db
    .selectFrom('cluster_secrets')
    .selectAll()
    .orderBy('purpose')
    .orderBy('generation')
    .execute()) as Row[];

const fileSecret = (dataDir: string | null, name: string): string | null => {
  if (!dataDir) return null;
  const file = path.join(dataDir, name);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || null : null;
};

/** Creates generation 1 of `purpose` unless a process did already; the first insert wins. */
async function ensureFirst(
  db: Kysely<DB>,
  purpose: 'jwt' | 'sealing',
  candidate: { secret: string | null; check: string; origin: string },
) {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('cluster_secrets')
      .values({
        purpose,
        generation: 1,
        secret: candidate.secret,
        key_check: candidate.check,
        origin: candidate.origin,
      })
      .onConflict((oc) => oc.columns(['purpose', 'generation']).doNothing())
      .execute();
  });
}

export type ClusterSecretsOptions = {
  db: Kysely<DB>;
  /** JWT_SECRET: overrides the keys in the database (then nothing is stored for tokens). */
  jwtSecret: string | null;
  /** SECRETS_KEY (64 hex digits or base64): overrides the sealing key kept in the database. */
  secretsKey: string | null;
  /** Where the keys of an older version were kept as files (`jwt-secret`, `secrets-key`), to take them over. */
  dataDir: string | null;
  /** How long an access token lives: a retired signing key is accepted this long (plus a margin) after its successor came. */
  accessTokenTtlSeconds: number;
  /** How often the table is read again (a rotation elsewhere); 5 s by default. */
  pollMs?: number;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
  now?: () => Date;
};

/**
 * Reads (on the first start: creates) the cluster's keys. Throws ClusterSecretsError, with what to
 * do, when SECRETS_KEY or the stored key is not the one the data was sealed with.
 */
export async function openClusterSecrets(options: ClusterSecretsOptions): Promise<ClusterSecrets> {
  const { db, logger } = options;
  const now = options.now ?? (() => new Date());
  const pollMs = options.pollMs ?? 5000;
  const envSealing = options.secretsKey ? parseSecretsKey(options.secretsKey) : null;

  // First start on this database: the keys a DATA_DIR kept as files, else new ones.
  let rows = await readRows(db);
  if (!options.jwtSecret && !rows.some((row) => row.purpose === 'jwt')) {
    const file = fileSecret(options.dataDir, 'jwt-secret');
    const secret = file ?? randomBytes(48).toString('base64url');
    await ensureFirst(db, 'jwt', {
      secret,
      check: keyCheckOf(secret),
      origin: file ? 'data-dir' : 'generated',
    });
  }
  if (!rows.some((row) => row.purpose === 'sealing')) {
    const file = envSealing ? null : fileSecret(options.dataDir, 'secrets-key');
    const key = envSealing ?? (file ? parseSecretsKey(file) : randomBytes(32));
    await ensureFirst(db, 'sealing', {
      // A key from the environment is never stored: only its check, so that a process with another key refuses to start.
      secret: envSealing ? null : key.toString('base64'),
      check: keyCheckOf(key),
      origin: envSealing ? 'environment' : file ? 'data-dir' : 'generated',
    });
  }
  rows = await readRows(db);

  let jwtRows: Row[] = [];
  let sealing: SealingKeys = { current: { generation: 0, key: '' }, byGeneration: new Map() };

  /** Checks and takes the rows; at start a mismatch throws, later (a poll) it is logged and the old keys kept. */
  const take = (next: Row[]) => {
    const sealingRows = next.filter((row) => row.purpose === 'sealing');
    const newest = sealingRows.at(-1);
    if (!newest)
      throw new ClusterSecretsError('The database holds no sealing key (table cluster_secrets).');
    const byGeneration = new Map<number, string>();
    for (const row of sealingRows) {
      if (row.secret && sameCheck(keyCheckOf(parseSecretsKey(row.secret)), row.key_check))
        byGeneration.set(row.generation, row.secret);
    }
    let currentKey: string;
    if (envSealing) {
      if (!sameCheck(keyCheckOf(envSealing), newest.key_check)) {
        throw new ClusterSecretsError(
          `SECRETS_KEY is not the key the stored ELD credentials and webhook secrets are sealed with (its check differs from sealing key generation ${newest.generation}, ${newest.origin === 'environment' ? 'which came from SECRETS_KEY' : 'kept in the database'}). ` +
            (newest.secret
              ? 'Unset SECRETS_KEY to use the key the database holds, or set it to that key.'
              : 'Start with the SECRETS_KEY the other processes use.'),
        );
      }
      currentKey = envSealing.toString('base64');
      byGeneration.set(newest.generation, currentKey);
    } else {
      if (!newest.secret) {
        throw new ClusterSecretsError(
          `The stored ELD credentials and webhook secrets are sealed with a SECRETS_KEY from the environment (sealing key generation ${newest.generation}); start this process with that SECRETS_KEY.`,
        );
      }
      if (!byGeneration.has(newest.generation)) {
        throw new ClusterSecretsError(
          `The sealing key of generation ${newest.generation} in cluster_secrets does not match its stored check: the table was changed by hand. Restore it from a backup.`,
        );
      }
      currentKey = byGeneration.get(newest.generation)!;
    }
    const jwt = next.filter((row) => row.purpose === 'jwt' && row.secret);
    if (!options.jwtSecret && jwt.length === 0)
      throw new ClusterSecretsError(
        'The database holds no signing key for access tokens (table cluster_secrets).',
      );
    jwtRows = jwt;
    sealing = { current: { generation: newest.generation, key: currentKey }, byGeneration };
  };
  take(rows);

  // Pre-existing sealed data that the key does not open: stop here rather than fail at each use.
  await checkSealedData(
    db,
    createGenerationalSecretBox(() => sealing),
  );

  const reload = async () => {
    try {
      take(await readRows(db));
    } catch (error) {
      logger?.error({ err: error }, 'cluster keys not reloaded; the ones read before stay in use');
    }
  };
  let lastRefresh = 0;
  let refreshing: Promise<void> | null = null;
  const timer = setInterval(() => void reload(), pollMs);
  timer.unref();

  /** Seconds a retired signing key is still accepted after its successor: a token's life, the poll, a minute of skew. */
  const graceMs = (options.accessTokenTtlSeconds + 60) * 1000 + pollMs;
  const jwt: JwtKeys = options.jwtSecret
    ? staticJwtKeys(options.jwtSecret)
    : {
        signing() {
          const newest = jwtRows.at(-1)!;
          return { kid: String(newest.generation), secret: newest.secret! };
        },
        verifying(kid) {
          // A token without kid was signed before keys had generations: with generation 1 (the DATA_DIR's key).
          const generation =
            kid === undefined ? 1 : /^[1-9]\d{0,8}$/.test(kid) ? Number(kid) : null;
          const index = jwtRows.findIndex((row) => row.generation === generation);
          if (index < 0) return null;
          const successor = jwtRows[index + 1];
          if (successor && new Date(successor.created_at).getTime() + graceMs < now().getTime())
            return null;
          return jwtRows[index]!.secret;
        },
        refresh() {
          if (refreshing) return refreshing;
          if (Date.now() - lastRefresh < 1000) return Promise.resolve();
          lastRefresh = Date.now();
          refreshing = reload().finally(() => {
            refreshing = null;
          });
          return refreshing;
        },
      };

  logger?.info(
    {
      signingKeys: options.jwtSecret ? 'JWT_SECRET' : jwtRows.map((row) => row.generation),
      sealingKey: sealing.current.generation,
      sealingKeyFrom: envSealing ? 'SECRETS_KEY' : 'database',
    },
    'cluster keys read',
  );
  return {
    jwt,
    box: createGenerationalSecretBox(() => sealing),
    sealing: () => sealing,
    sealingKey: () => sealing.current.key,
    reload,
    close: () => clearInterval(timer),
  };
}

/** Opens one sealed ELD credential and one webhook secret, if any: a key that opens neither stops the start. */
async function checkSealedData(db: Kysely<DB>, box: SecretBox): Promise<void> {
  const service = await db
    .selectFrom('organization_services_view')
    .select(['id', 'sealed_secret'])
    .orderBy('updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const hook = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'secret_sealed'])
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  for (const [sealed, context, what] of [
    [service?.sealed_secret, service?.id, 'ELD credentials'],
    [hook?.secret_sealed, hook ? `webhook:${hook.id}` : undefined, 'webhook secrets'],
  ] as const) {
    if (!sealed || !context) continue;
    try {
      box.open(sealed, context);
    } catch (error) {
      if (!(error instanceof SealedSecretError)) throw error;
      throw new ClusterSecretsError(
        `The stored ${what} do not open with the sealing key in use (${/^v2\./.test(sealed) ? 'its generation is missing or differs' : 'sealed before keys moved into the database, with another key'}). Set SECRETS_KEY to the key they were sealed with, or start from the DATA_DIR that holds its secrets-key file.`,
      );
    }
  }
}
