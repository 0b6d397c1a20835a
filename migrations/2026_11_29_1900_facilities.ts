import { sql, type Kysely } from 'kysely';

/**
 * Facilities (`facilities` projection): the facilities (a saved location, or the places within
 * 200 m of the stop that founded one), each load stop's facility with its appointment and time
 * zone, each tour's visits with the recorded arrival and departure and whether detention was
 * claimed, per facility its measured visits and their median minutes on site (the figure beside a
 * load's stops, read without going through every visit), the drivers' latest tags and the
 * shippers' replies.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE facilities_view (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      address text NOT NULL,
      latitude double precision NOT NULL,
      longitude double precision NOT NULL,
      organization_id uuid,
      founded integer NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX facilities_view_latitude ON facilities_view (latitude)`.execute(db);
  await sql`
    CREATE TABLE facility_stops_view (
      load_id uuid NOT NULL,
      stop_id uuid NOT NULL,
      stop_index integer NOT NULL,
      facility_id uuid NOT NULL,
      shipper_organization_id uuid NOT NULL,
      appointment_at timestamptz,
      grace_minutes integer NOT NULL,
      time_zone text NOT NULL,
      PRIMARY KEY (load_id, stop_id)
    )`.execute(db);
  await sql`CREATE INDEX facility_stops_view_facility ON facility_stops_view (facility_id, shipper_organization_id)`.execute(
    db,
  );
  await sql`
    CREATE TABLE facility_visits_view (
      tour_id uuid NOT NULL,
      stop_id uuid NOT NULL,
      stop_index integer NOT NULL,
      facility_id uuid NOT NULL,
      shipper_organization_id uuid NOT NULL,
      driver_id text,
      appointment_at timestamptz,
      grace_minutes integer NOT NULL,
      time_zone text NOT NULL,
      arrived_at timestamptz,
      departed_at timestamptz,
      detention boolean NOT NULL DEFAULT false,
      PRIMARY KEY (tour_id, stop_id)
    )`.execute(db);
  await sql`CREATE INDEX facility_visits_view_facility ON facility_visits_view (facility_id)`.execute(
    db,
  );
  await sql`
    CREATE TABLE facility_figures_view (
      facility_id uuid PRIMARY KEY,
      visits integer NOT NULL,
      median_minutes double precision
    )`.execute(db);
  await sql`
    CREATE TABLE facility_tags_view (
      facility_id uuid NOT NULL,
      user_id text NOT NULL,
      tour_id uuid NOT NULL,
      tags jsonb NOT NULL,
      tagged_at timestamptz NOT NULL,
      PRIMARY KEY (facility_id, user_id)
    )`.execute(db);
  await sql`
    CREATE TABLE facility_replies_view (
      reply_id uuid PRIMARY KEY,
      facility_id uuid NOT NULL,
      text text NOT NULL,
      organization_id uuid NOT NULL,
      replied_by text NOT NULL,
      replied_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX facility_replies_view_facility ON facility_replies_view (facility_id, replied_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE facility_replies_view`.execute(db);
  await sql`DROP TABLE facility_tags_view`.execute(db);
  await sql`DROP TABLE facility_figures_view`.execute(db);
  await sql`DROP TABLE facility_visits_view`.execute(db);
  await sql`DROP TABLE facility_stops_view`.execute(db);
  await sql`DROP TABLE facilities_view`.execute(db);
}
