import { sql, type Kysely } from 'kysely';

/**
 * The devices each user signed in from (its browser and address, hashed into `device_key`), like the
 * sessions in `refresh_tokens`: a sign-in from a device not listed here e-mails the user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE known_devices (
    user_id uuid NOT NULL,
    device_key text NOT NULL,
    user_agent text NOT NULL,
    address text NOT NULL,
    first_seen_at timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, device_key)
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE known_devices`.execute(db);
}
