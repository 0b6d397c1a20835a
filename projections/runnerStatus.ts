import { sql, type Kysely } from 'kysely';
import type { DB } from '../storage/schema.ts';
import { comparePositions, type LogPosition } from '../storage/eventStore.ts';

/** A read model as `GET admin/projections` shows it. */
export type AdminStatus = {
  projection: string;
  version: number;
  /** stalled: behind and not moving, or run by no process; catching-up: behind by more than a page. */
  status: 'running' | 'catching-up' | 'stalled' | 'rebuilding';
  position: LogPosition;
  /** Events between its position and the head of the log. */
  lag: number;
  parked: number;
  rebuild: { progress: number; position: LogPosition } | null;
};

/** The events after `after` up to `upTo` in the SQL log: how many, and when the first of them was appended. */
export async function countEvents(
  db: Kysely<DB>,
  after: LogPosition,
  upTo: LogPosition,
): Promise<{ count: number; oldest: Date | null }> {
  if (comparePositions(after, upTo) >= 0) return { count: 0, oldest: null };
  const { rows } = await sql<{
    count: string | number;
    oldest: Date | string | null;
  }>`SELECT count(*) AS count, min(created_at) AS oldest FROM events
    WHERE (transaction_id, global_position) > (${after.transactionId}::text::xid8, ${after.globalPosition}::bigint)
      AND (transaction_id, global_position) <= (${upTo.transactionId}::text::xid8, ${upTo.globalPosition}::bigint)`.execute(
    db,
  );
  return {
    count: Number(rows[0]?.count ?? 0),
    oldest: rows[0]?.oldest ? new Date(rows[0].oldest) : null,
  };
}

/** Whether some session holds the projection's advisory lock (the runner's `pg_try_advisory_lock(hashtext(...))`). */
export async function lockHeld(db: Kysely<DB>, name: string): Promise<boolean> {
  const { rows } = await sql<{ held: boolean }>`
    WITH lock AS (SELECT hashtext(${`projection:${name}`})::bigint AS key)
    SELECT EXISTS (
      SELECT 1 FROM pg_locks, lock
      WHERE pg_locks.locktype = 'advisory' AND pg_locks.granted AND pg_locks.objsubid = 1
        AND pg_locks.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND pg_locks.classid::text::bigint = ((lock.key >> 32) & 4294967295)
        AND pg_locks.objid::text::bigint = (lock.key & 4294967295)
    ) AS held`.execute(db);
  return Boolean(rows[0]?.held);
}
