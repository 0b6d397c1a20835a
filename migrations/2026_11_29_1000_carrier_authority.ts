import { sql, type Kysely } from 'kysely';

/**
 * `carrier_authority`: the last FMCSA carrier file the Superadmin imported (server/integrations/fmcsa/),
 * one row per DOT number; an import replaces every row in one transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE carrier_authority (
    dot_number bigint PRIMARY KEY,
    mc_number bigint,
    legal_name text NOT NULL,
    status text NOT NULL,
    insurance_on_file boolean NOT NULL,
    as_of timestamptz NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX carrier_authority_mc ON carrier_authority (mc_number)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE carrier_authority`.execute(db);
}
