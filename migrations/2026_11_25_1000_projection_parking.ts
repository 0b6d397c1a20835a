import { sql, type Kysely } from 'kysely';

/**
 * Events a read model could not apply, set aside so the others and the later events keep flowing
 * (written in the same transaction as the checkpoint that moves past them); and the rebuilds asked
 * for through the database (`npm run reproject` while a server runs the projection), which the
 * process holding the projection notices.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE projection_parked_events (
      projection text NOT NULL,
      event_id text NOT NULL,
      stream_id text NOT NULL,
      type text NOT NULL,
      transaction_id numeric(20) NOT NULL,
      global_position numeric(20) NOT NULL,
      error text NOT NULL,
      parked_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (projection, event_id)
    )`.execute(db);
  await sql`
    CREATE TABLE projection_rebuild_requests (
      projection text PRIMARY KEY,
      requested_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE projection_rebuild_requests`.execute(db);
  await sql`DROP TABLE projection_parked_events`.execute(db);
}
