import { sql, type Kysely } from 'kysely';

/**
 * Preferred and blocked carriers: `carrier_preferences_view` (one row per shipper and carrier on one
 * of the shipper's two lists) and, on `loads_view`, the load's audience (`audience`, null: everyone
 * at once) and `opens_at` (when a preferred-only load opens to the whole marketplace; null once it
 * has, or without a window). Loads posted before have neither: null is what they mean.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE loads_view ADD COLUMN audience jsonb`.execute(db);
  await sql`ALTER TABLE loads_view ADD COLUMN opens_at timestamptz`.execute(db);
  await sql`CREATE TABLE carrier_preferences_view (
    shipper_organization_id uuid NOT NULL,
    carrier_organization_id uuid NOT NULL,
    list text NOT NULL CHECK (list IN ('preferred', 'blocked')),
    position integer NOT NULL,
    PRIMARY KEY (shipper_organization_id, carrier_organization_id)
  )`.execute(db);
  await sql`CREATE INDEX carrier_preferences_view_carrier ON carrier_preferences_view (carrier_organization_id, list)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE carrier_preferences_view`.execute(db);
  await sql`ALTER TABLE loads_view DROP COLUMN opens_at`.execute(db);
  await sql`ALTER TABLE loads_view DROP COLUMN audience`.execute(db);
}
