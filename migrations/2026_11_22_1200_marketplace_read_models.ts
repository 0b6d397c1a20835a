import { sql, type Kysely } from 'kysely';

/**
 * Read models of the marketplace (loads, proposals, tours, their events, positions, chat, ratings,
 * saved locations), kept by the marketplace projections, and two plain tables that are not part of
 * the event log: the load reference sequence and when a user last looked at a load's offers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE SEQUENCE load_guid_seq START 1001`.execute(db);
  await sql`
    CREATE TABLE loads_view (
      id uuid PRIMARY KEY,
      guid text NOT NULL UNIQUE,
      shipper_organization_id uuid NOT NULL,
      posted_by uuid NOT NULL,
      status integer NOT NULL,
      pickup_start timestamptz NOT NULL,
      pickup_end timestamptz,
      pickup_timezone text NOT NULL,
      dropoff_start timestamptz NOT NULL,
      dropoff_end timestamptz,
      dropoff_timezone text NOT NULL,
      expiration timestamptz NOT NULL,
      expiration_timezone text NOT NULL,
      load_type_id integer NOT NULL,
      equipment integer[] NOT NULL,
      accessories integer[] NOT NULL,
      weight double precision NOT NULL,
      commodity text NOT NULL,
      ref_number text NOT NULL,
      description text NOT NULL,
      pickup_address text NOT NULL,
      pickup_city text,
      pickup_state text,
      pickup_latitude double precision NOT NULL,
      pickup_longitude double precision NOT NULL,
      dropoff_address text NOT NULL,
      dropoff_city text,
      dropoff_state text,
      dropoff_latitude double precision NOT NULL,
      dropoff_longitude double precision NOT NULL,
      distance_miles double precision NOT NULL,
      stops jsonb NOT NULL,
      accepted_proposal_id uuid,
      carrier_organization_id uuid,
      price numeric(12, 2),
      tour_id uuid,
      tour_status integer,
      assignee_id uuid,
      contract_file_id uuid,
      cancel_message text,
      proposals_count integer NOT NULL DEFAULT 0,
      open_proposals integer NOT NULL DEFAULT 0,
      best_price numeric(12, 2),
      last_proposal_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX loads_view_shipper ON loads_view (shipper_organization_id, created_at DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX loads_view_open ON loads_view (status, expiration) WHERE status = 4`.execute(
    db,
  );
  await sql`CREATE INDEX loads_view_pickup_point ON loads_view (pickup_latitude, pickup_longitude) WHERE status = 4`.execute(
    db,
  );
  await sql`CREATE INDEX loads_view_carrier ON loads_view (carrier_organization_id) WHERE carrier_organization_id IS NOT NULL`.execute(
    db,
  );

  await sql`
    CREATE TABLE proposals_view (
      id uuid PRIMARY KEY,
      load_id uuid NOT NULL,
      load_guid text NOT NULL,
      shipper_organization_id uuid NOT NULL,
      carrier_organization_id uuid NOT NULL,
      submitted_by uuid NOT NULL,
      status integer NOT NULL,
      price numeric(12, 2) NOT NULL,
      counter_price numeric(12, 2),
      message text NOT NULL,
      eld_truck_name text,
      tour_id uuid,
      contract_file_id uuid,
      submitted_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX proposals_view_load ON proposals_view (load_id, submitted_at)`.execute(db);
  await sql`CREATE INDEX proposals_view_carrier ON proposals_view (carrier_organization_id, updated_at DESC)`.execute(
    db,
  );

  await sql`
    CREATE TABLE tours_view (
      id uuid PRIMARY KEY,
      load_id uuid NOT NULL UNIQUE,
      load_guid text NOT NULL,
      proposal_id uuid NOT NULL,
      shipper_organization_id uuid NOT NULL,
      carrier_organization_id uuid NOT NULL,
      status integer NOT NULL,
      assignee_id uuid,
      assignee_name text,
      price numeric(12, 2) NOT NULL,
      eld_truck_name text,
      stops jsonb NOT NULL,
      contract_file_id uuid,
      shipper_rated boolean NOT NULL DEFAULT false,
      carrier_rated boolean NOT NULL DEFAULT false,
      opened_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX tours_view_shipper ON tours_view (shipper_organization_id, opened_at DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX tours_view_carrier ON tours_view (carrier_organization_id, opened_at DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX tours_view_assignee ON tours_view (assignee_id) WHERE assignee_id IS NOT NULL`.execute(
    db,
  );

  await sql`
    CREATE TABLE tour_events_view (
      id text PRIMARY KEY,
      tour_id uuid NOT NULL,
      type text NOT NULL,
      message text NOT NULL,
      stop_id text,
      added_by uuid,
      at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX tour_events_view_tour ON tour_events_view (tour_id, at)`.execute(db);

  await sql`
    CREATE TABLE tour_positions_view (
      id bigserial PRIMARY KEY,
      tour_id uuid NOT NULL,
      latitude double precision NOT NULL,
      longitude double precision NOT NULL,
      speed double precision,
      heading double precision,
      accuracy double precision,
      source text NOT NULL,
      recorded_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX tour_positions_view_tour ON tour_positions_view (tour_id, recorded_at DESC)`.execute(
    db,
  );

  await sql`
    CREATE TABLE chat_messages_view (
      id uuid PRIMARY KEY,
      tour_id uuid NOT NULL,
      user_id uuid NOT NULL,
      user_name text NOT NULL,
      organization_id uuid,
      text text NOT NULL,
      posted_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX chat_messages_view_tour ON chat_messages_view (tour_id, posted_at)`.execute(
    db,
  );

  await sql`
    CREATE TABLE tour_ratings_view (
      tour_id uuid NOT NULL,
      side text NOT NULL,
      rated_organization_id uuid NOT NULL,
      criteria integer NOT NULL,
      rating numeric(3, 1) NOT NULL,
      rated_by uuid NOT NULL,
      rated_at timestamptz NOT NULL,
      PRIMARY KEY (tour_id, side, criteria)
    )`.execute(db);
  await sql`CREATE INDEX tour_ratings_view_rated ON tour_ratings_view (rated_organization_id, criteria)`.execute(
    db,
  );

  await sql`
    CREATE TABLE saved_locations_view (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL,
      name text NOT NULL,
      address text NOT NULL,
      city text,
      state text,
      latitude double precision NOT NULL,
      longitude double precision NOT NULL,
      contact_name text,
      contact_phone text,
      number text,
      location_type integer NOT NULL,
      saved_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX saved_locations_view_organization ON saved_locations_view (organization_id, name)`.execute(
    db,
  );

  // When a user last opened a load's offers: drives the "new offers" badge. UI state, not an event.
  await sql`
    CREATE TABLE proposals_seen (
      user_id uuid NOT NULL,
      load_id uuid NOT NULL,
      seen_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, load_id)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'proposals_seen',
    'saved_locations_view',
    'tour_ratings_view',
    'chat_messages_view',
    'tour_positions_view',
    'tour_events_view',
    'tours_view',
    'proposals_view',
    'loads_view',
  ]) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
  await sql`DROP SEQUENCE load_guid_seq`.execute(db);
}
