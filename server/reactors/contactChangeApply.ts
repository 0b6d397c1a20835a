import type { Logger } from 'pino';
import type { IdentityCommands } from '../commands/identity.ts';
import { applyDueContactChanges } from '../commands/organizationContactChanges.ts';
import type { Database } from '../db/database.ts';
import { runUnderLock } from './lockedInterval.ts';

export type ContactChangeScheduler = {
  /** One pass: applies every held contact change due at `now`; returns how many applied. */
  sweep(now?: string): Promise<number>;
  stop(): Promise<void>;
};

/**
 * Applies the organizations' held contact changes once their 24 hours are over (docs/domain.md
 * "Users and organizations"). It keeps no state of its own: each pass reads the pending changes that
 * are due from the `organizationContactChanges` read model, so a restart, or another process taking
 * the lock (`scheduler:organizationContactChanges`, storage/leadership.ts) over, simply carries on.
 * Each change is decided on its organization's stream with the revision read: one cancelled,
 * replaced or applied meanwhile does nothing, and two passes never apply one twice.
 */
export function startContactChangeScheduler(options: {
  database: Database;
  identity: IdentityCommands;
  logger: Logger;
  intervalMs?: number;
}): ContactChangeScheduler {
  const { database, logger } = options;
  const intervalMs = options.intervalMs ?? 60_000;
  const sweep = (now = new Date().toISOString()) =>
    applyDueContactChanges({ identity: options.identity, database, logger }, now);

  const loop = runUnderLock({
    database,
    lock: 'scheduler:organizationContactChanges',
    intervalMs,
    logger,
    failure: 'contact change pass failed',
    pass: async () => {
      const applied = await sweep();
      if (applied > 0) logger.info({ applied }, 'held contact changes applied');
    },
  });

  return { sweep, stop: () => loop.stop() };
}
