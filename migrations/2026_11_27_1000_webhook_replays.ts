import { sql, type Kysely } from 'kysely';

/**
 * Webhook replays are bounded: a delivery queued by a replay is marked, so a second replay of the
 * endpoint waits until the first one's deliveries are delivered or failed (an index finds the
 * endpoint's waiting replayed deliveries without reading its history).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE webhook_deliveries ADD COLUMN replayed boolean NOT NULL DEFAULT false`.execute(
    db,
  );
  await sql`CREATE INDEX webhook_deliveries_replay_waiting ON webhook_deliveries (endpoint_id) WHERE status = 'retrying' AND replayed`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX webhook_deliveries_replay_waiting`.execute(db);
  await sql`ALTER TABLE webhook_deliveries DROP COLUMN replayed`.execute(db);
}
