import { sql, type Kysely } from 'kysely';

/**
 * The trust flags' own facts (`trust` projection): each carrier's recorded authority, each tour's
 * tractor and dock outcome, and the contact changes users requested. The rest of a booking's flags
 * is read from the marketplace, users and organizations read models.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE trust_carriers_view (
      organization_id uuid PRIMARY KEY,
      authority_status text NOT NULL,
      insurance_on_file boolean NOT NULL,
      checked_at timestamptz NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE trust_tours_view (
      tour_id uuid PRIMARY KEY,
      tractor_number text,
      dock_state text,
      dock_at timestamptz
    )`.execute(db);
  await sql`
    CREATE TABLE trust_contact_changes_view (
      change_id text PRIMARY KEY,
      organization_id uuid NOT NULL,
      requested_by uuid NOT NULL,
      requested_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX trust_contact_changes_view_user ON trust_contact_changes_view (requested_by, requested_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE trust_contact_changes_view`.execute(db);
  await sql`DROP TABLE trust_tours_view`.execute(db);
  await sql`DROP TABLE trust_carriers_view`.execute(db);
}
