import { sql, type Kysely } from 'kysely';

/**
 * The dock links of tours (`dockLinks` projection): one row per link, looked up by the SHA-256 of
 * its token; a revoked link keeps its row with `revoked_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE dock_links_view (
      id uuid PRIMARY KEY,
      tour_id uuid NOT NULL,
      token_hash text NOT NULL UNIQUE,
      organization_id uuid NOT NULL,
      created_by uuid NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX dock_links_view_tour ON dock_links_view (tour_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE dock_links_view`.execute(db);
}
