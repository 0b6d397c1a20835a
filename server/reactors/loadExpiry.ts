import type { Logger } from 'pino';
import {
  expiredOpenLoads,
  unfinishedAcceptances,
} from '../../projections/marketplace/marketplace.queries.ts';
import { loadsDueToOpen } from '../../projections/carrierPreferences/carrierPreferences.queries.ts';
import type { MarketplaceCommands } from '../commands/marketplace.ts';
import type { Database } from '../db/database.ts';
import { runUnderLock } from './lockedInterval.ts';

export type LoadExpiryScheduler = {
  /** One pass: pauses every open load whose offer expired; returns how many it paused. */
  sweep(now?: string): Promise<number>;
  /** One pass: opens every preferred-only load whose window passed to the whole marketplace; how many. */
  open(now?: string): Promise<number>;
  /** One pass of the acceptance repair; returns how many loads it completed. */
  repair(now?: string): Promise<number>;
  stop(): Promise<void>;
};

/**
 * Opens preferred-only loads to the whole marketplace once their window passed (docs/domain.md
 * "Preferred and blocked carriers"), and pauses loads whose offer expiration passed with no accepted offer (docs/domain.md "Load": 8 Paused).
 * It keeps no state of its own: each pass reads the open loads from the read model, so a restart
 * simply carries on. With several processes on one PostgreSQL, only the holder of an advisory lock
 * (storage/leadership.ts) sweeps; the others wait to take over. A pass racing another writer is harmless: ExpireLoad is
 * decided on the load stream and does nothing on a load that is no longer open.
 */
export function startLoadExpiryScheduler(options: {
  database: Database;
  marketplace: MarketplaceCommands;
  logger: Logger;
  intervalMs?: number;
  batchSize?: number;
}): LoadExpiryScheduler {
  const { database, marketplace, logger } = options;
  const { db } = database;
  const intervalMs = options.intervalMs ?? 15_000;
  const batchSize = options.batchSize ?? 200;

  const sweep = async (now = new Date().toISOString()): Promise<number> => {
    let paused = 0;
    for (;;) {
      const due = await expiredOpenLoads(db, now, batchSize);
      let changed = 0;
      for (const { id } of due) {
        try {
          if (await marketplace.expireLoad(id, now)) changed++;
        } catch (error) {
          logger.warn({ err: error, loadId: id }, 'could not pause an expired load');
        }
      }
      paused += changed;
      // The read model catches up after the appends; stop when a page brought nothing new.
      if (due.length < batchSize || changed === 0) return paused;
    }
  };

  /**
   * Opens preferred-only loads whose window passed (LoadOpenedToMarketplace): from the read model,
   * so a restart carries on; OpenLoadToMarketplace does nothing on a load opened already.
   */
  const open = async (now = new Date().toISOString()): Promise<number> => {
    let opened = 0;
    for (;;) {
      const due = await loadsDueToOpen(db, now, batchSize);
      let changed = 0;
      for (const { id } of due) {
        try {
          if (await marketplace.openLoadToMarketplace(id, now)) changed++;
        } catch (error) {
          logger.warn({ err: error, loadId: id }, 'could not open a load to the marketplace');
        }
      }
      opened += changed;
      if (due.length < batchSize || changed === 0) return opened;
    }
  };

  /**
   * Finishes acceptances whose follow-ups were cut short (a crash between the load's acceptance and
   * the tour's opening): an accepted load with no tour, or with offers still open.
   */
  const repair = async (now = new Date().toISOString()): Promise<number> => {
    const loads = await unfinishedAcceptances(
      db,
      new Date(Date.parse(now) - 5_000).toISOString(),
      batchSize,
    );
    let repaired = 0;
    for (const { id } of loads) {
      try {
        if (await marketplace.completeAcceptance(id, null, now)) repaired++;
      } catch (error) {
        logger.warn({ err: error, loadId: id }, 'could not complete an acceptance');
      }
    }
    return repaired;
  };

  const loop = runUnderLock({
    database,
    lock: 'scheduler:loadExpiry',
    intervalMs,
    logger,
    failure: 'load expiry pass failed',
    pass: async () => {
      const paused = await sweep();
      if (paused > 0) logger.info({ paused }, 'expired loads paused');
      const opened = await open();
      if (opened > 0) logger.info({ opened }, 'preferred-only loads opened to the marketplace');
      const repaired = await repair();
      if (repaired > 0) logger.warn({ repaired }, 'unfinished acceptances completed');
    },
  });

  return { sweep, open, repair, stop: () => loop.stop() };
}
