import { sql, type Kysely } from 'kysely';

/**
 * The held changes of organizations' contacts (`organizationContactChanges` projection): one row per
 * request, looked up by the SHA-256 of the old contact's cancel link and swept by the scheduler
 * that applies them once due; `status` is pending, cancelled or applied.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE organization_contact_changes_view (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL,
      token_hash text NOT NULL UNIQUE,
      requested_by text NOT NULL,
      requested_at timestamptz NOT NULL,
      pending_until timestamptz NOT NULL,
      contact jsonb NOT NULL,
      previous jsonb NOT NULL,
      status text NOT NULL DEFAULT 'pending',
      cancelled_at timestamptz,
      cancelled_by text,
      applied_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX organization_contact_changes_view_due ON organization_contact_changes_view (pending_until) WHERE status = 'pending'`.execute(
    db,
  );
  await sql`CREATE INDEX organization_contact_changes_view_organization ON organization_contact_changes_view (organization_id, requested_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE organization_contact_changes_view`.execute(db);
}
