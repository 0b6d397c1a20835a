import { sql, type Kysely } from 'kysely';

/**
 * The ELD integrations: the organizations' installed services (a read model kept by the
 * organizationServices projection; the secret only sealed), the pickup truck checks done (one per
 * tour, claimed before the check so that it runs once), and the position in the log the pickup
 * check reactor has handled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE organization_services_view (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL,
      service_id text NOT NULL,
      client_id text,
      sealed_secret text NOT NULL,
      installed_by uuid,
      installed_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (organization_id, service_id)
    )`.execute(db);

  await sql`
    CREATE TABLE eld_pickup_checks (
      tour_id uuid PRIMARY KEY,
      stop_id text NOT NULL,
      arrival_event_id text NOT NULL,
      claimed_at timestamptz NOT NULL DEFAULT now(),
      verified boolean,
      message text,
      checked_at timestamptz
    )`.execute(db);

  await sql`
    CREATE TABLE eld_checkpoints (
      name text PRIMARY KEY,
      transaction_id numeric(20) NOT NULL DEFAULT 0,
      global_position numeric(20) NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['eld_checkpoints', 'eld_pickup_checks', 'organization_services_view']) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
}
