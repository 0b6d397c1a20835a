import { sql, type Kysely } from 'kysely';

/**
 * The accessorial terms on the marketplace's rows: `loads_view.terms` (the load's, null without),
 * `proposals_view.terms` (the offer's own, null when it goes with the load's) and
 * `proposals_view.counter_terms` (those of the shipper's counter while it waits). The marketplace
 * projection's version 2 rebuilds the read model beside the live one to fill them for the loads
 * and offers posted before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE loads_view ADD COLUMN terms jsonb`.execute(db);
  await sql`ALTER TABLE proposals_view ADD COLUMN terms jsonb`.execute(db);
  await sql`ALTER TABLE proposals_view ADD COLUMN counter_terms jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE proposals_view DROP COLUMN counter_terms`.execute(db);
  await sql`ALTER TABLE proposals_view DROP COLUMN terms`.execute(db);
  await sql`ALTER TABLE loads_view DROP COLUMN terms`.execute(db);
}
