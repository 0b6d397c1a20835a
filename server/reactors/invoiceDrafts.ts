/**
 * Carriers' invoices from the log (docs/domain.md "Invoices"):
 * - a reactor: at each `DeliveryConfirmed` the carrier's invoice is drafted (the route drafts it
 *   at once too; the invoice id comes from the tour, so whichever comes second adds nothing, and a
 *   confirmation whose draft did not happen is drafted here). Checkpointed, one process at a time.
 * - a scheduled pass, under a lock: each invoice the shipper left unanswered for
 *   `INVOICE_SILENCE_DAYS` after its submission (or the carrier's answer to a dispute) is approved
 *   by the passing of time.
 */
import type { Logger } from 'pino';
import { INVOICE_SILENCE_DAYS } from '../../domain/invoices/invoice.decide.ts';
import type { DeliveryConfirmed } from '../../domain/tours/tour.types.ts';
import { invoicesAwaitingSince } from '../../projections/invoices/invoices.queries.ts';
import { startReactor, type Reactor } from '../../storage/reactor.ts';
import type { InvoiceCommands } from '../commands/invoices.ts';
import type { Database } from '../db/database.ts';
import type { EventStore, RecordedEvent } from '../eventstore/eventStore.ts';
import { runUnderLock } from './lockedInterval.ts';

export const INVOICES_REACTOR = { name: 'invoiceDrafts' };
const DAY = 24 * 60 * 60 * 1000;

export type InvoiceScheduler = {
  /** One pass: approves every invoice whose window closed by `now`; answers how many. */
  sweep(now?: string): Promise<number>;
  reactor: Reactor | null;
  stop(): Promise<void>;
};

export function startInvoiceScheduler(options: {
  database: Database;
  store: EventStore;
  invoices: InvoiceCommands;
  logger: Logger;
  background: boolean;
  intervalMs?: number;
  batchSize?: number;
}): InvoiceScheduler {
  const { database, store, invoices, logger } = options;
  const { db } = database;
  const batchSize = options.batchSize ?? 200;

  const sweep = async (now = new Date().toISOString()): Promise<number> => {
    const since = new Date(Date.parse(now) - INVOICE_SILENCE_DAYS * DAY).toISOString();
    let approved = 0;
    for (;;) {
      const due = await invoicesAwaitingSince(db, since, batchSize);
      let changed = 0;
      for (const invoice of due) {
        try {
          if (await invoices.approveBySilence(invoice.id, now)) changed++;
        } catch (error) {
          logger.warn(
            { err: error, invoiceId: invoice.id },
            'could not approve an invoice by silence',
          );
        }
      }
      approved += changed;
      if (due.length < batchSize || changed === 0) return approved;
    }
  };

  const reactor = options.background
    ? startReactor(
        {
          ...INVOICES_REACTOR,
          handles: ['DeliveryConfirmed'],
          async handle(events) {
            for (const event of events) {
              const { data } = event as unknown as RecordedEvent<DeliveryConfirmed>;
              try {
                await invoices.draftForTour(data.tourId, null, data.confirmedAt);
              } catch (error) {
                logger.warn({ err: error, tourId: data.tourId }, 'could not draft an invoice');
              }
            }
            return events.length > 0 ? undefined : 'idle';
          },
        },
        { database, store, logger },
      )
    : null;

  const loop = options.background
    ? runUnderLock({
        database,
        lock: 'scheduler:invoicesSilence',
        intervalMs: options.intervalMs ?? 60_000,
        logger,
        failure: 'approving invoices by silence failed',
        pass: async () => {
          const approved = await sweep();
          if (approved > 0) logger.info({ approved }, 'invoices approved by silence');
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
