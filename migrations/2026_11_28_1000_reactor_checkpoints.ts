import { sql, type Kysely } from 'kysely';

/**
 * The reactors on the event log (the pickup truck check, the webhooks) keep their checkpoints in
 * one table, `reactor_checkpoints`, one row per reactor by its name, instead of a table each. The
 * rows of `eld_checkpoints` and `webhook_checkpoints` move over unchanged, so each reactor carries
 * on from where it stood.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE reactor_checkpoints (
    name text PRIMARY KEY,
    transaction_id numeric(20, 0) NOT NULL DEFAULT 0,
    global_position numeric(20, 0) NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  for (const table of ['eld_checkpoints', 'webhook_checkpoints']) {
    await sql`INSERT INTO reactor_checkpoints (name, transaction_id, global_position, updated_at)
      SELECT name, transaction_id, global_position, updated_at FROM ${sql.table(table)}
      ON CONFLICT (name) DO NOTHING`.execute(db);
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE eld_checkpoints (
    name text PRIMARY KEY,
    transaction_id numeric(20) NOT NULL DEFAULT 0,
    global_position numeric(20) NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`CREATE TABLE webhook_checkpoints (
    name text PRIMARY KEY,
    transaction_id numeric(20, 0) NOT NULL,
    global_position numeric(20, 0) NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`INSERT INTO webhook_checkpoints SELECT * FROM reactor_checkpoints WHERE name = 'webhooks'`.execute(
    db,
  );
  await sql`INSERT INTO eld_checkpoints SELECT * FROM reactor_checkpoints WHERE name <> 'webhooks'`.execute(
    db,
  );
  await sql`DROP TABLE reactor_checkpoints`.execute(db);
}
