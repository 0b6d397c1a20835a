import { sql, type Kysely } from 'kysely';

/**
 * Landing content and leads. `content_entries` holds the landing page's built-in content, one row
 * per item of a content type (hero, aboutCards, …), written at the first read of a type from the
 * content shipped with the server, and editable afterwards; it is not part of the event log.
 * `leads_view` is the read model of the lead streams (InterestRegistered): who asked to hear from us.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE content_entries (
      type text NOT NULL,
      position integer NOT NULL,
      fields jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (type, position)
    )`.execute(db);
  await sql`
    CREATE TABLE leads_view (
      id uuid PRIMARY KEY,
      email text NOT NULL UNIQUE,
      registered_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX leads_view_registered ON leads_view (registered_at DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE leads_view`.execute(db);
  await sql`DROP TABLE content_entries`.execute(db);
}
