import { sql, type Kysely } from 'kysely';

/** Read models of users and organizations, kept by the `users` and `organizations` projections. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE users_view (
      id uuid PRIMARY KEY,
      email text NOT NULL,
      username text NOT NULL,
      name text NOT NULL,
      phone text NOT NULL,
      role_id integer NOT NULL,
      organization_id uuid,
      status integer NOT NULL,
      email_confirmed boolean NOT NULL DEFAULT false,
      reset_code_hash text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX users_view_organization ON users_view (organization_id)`.execute(db);
  await sql`CREATE INDEX users_view_reset_code ON users_view (reset_code_hash) WHERE reset_code_hash IS NOT NULL`.execute(
    db,
  );
  await sql`
    CREATE TABLE organizations_view (
      id uuid PRIMARY KEY,
      type text NOT NULL,
      name text NOT NULL,
      address text NOT NULL,
      person text NOT NULL,
      email text NOT NULL,
      phone text NOT NULL,
      status integer NOT NULL,
      mc_number bigint,
      dot_number bigint,
      eld_provider text,
      trucks jsonb NOT NULL DEFAULT '[]',
      trailers jsonb NOT NULL DEFAULT '[]',
      driver_teams jsonb NOT NULL DEFAULT '[]',
      documents jsonb NOT NULL DEFAULT '{}',
      insured_amount integer,
      signature_file_id uuid,
      registered_by uuid,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX organizations_view_type_status ON organizations_view (type, status)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE organizations_view`.execute(db);
  await sql`DROP TABLE users_view`.execute(db);
}
