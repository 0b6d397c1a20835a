import type { Logger } from 'pino';
import { GenericStatus } from '../../domain/catalog.ts';
import type { CarrierAuthorityChanged } from '../../domain/organizations/organization.ts';
import {
  checkCarrierAuthority,
  isLapse,
  mailAuthorityLapse,
  type AuthorityDeps,
} from '../commands/carrierAuthority.ts';
import type { Database } from '../db/database.ts';
import type { Mailer } from '../integrations/mail/mailer.ts';
import { runUnderLock } from './lockedInterval.ts';

export type AuthorityCheckScheduler = {
  /** One pass: checks every Active carrier not checked in the last day; returns the changes recorded. */
  sweep(now?: string): Promise<number>;
  stop(): Promise<void>;
};

export const AUTHORITY_CHECK_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * The daily check of Active carriers' operating authority (docs/architecture.md "Leadership": lock
 * `scheduler:carrierAuthority`). Each pass, hourly, checks the carriers whose last check is a day
 * old or missing: the last one recorded on their organization's stream, or the last unchanged one
 * made by this process (kept in memory; after a restart a carrier may be asked once more). A change is recorded as CarrierAuthorityChanged; a lapse (no longer active, or the insurance
 * gone) is e-mailed to the carrier's managers and the Superadmins.
 */
export function startAuthorityCheckScheduler(
  options: AuthorityDeps & {
    database: Database;
    mailer: Mailer;
    logger: Logger;
    intervalMs?: number;
  },
): AuthorityCheckScheduler {
  const { database, mailer, logger } = options;
  const { db } = database;
  const intervalMs = options.intervalMs ?? 60 * 60 * 1000;
  // An unchanged check records nothing: when each carrier was last checked here, so it is asked once a day.
  const checkedHere = new Map<string, number>();

  const sweep = async (now = new Date().toISOString()): Promise<number> => {
    const carriers = await db
      .selectFrom('organizations_view')
      .select(['id', 'name'])
      .where('type', '=', 'Carrier')
      .where('status', '=', GenericStatus.Active)
      .where('dot_number', 'is not', null)
      .orderBy('id')
      .execute();
    const due = Date.parse(now) - AUTHORITY_CHECK_EVERY_MS;
    let changed = 0;
    for (const { id, name } of carriers) {
      if (loop.stopped) break;
      try {
        const organization = await options.identity.loadOrganization(id);
        const recorded = organization?.authority?.checkedAt;
        const last = Math.max(recorded ? Date.parse(recorded) : 0, checkedHere.get(id) ?? 0);
        if (last > due) continue;
        const result = await checkCarrierAuthority(options, id, null, now);
        checkedHere.set(id, Date.parse(now));
        for (const event of result?.events ?? []) {
          if (event.type !== 'CarrierAuthorityChanged') continue;
          changed++;
          if (isLapse(event as CarrierAuthorityChanged))
            await mailAuthorityLapse({ db, mailer, logger }, name, event);
        }
      } catch (error) {
        logger.warn({ err: error, organizationId: id }, 'carrier authority not checked');
      }
    }
    return changed;
  };

  const loop = runUnderLock({
    database,
    lock: 'scheduler:carrierAuthority',
    intervalMs,
    logger,
    failure: 'carrier authority pass failed',
    startAtOnce: false,
    pass: async () => {
      const changed = await sweep();
      if (changed > 0) logger.info({ changed }, 'carrier authority changes recorded');
    },
  });

  return { sweep, stop: () => loop.stop() };
}
