import { sql, type Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';

/**
 * Who holds the projections' advisory locks (the runner's `hashtext('projection:<name>')` keys) on
 * the database `db` is connected to: how many each process holds, by its `application_name`.
 */
export async function projectionLockHolders(db: Kysely<DB>): Promise<Record<string, number>> {
  const { rows } = await sql<{ name: string; locks: string }>`
    WITH keys AS (SELECT hashtext('projection:' || name)::bigint AS k FROM projection_checkpoints)
    SELECT a.application_name AS name, count(*)::text AS locks
    FROM keys JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
      AND l.classid = ((keys.k >> 32) & 4294967295)::text::oid AND l.objid = (keys.k & 4294967295)::text::oid
    JOIN pg_stat_activity a ON a.pid = l.pid AND a.datname = current_database()
    GROUP BY a.application_name`.execute(db);
  return Object.fromEntries(rows.map((row) => [row.name, Number(row.locks)]));
}
