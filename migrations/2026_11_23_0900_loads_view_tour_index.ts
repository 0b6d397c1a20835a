import { sql, type Kysely } from 'kysely';

/** Tour status and assignee changes update the load row by its tour: without this, each one scanned every load. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX loads_view_tour ON loads_view (tour_id) WHERE tour_id IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX loads_view_tour`.execute(db);
}
