import { sql, type Kysely } from 'kysely';

/**
 * Idempotency keys of the commands that create things (server/http/idempotency.ts): one row per
 * user and key. `status_code` null means the first request is still running; once it completes the
 * row holds its answer, replayed for 24 hours to a retry with the same key and body.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE idempotency_keys (
      user_id uuid NOT NULL,
      key text NOT NULL,
      target text NOT NULL,
      request_hash text,
      status_code integer,
      content_type text,
      response_body bytea,
      created_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz,
      PRIMARY KEY (user_id, key)
    )`.execute(db);
  await sql`CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE idempotency_keys`.execute(db);
}
