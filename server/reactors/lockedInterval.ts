import type { Logger } from 'pino';
import { createLeadership, type Leadership } from '../../storage/leadership.ts';
import type { Database } from '../db/database.ts';

/**
 * The scheduled reactors of one process share one leadership, so one session connection holds all
 * their locks rather than one connection each (a process with six timers kept six idle sessions).
 */
const shared = new WeakMap<Database, { leadership: Leadership; users: number }>();
function sharedLeadership(database: Database): Leadership {
  let entry = shared.get(database);
  if (!entry) {
    entry = { leadership: createLeadership(database), users: 0 };
    shared.set(database, entry);
  }
  entry.users += 1;
  return entry.leadership;
}
async function leave(database: Database, job: string): Promise<void> {
  const entry = shared.get(database);
  if (!entry) return;
  entry.users -= 1;
  if (entry.users > 0) return entry.leadership.resign(job);
  shared.delete(database);
  await entry.leadership.release();
}

export type LockedInterval = {
  /** True once `stop` was called: a long pass may end early. */
  readonly stopped: boolean;
  /** Waits for the running pass, then releases the lock. */
  stop(): Promise<void>;
};

/**
 * The loop the scheduled reactors share: a pass every `intervalMs` (and one at once unless
 * `startAtOnce` is false), one at a time, and only in the process that holds the advisory lock `lock`
 * (storage/leadership.ts; the others wait to take over). A failed pass is logged as `failure` and,
 * on PostgreSQL, the locks' session is reset so that the next pass or another process starts clean
 * (the process's other timers take their locks again on their next pass).
 */
export function runUnderLock(options: {
  database: Database;
  lock: string;
  intervalMs: number;
  logger: Logger;
  failure: string;
  startAtOnce?: boolean;
  pass: () => Promise<void>;
}): LockedInterval {
  const { database, logger } = options;
  const leadership = sharedLeadership(database);
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();

  const tick = async () => {
    if (stopped) return;
    try {
      if (await leadership.holds(options.lock)) await options.pass();
    } catch (error) {
      logger.warn({ err: error }, options.failure);
      if (database.kind === 'postgres') await leadership.reset();
    }
  };

  const timer = setInterval(() => {
    running = running.then(tick);
  }, options.intervalMs);
  timer.unref();
  if (options.startAtOnce !== false) running = running.then(tick);

  return {
    get stopped() {
      return stopped;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running.catch(() => undefined);
      await leave(database, options.lock);
    },
  };
}
