import { sql, type Kysely } from 'kysely';

/**
 * Days-to-pay and aging (`payerFigures` projection): one row per invoice with its parties, total,
 * submission, due date, payment and where the payment stands. The figures are computed from these
 * rows at the moment they are asked for, as their windows end now.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE payer_invoices_view (
      invoice_id uuid PRIMARY KEY,
      carrier_organization_id uuid NOT NULL,
      shipper_organization_id uuid NOT NULL,
      total double precision NOT NULL,
      terms_days integer NOT NULL,
      submitted_at timestamptz,
      due_at timestamptz,
      paid_at timestamptz,
      days_to_pay integer,
      status text NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX payer_invoices_view_shipper ON payer_invoices_view (shipper_organization_id, paid_at)`.execute(
    db,
  );
  await sql`CREATE INDEX payer_invoices_view_carrier ON payer_invoices_view (carrier_organization_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE payer_invoices_view`.execute(db);
}
