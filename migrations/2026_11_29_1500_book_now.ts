import { sql, type Kysely } from 'kysely';

/**
 * The Book Now price on the marketplace's load rows (`loads_view.book_now_price`, null: the load
 * only takes offers). Loads posted before had none, so the read model needs no rebuild (the
 * marketplace projection keeps its version).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE loads_view ADD COLUMN book_now_price numeric(12, 2)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE loads_view DROP COLUMN book_now_price`.execute(db);
}
