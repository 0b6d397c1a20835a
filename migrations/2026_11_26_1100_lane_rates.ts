import { sql, type Kysely } from 'kysely';

/**
 * The agreed prices of the marketplace by lane (`laneRates` projection): `lane_loads_view` keeps each
 * load's ends, equipment and route miles as posted or last edited; `lane_rates_view` holds one row
 * per accepted offer with those and the agreed price, dated by the acceptance.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE lane_loads_view (
      load_id uuid PRIMARY KEY,
      pickup_latitude double precision NOT NULL,
      pickup_longitude double precision NOT NULL,
      pickup_city text,
      pickup_state text,
      dropoff_latitude double precision NOT NULL,
      dropoff_longitude double precision NOT NULL,
      dropoff_city text,
      dropoff_state text,
      equipment integer[] NOT NULL,
      miles numeric(9, 1) NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE lane_rates_view (
      proposal_id uuid PRIMARY KEY,
      load_id uuid NOT NULL,
      pickup_latitude double precision NOT NULL,
      pickup_longitude double precision NOT NULL,
      pickup_city text,
      pickup_state text,
      dropoff_latitude double precision NOT NULL,
      dropoff_longitude double precision NOT NULL,
      dropoff_city text,
      dropoff_state text,
      equipment integer[] NOT NULL,
      price numeric(12, 2) NOT NULL,
      miles numeric(9, 1) NOT NULL,
      month text NOT NULL,
      accepted_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX lane_rates_view_accepted ON lane_rates_view (accepted_at)`.execute(db);
  await sql`CREATE INDEX lane_rates_view_pickup ON lane_rates_view (pickup_latitude, pickup_longitude)`.execute(
    db,
  );
  await sql`CREATE INDEX lane_rates_view_load ON lane_rates_view (load_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE lane_rates_view`.execute(db);
  await sql`DROP TABLE lane_loads_view`.execute(db);
}
