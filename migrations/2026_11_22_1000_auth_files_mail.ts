import { sql, type Kysely } from 'kysely';

/** Sessions (refresh tokens), the e-mail outbox and stored documents: state that is not an event. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Only the SHA-256 of a refresh token is kept, so a leaked table cannot be replayed. A family is
  // one sign-in; every rotation adds a row to it, and revoking the family ends the session.
  // organization_id and role_id are the claims the next access token carries; session_started_at is
  // the sign-in time, so a password reset refuses the whole session even after later rotations.
  await sql`
    CREATE TABLE refresh_tokens (
      id uuid PRIMARY KEY,
      family_id uuid NOT NULL,
      user_id uuid NOT NULL,
      organization_id uuid,
      role_id integer NOT NULL,
      token_hash text NOT NULL UNIQUE,
      session_started_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      revoked_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id)`.execute(db);
  await sql`CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id)`.execute(db);
  await sql`CREATE INDEX refresh_tokens_expires ON refresh_tokens (expires_at)`.execute(db);

  // "to" is a keyword, hence the quotes.
  await sql`
    CREATE TABLE outbox (
      id uuid PRIMARY KEY,
      "to" text NOT NULL,
      subject text NOT NULL,
      text text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX outbox_created ON outbox (created_at DESC, id DESC)`.execute(db);

  // Documents are addressed by a random UUID, never by the client's file name.
  await sql`
    CREATE TABLE files (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL,
      kind text NOT NULL,
      mime text NOT NULL,
      size integer NOT NULL CHECK (size >= 0),
      sha256 text NOT NULL,
      data bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX files_organization ON files (organization_id, kind)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE files`.execute(db);
  await sql`DROP TABLE outbox`.execute(db);
  await sql`DROP TABLE refresh_tokens`.execute(db);
}
