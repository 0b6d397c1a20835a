import { sql, type Kysely } from 'kysely';

/**
 * The keys of a cluster, held once in the database so that every process on it signs and verifies
 * the same access tokens and opens the same sealed secrets (server/cluster/clusterSecrets.ts):
 * `purpose` is 'jwt' (the HS256 signing keys, `generation` is the token's `kid`) or 'sealing' (the
 * AES-256-GCM key of the ELD credentials and webhook secrets, `generation` is written into each
 * sealed value). `secret` is null where the key comes from the environment (JWT_SECRET is never
 * stored; SECRETS_KEY only by its check); `key_check` (HMAC-SHA256 of a constant under the key)
 * tells a process started with another key that it cannot open the data.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE cluster_secrets (
    purpose text NOT NULL CHECK (purpose IN ('jwt', 'sealing')),
    generation integer NOT NULL CHECK (generation > 0),
    secret text,
    key_check text NOT NULL,
    origin text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (purpose, generation)
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE cluster_secrets`.execute(db);
}
