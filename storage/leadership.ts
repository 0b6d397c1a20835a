import { sql, type Kysely } from 'kysely';
import type { Database, SessionConnection } from './connection.ts';
import type { DB } from './schema.ts';

/**
 * Which background jobs this process runs. With several processes on one PostgreSQL, a job runs in
 * the holder of its session-level advisory lock (`pg_try_advisory_lock(hashtext(job))`); the others
 * keep asking, so one takes over when the holder dies (its session ends, and the lock with it). On
 * PGlite the one process owns the database and so every job. The jobs of one Leadership share one
 * session connection.
 *
 * The job names are the keys other processes of older versions also take: read models
 * `projection:<name>`, reactors `reactor:<name>`, timers `scheduler:<name>`.
 */
export type Leadership = {
  /** Whether this process runs the job, taking its lock when it is free. */
  holds(job: string): Promise<boolean>;
  /** Whether this process took the job's lock (no question to the database). */
  leads(job: string): boolean;
  /** Gives one job back, so another process may take it. */
  resign(job: string): Promise<void>;
  /** After a session error: forget the locks (they went with the session) and reconnect on the next ask. */
  reset(): Promise<void>;
  /** Gives every job back and closes the session. */
  release(): Promise<void>;
};

export function createLeadership(database: Pick<Database, 'kind' | 'session'>): Leadership {
  let session: SessionConnection | null = null;
  // Jobs of one Leadership may ask at the same time: they wait for the one session being opened.
  let opening: Promise<SessionConnection> | null = null;
  const open = () =>
    (opening ??= database.session().then(
      (opened) => {
        session = opened;
        return opened;
      },
      (error: unknown) => {
        opening = null;
        throw error;
      },
    ));
  const held = new Set<string>();
  // One question at a time on the session: a connection answers its queries in turn, and asking
  // while one is out is deprecated by the driver.
  let queue: Promise<unknown> = Promise.resolve();
  const ask = <T>(on: SessionConnection, text: string, params: unknown[]): Promise<T[]> => {
    const asked = queue.then(() => on.query<T>(text, params));
    queue = asked.catch(() => undefined);
    return asked;
  };
  const unlock = async (job: string) => {
    held.delete(job);
    if (!session) return;
    await ask(session, 'SELECT pg_advisory_unlock(hashtext($1))', [job]).catch(() => undefined);
  };
  const reset = async () => {
    held.clear();
    const current = session;
    session = null;
    opening = null;
    await current?.release().catch(() => undefined);
  };
  return {
    async holds(job) {
      if (held.has(job)) return true;
      const current = await open();
      // On PGlite the lock is still taken on its one connection, so `leadHeld` reports the job.
      const [row] = await ask<{ locked: boolean }>(
        current,
        'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
        [job],
      );
      // A reset while the question was out (another job's session failed): the lock went with it.
      if (row?.locked && current === session) held.add(job);
      return held.has(job);
    },
    leads: (job) => held.has(job),
    resign: unlock,
    reset,
    async release() {
      // PGlite's session is the one connection, which outlives this: give the locks back first.
      for (const job of [...held]) await unlock(job);
      await reset();
    },
  };
}

/** Whether some session of this database (this process's or another's) holds the job's lock. */
export async function leadHeld(db: Kysely<DB>, job: string): Promise<boolean> {
  const { rows } = await sql<{ held: boolean }>`
    WITH lock AS (SELECT hashtext(${job})::bigint AS key)
    SELECT EXISTS (
      SELECT 1 FROM pg_locks, lock
      WHERE pg_locks.locktype = 'advisory' AND pg_locks.granted AND pg_locks.objsubid = 1
        AND pg_locks.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND pg_locks.classid::text::bigint = ((lock.key >> 32) & 4294967295)
        AND pg_locks.objid::text::bigint = (lock.key & 4294967295)
    ) AS held`.execute(db);
  return Boolean(rows[0]?.held);
}
