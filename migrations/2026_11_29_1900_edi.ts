import { sql, type Kysely } from 'kysely';

/**
 * EDI (docs/api.md "EDI"): a shipper's trading partners (their interchange ids, separators, where
 * our answers go, the SHA-256 of their API key), every interchange document in and out with its
 * X12 text and its delivery, each delivery attempt, and which tender (the partner's shipment id)
 * became which load.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE edi_partners (
    id uuid PRIMARY KEY,
    organization_id uuid NOT NULL,
    name text NOT NULL,
    isa_qualifier text NOT NULL,
    isa_id text NOT NULL,
    gs_id text NOT NULL,
    element_separator text NOT NULL,
    segment_terminator text NOT NULL,
    sub_element_separator text NOT NULL,
    deliver_url text,
    signing_secret_sealed text,
    api_key_hash text NOT NULL UNIQUE,
    control_number bigint NOT NULL DEFAULT 0,
    created_by uuid NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`CREATE INDEX edi_partners_organization ON edi_partners (organization_id)`.execute(db);
  await sql`CREATE TABLE edi_documents (
    id uuid PRIMARY KEY,
    seq bigserial NOT NULL UNIQUE,
    partner_id uuid NOT NULL REFERENCES edi_partners (id) ON DELETE CASCADE,
    organization_id uuid NOT NULL,
    direction text NOT NULL,
    type text NOT NULL,
    control_number text NOT NULL,
    load_id uuid,
    status text NOT NULL,
    raw text NOT NULL,
    errors jsonb NOT NULL DEFAULT '[]',
    source_event_id uuid,
    attempts integer NOT NULL DEFAULT 0,
    response_status integer,
    last_error text,
    next_attempt_at timestamptz,
    last_attempt_at timestamptz,
    fetched_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`CREATE INDEX edi_documents_organization ON edi_documents (organization_id, seq DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX edi_documents_partner_waiting ON edi_documents (partner_id, seq) WHERE status IN ('queued', 'retrying', 'waiting')`.execute(
    db,
  );
  // A page of the log delivered again makes no second document of one event.
  await sql`CREATE UNIQUE INDEX edi_documents_source ON edi_documents (partner_id, source_event_id, type) WHERE source_event_id IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE TABLE edi_attempts (
    id bigserial PRIMARY KEY,
    document_id uuid NOT NULL REFERENCES edi_documents (id) ON DELETE CASCADE,
    ok boolean NOT NULL,
    response_status integer,
    error text,
    at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`CREATE INDEX edi_attempts_document ON edi_attempts (document_id, id)`.execute(db);
  await sql`CREATE TABLE edi_tenders (
    partner_id uuid NOT NULL REFERENCES edi_partners (id) ON DELETE CASCADE,
    shipment_id text NOT NULL,
    load_id uuid NOT NULL UNIQUE,
    tour_id uuid,
    status text NOT NULL DEFAULT 'open',
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (partner_id, shipment_id)
  )`.execute(db);
  await sql`CREATE INDEX edi_tenders_tour ON edi_tenders (tour_id) WHERE tour_id IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE edi_tenders`.execute(db);
  await sql`DROP TABLE edi_attempts`.execute(db);
  await sql`DROP TABLE edi_documents`.execute(db);
  await sql`DROP TABLE edi_partners`.execute(db);
}
