import type { Database, SessionConnection } from '../../db/database.ts';

/**
 * Which background jobs of the ELD integration this process runs. With several processes on one
 * PostgreSQL, a job runs in the holder of its session-level advisory lock (the others keep asking,
 * so one takes over when the holder dies); on PGlite the one process runs them all. The jobs share
 * one session connection.
 */
export type Leadership = {
  /** Whether this process runs the job, taking its lock when it is free. */
  holds(job: string): Promise<boolean>;
  /** After a session error: forget the locks (they went with the session) and reconnect on the next ask. */
  reset(): Promise<void>;
  release(): Promise<void>;
};

export function createLeadership(database: Database): Leadership {
  let session: SessionConnection | null = null;
  const held = new Set<string>();
  const reset = async () => {
    held.clear();
    const current = session;
    session = null;
    await current?.release().catch(() => undefined);
  };
  return {
    async holds(job) {
      if (database.kind === 'pglite' || held.has(job)) return true;
      session ??= await database.session();
      const [row] = await session.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
        [job],
      );
      if (row?.locked) held.add(job);
      return held.has(job);
    },
    reset,
    release: reset,
  };
}
