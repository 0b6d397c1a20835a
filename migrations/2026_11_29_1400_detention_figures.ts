import { sql, type Kysely } from 'kysely';

/**
 * Detention figures (`detentionFigures` projection): each tour's stops with their recorded arrival
 * and departure, the free time the booking agreed, the claims with the shipper's first answer, and
 * per shipper and per stop place the counts the figures are computed from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE detention_tours_view (
      tour_id uuid PRIMARY KEY,
      free_pickup_minutes integer NOT NULL,
      free_delivery_minutes integer NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE detention_stops_view (
      tour_id uuid NOT NULL,
      stop_id uuid NOT NULL,
      stop_index integer NOT NULL,
      shipper_organization_id uuid NOT NULL,
      place_key text NOT NULL,
      kind text NOT NULL,
      arrived_at timestamptz,
      departed_at timestamptz,
      minutes_on_site integer,
      PRIMARY KEY (tour_id, stop_id)
    )`.execute(db);
  await sql`CREATE INDEX detention_stops_view_shipper ON detention_stops_view (shipper_organization_id)`.execute(
    db,
  );
  await sql`CREATE INDEX detention_stops_view_place ON detention_stops_view (place_key)`.execute(
    db,
  );
  await sql`
    CREATE TABLE detention_claims_view (
      claim_id uuid PRIMARY KEY,
      tour_id uuid NOT NULL,
      stop_index integer,
      shipper_organization_id uuid NOT NULL,
      due_at timestamptz NOT NULL,
      outcome text NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX detention_claims_view_tour ON detention_claims_view (tour_id)`.execute(db);
  await sql`CREATE INDEX detention_claims_view_shipper ON detention_claims_view (shipper_organization_id)`.execute(
    db,
  );
  await sql`
    CREATE TABLE detention_figures_view (
      scope text NOT NULL,
      key text NOT NULL,
      stops integer NOT NULL,
      median_minutes double precision,
      detention_stops integer NOT NULL,
      claims_decided integer NOT NULL,
      claims_on_time integer NOT NULL,
      PRIMARY KEY (scope, key)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE detention_figures_view`.execute(db);
  await sql`DROP TABLE detention_claims_view`.execute(db);
  await sql`DROP TABLE detention_stops_view`.execute(db);
  await sql`DROP TABLE detention_tours_view`.execute(db);
}
