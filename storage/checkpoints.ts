import { sql, type Kysely } from 'kysely';
import type { LogPosition } from './eventStore.ts';
import type { DB } from './schema.ts';

/**
 * The reactors' checkpoints: where in the log each reactor on it stands, one row of
 * `reactor_checkpoints` per reactor by its name. (Read models keep theirs, with their version, in
 * `projection_checkpoints`.)
 */
export type ReactorCheckpoint = { name: string; position: LogPosition; updatedAt: Date };

const positionOf = (row: { transaction_id: string; global_position: string }): LogPosition => ({
  transactionId: String(row.transaction_id),
  globalPosition: String(row.global_position),
});

/** The reactor's checkpoint; created at `initial()` (the head of the log, say) the first time. */
export async function readReactorCheckpoint(
  db: Kysely<DB>,
  name: string,
  initial: () => Promise<LogPosition>,
): Promise<LogPosition> {
  const found = await reactorCheckpointOf(db, name);
  if (found) return found;
  const at = await initial();
  await sql`INSERT INTO reactor_checkpoints (name, transaction_id, global_position)
    VALUES (${name}, ${at.transactionId}, ${at.globalPosition})
    ON CONFLICT (name) DO NOTHING`.execute(db);
  return readReactorCheckpoint(db, name, initial);
}

/** Where the reactor's checkpoint stands; null before it first ran. */
export async function reactorCheckpointOf(
  db: Kysely<DB>,
  name: string,
): Promise<LogPosition | null> {
  const row = await db
    .selectFrom('reactor_checkpoints')
    .select(['transaction_id', 'global_position'])
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? positionOf(row) : null;
}

/** Moves the reactor's checkpoint to `position`, in the caller's transaction when `db` is one. */
export async function writeReactorCheckpoint(
  db: Kysely<DB>,
  name: string,
  position: LogPosition,
): Promise<void> {
  await sql`UPDATE reactor_checkpoints
    SET transaction_id = ${position.transactionId}, global_position = ${position.globalPosition}, updated_at = now()
    WHERE name = ${name}`.execute(db);
}

/** Every reactor's checkpoint, by name. */
export async function listReactorCheckpoints(db: Kysely<DB>): Promise<ReactorCheckpoint[]> {
  const rows = await db.selectFrom('reactor_checkpoints').selectAll().orderBy('name').execute();
  return rows.map((row) => ({
    name: row.name,
    position: positionOf(row),
    updatedAt: new Date(row.updated_at),
  }));
}
