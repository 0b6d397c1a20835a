import { sql, type Kysely } from 'kysely';

/**
 * The accessorial claims of tours (`claims` projection): one row per claim with its status, its
 * evidence and the words of each side; the silence reactor finds the claims due here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE claims_view (
      id uuid PRIMARY KEY,
      tour_id uuid NOT NULL,
      load_id uuid NOT NULL,
      shipper_organization_id uuid NOT NULL,
      carrier_organization_id uuid NOT NULL,
      kind text NOT NULL,
      stop_index integer,
      minutes integer NOT NULL,
      amount double precision NOT NULL,
      status text NOT NULL,
      evidence jsonb NOT NULL,
      note text,
      dispute_reason text,
      answer text,
      approved_by text,
      settled_amount double precision,
      settlement_note text,
      claimed_at timestamptz NOT NULL,
      due_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX claims_view_tour ON claims_view (tour_id, claimed_at)`.execute(db);
  await sql`CREATE INDEX claims_view_due ON claims_view (due_at) WHERE status = 'claimed'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE claims_view`.execute(db);
}
