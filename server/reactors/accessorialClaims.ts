/**
 * Accessorial claims from the evidence the platform records (docs/domain.md "Accessorial terms and
 * claims"), and their approval by silence:
 * - a reactor on the event log: at each recorded departure from a stop (a `TourEventAdded` of type
 *   'departed', whether the geofence, the driver or the carrier recorded it) the stop's detention or
 *   layover is claimed, and at each cancellation by the shipper after the carrier confirmed, TONU.
 *   Checkpointed, one process at a time; the claim ids come from the facts, so a page delivered
 *   again claims nothing twice.
 * - a scheduled pass, under a lock (one process of many; a restart carries on from the read model):
 *   each claim still unanswered once its window closed is approved by the passing of time.
 */
import type { Logger } from 'pino';
import type { TourCanceled, TourEventAdded } from '../../domain/tours/tour.types.ts';
import { claimsDue } from '../../projections/claims/claims.queries.ts';
import { startReactor, type Reactor } from '../../storage/reactor.ts';
import type { ClaimCommands } from '../commands/claims.ts';
import type { Database } from '../db/database.ts';
import type { EventStore, RecordedEvent } from '../eventstore/eventStore.ts';
import { runUnderLock } from './lockedInterval.ts';

export const CLAIMS_REACTOR = { name: 'accessorialClaims' };

export type AccessorialClaimsScheduler = {
  /** One pass: approves every claim whose window closed by `now`; answers how many. */
  sweep(now?: string): Promise<number>;
  /** The reactor that produces claims from departures and cancellations; null where background work is off. */
  reactor: Reactor | null;
  stop(): Promise<void>;
};

export function startAccessorialClaims(options: {
  database: Database;
  store: EventStore;
  claims: ClaimCommands;
  logger: Logger;
  background: boolean;
  intervalMs?: number;
  batchSize?: number;
}): AccessorialClaimsScheduler {
  const { database, store, claims, logger } = options;
  const { db } = database;
  const batchSize = options.batchSize ?? 200;

  const sweep = async (now = new Date().toISOString()): Promise<number> => {
    let approved = 0;
    for (;;) {
      const due = await claimsDue(db, now, batchSize);
      let changed = 0;
      for (const claim of due) {
        try {
          if (await claims.approveBySilence(claim.tour_id, claim.id, now)) changed++;
        } catch (error) {
          logger.warn({ err: error, claimId: claim.id }, 'could not approve a claim by silence');
        }
      }
      approved += changed;
      // The read model catches up after the appends; stop when a page brought nothing new.
      if (due.length < batchSize || changed === 0) return approved;
    }
  };

  const reactor = options.background
    ? startReactor(
        {
          ...CLAIMS_REACTOR,
          handles: ['TourEventAdded', 'TourCanceled'],
          async handle(events) {
            let claimed = false;
            for (const event of events) {
              try {
                if (event.type === 'TourEventAdded') {
                  const { data } = event as unknown as RecordedEvent<TourEventAdded>;
                  if (data.type !== 'departed' || !data.stopId) continue;
                  claimed = true;
                  await claims.claimAtDeparture(data.tourId, data.stopId, data.at);
                } else {
                  const { data } = event as unknown as RecordedEvent<TourCanceled>;
                  claimed = true;
                  await claims.claimAtCancellation(
                    data.tourId,
                    data.from,
                    data.party,
                    data.canceledAt,
                  );
                }
              } catch (error) {
                logger.warn({ err: error }, 'could not produce an accessorial claim');
              }
            }
            return claimed ? undefined : 'idle';
          },
        },
        { database, store, logger },
      )
    : null;

  const loop = options.background
    ? runUnderLock({
        database,
        lock: 'scheduler:claimsSilence',
        intervalMs: options.intervalMs ?? 30_000,
        logger,
        failure: 'approving claims by silence failed',
        pass: async () => {
          const approved = await sweep();
          if (approved > 0) logger.info({ approved }, 'claims approved by silence');
        },
      })
    : null;

  return {
    sweep,
    reactor,
    async stop() {
      await reactor?.stop();
      await loop?.stop();
    },
  };
}
