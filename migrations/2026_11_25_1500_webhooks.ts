import { sql, type Kysely } from 'kysely';

/**
 * Webhooks (docs/api.md "Webhooks"): an organization's endpoints, with their signing secret sealed
 * under SECRETS_KEY; the events its reactor took from the log, each with the organizations that may
 * hear of it; one delivery per endpoint and event (a replay adds more, with the same event ids),
 * sent in id order per endpoint; and where in the log the reactor stands.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE webhook_endpoints (
    id uuid PRIMARY KEY,
    organization_id uuid NOT NULL,
    url text NOT NULL,
    events jsonb NOT NULL,
    description text NOT NULL DEFAULT '',
    secret_sealed text NOT NULL,
    created_by uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    failure_notified_at timestamptz
  )`.execute(db);
  await sql`CREATE INDEX webhook_endpoints_organization ON webhook_endpoints (organization_id)`.execute(
    db,
  );
  await sql`CREATE TABLE webhook_events (
    id uuid PRIMARY KEY,
    seq bigserial NOT NULL UNIQUE,
    type text NOT NULL,
    occurred_at timestamptz NOT NULL,
    data jsonb NOT NULL
  )`.execute(db);
  await sql`CREATE TABLE webhook_event_audience (
    organization_id uuid NOT NULL,
    event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    occurred_at timestamptz NOT NULL,
    PRIMARY KEY (organization_id, event_id)
  )`.execute(db);
  await sql`CREATE INDEX webhook_event_audience_time ON webhook_event_audience (organization_id, occurred_at)`.execute(
    db,
  );
  await sql`CREATE TABLE webhook_deliveries (
    id bigserial PRIMARY KEY,
    endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    status text NOT NULL DEFAULT 'retrying',
    attempts integer NOT NULL DEFAULT 0,
    response_status integer,
    error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_attempt_at timestamptz
  )`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_waiting ON webhook_deliveries (endpoint_id, id) WHERE status = 'retrying'`.execute(
    db,
  );
  await sql`CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id DESC)`.execute(
    db,
  );
  await sql`CREATE TABLE webhook_checkpoints (
    name text PRIMARY KEY,
    transaction_id numeric(20, 0) NOT NULL,
    global_position numeric(20, 0) NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE webhook_checkpoints`.execute(db);
  await sql`DROP TABLE webhook_deliveries`.execute(db);
  await sql`DROP TABLE webhook_event_audience`.execute(db);
  await sql`DROP TABLE webhook_events`.execute(db);
  await sql`DROP TABLE webhook_endpoints`.execute(db);
}
