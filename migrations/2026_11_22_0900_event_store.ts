import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE streams (
      stream_id text PRIMARY KEY,
      revision bigint NOT NULL
    )`.execute(db);
  // transaction_id orders the log together with global_position: readers stop below the oldest
  // transaction still running, so a late commit is never overtaken.
  await sql`
    CREATE TABLE events (
      global_position bigserial PRIMARY KEY,
      transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
      stream_id text NOT NULL,
      stream_revision bigint NOT NULL,
      event_id uuid NOT NULL,
      type text NOT NULL,
      data jsonb NOT NULL,
      metadata jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (stream_id, stream_revision),
      UNIQUE (event_id)
    )`.execute(db);
  await sql`CREATE INDEX events_log_order ON events (transaction_id, global_position)`.execute(db);
  await sql`CREATE INDEX events_correlation ON events ((metadata->>'correlationId'))`.execute(db);
  await sql`
    CREATE TABLE projection_checkpoints (
      name text PRIMARY KEY,
      version integer NOT NULL,
      transaction_id numeric(20) NOT NULL DEFAULT 0,
      global_position numeric(20) NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE projection_checkpoints`.execute(db);
  await sql`DROP TABLE events`.execute(db);
  await sql`DROP TABLE streams`.execute(db);
}
