import { sql, type Kysely } from 'kysely';

/**
 * Each position row remembers the revision of its event in the tour's positions stream, unique per
 * tour, so a page of PositionRecorded delivered again (a checkpoint set back) adds no second row.
 * Rows written before this column are NULL; the projection's new version rebuilds them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE tour_positions_view ADD COLUMN stream_revision bigint`.execute(db);
  await sql`CREATE UNIQUE INDEX tour_positions_view_revision ON tour_positions_view (tour_id, stream_revision)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX tour_positions_view_revision`.execute(db);
  await sql`ALTER TABLE tour_positions_view DROP COLUMN stream_revision`.execute(db);
}
