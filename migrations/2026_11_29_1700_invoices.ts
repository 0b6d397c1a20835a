import { sql, type Kysely } from 'kysely';

/**
 * The carriers' invoices (`invoices` projection): one row per invoice with its lines, remit-to,
 * status and dates; GET invoices pages it, the silence reactor finds the invoices due here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE invoices_view (
      id uuid PRIMARY KEY,
      number text NOT NULL,
      load_id uuid NOT NULL,
      load_guid text NOT NULL,
      tour_id uuid NOT NULL,
      carrier_organization_id uuid NOT NULL,
      shipper_organization_id uuid NOT NULL,
      status text NOT NULL,
      total double precision NOT NULL,
      terms_days integer NOT NULL,
      lines jsonb NOT NULL,
      remit_to jsonb NOT NULL,
      reference text,
      pdf_file_id uuid,
      answer text,
      drafted_at timestamptz NOT NULL,
      submitted_at timestamptz,
      due_at timestamptz,
      awaiting_since timestamptz,
      scheduled_for text,
      paid_at timestamptz,
      payment_reference text,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX invoices_view_carrier ON invoices_view (carrier_organization_id, drafted_at)`.execute(
    db,
  );
  await sql`CREATE INDEX invoices_view_shipper ON invoices_view (shipper_organization_id, drafted_at)`.execute(
    db,
  );
  await sql`CREATE INDEX invoices_view_load ON invoices_view (load_id)`.execute(db);
  await sql`CREATE INDEX invoices_view_awaiting ON invoices_view (awaiting_since) WHERE status = 'submitted'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE invoices_view`.execute(db);
}
