import { sql, type Kysely } from 'kysely';

/**
 * The carriers' saved searches (lane alerts), kept by the `savedSearches` projection. An absent
 * origin or destination is null in all three of its columns; no equipment is an empty array.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE saved_searches_view (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL,
      user_id uuid NOT NULL,
      name text NOT NULL,
      origin_latitude double precision,
      origin_longitude double precision,
      origin_radius integer,
      destination_latitude double precision,
      destination_longitude double precision,
      destination_radius integer,
      equipment integer[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX saved_searches_view_organization ON saved_searches_view (organization_id, created_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE saved_searches_view`.execute(db);
}
