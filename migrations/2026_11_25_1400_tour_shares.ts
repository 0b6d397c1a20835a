import { sql, type Kysely } from 'kysely';

/**
 * The tracking links of tours (`tourShares` projection): one row per link, looked up by the SHA-256
 * of its token; a revoked link keeps its row with `revoked_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE tour_shares_view (
      id uuid PRIMARY KEY,
      tour_id uuid NOT NULL,
      token_hash text NOT NULL UNIQUE,
      organization_id uuid NOT NULL,
      shared_by uuid NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX tour_shares_view_tour ON tour_shares_view (tour_id, created_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE tour_shares_view`.execute(db);
}
