import { sql, type Kysely } from 'kysely';

/**
 * A batch of positions is one event (`PositionsRecorded`): each trail row remembers its place
 * inside its event beside the event's stream revision, and the pair is what makes a row unique, so
 * a page delivered again still adds nothing. Rows of single-position events have index 0.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE tour_positions_view ADD COLUMN position_index integer NOT NULL DEFAULT 0`.execute(
    db,
  );
  await sql`DROP INDEX IF EXISTS tour_positions_view_revision`.execute(db);
  await sql`CREATE UNIQUE INDEX tour_positions_view_revision ON tour_positions_view (tour_id, stream_revision, position_index)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX tour_positions_view_revision`.execute(db);
  await sql`ALTER TABLE tour_positions_view DROP COLUMN position_index`.execute(db);
  await sql`CREATE UNIQUE INDEX tour_positions_view_revision ON tour_positions_view (tour_id, stream_revision)`.execute(
    db,
  );
}
