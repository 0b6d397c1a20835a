import type { ReactorLag } from '../../domain/contracts/projections.contract.ts';
import { countEvents } from '../../projections/runnerStatus.ts';
import { listReactorCheckpoints } from '../../storage/checkpoints.ts';
import { leadHeld } from '../../storage/leadership.ts';
import type { Database } from '../db/database.ts';
import type { EventStore } from '../eventstore/eventStore.ts';
import { CLAIMS_REACTOR } from './accessorialClaims.ts';
import { INVOICES_REACTOR } from './invoiceDrafts.ts';
import { LANE_ALERTS_REACTOR } from './laneAlerts.ts';
import { PICKUP_CHECK_REACTOR } from './pickupCheck.ts';
import { WEBHOOKS_REACTOR } from '../webhooks/reactor.ts';
import { EDI_REACTOR } from '../edi/outboundReactor.ts';

/** The reactors on the log with a checkpoint, by the lock each runs under (storage/reactor.ts). */
export const REACTORS: readonly { name: string; job: string }[] = [
  { name: LANE_ALERTS_REACTOR, job: `reactor:${LANE_ALERTS_REACTOR}` },
  PICKUP_CHECK_REACTOR,
  { name: WEBHOOKS_REACTOR, job: `reactor:${WEBHOOKS_REACTOR}` },
  { name: CLAIMS_REACTOR.name, job: `reactor:${CLAIMS_REACTOR.name}` },
  { name: EDI_REACTOR.name, job: `reactor:${EDI_REACTOR.name}` },
  { name: INVOICES_REACTOR.name, job: `reactor:${INVOICES_REACTOR.name}` },
];

/** Behind for this long without its checkpoint moving: stalled. */
const STALL_MS = 10_000;
/** Behind by more than a page: catching up. */
const PAGE = 200;
/** The events of a reactor's lag counted on EventStoreDB (beyond it, "at least"). */
const LAG_COUNTED = 10_000;

/**
 * Each reactor for the Superadmin, beside the read models: where its checkpoint stands, how many
 * events it is behind, and whether any process runs it. One that never ran (no checkpoint yet, its
 * feature unused or background work off everywhere) is listed at the start of the log, stalled.
 */
export async function reactorLags(database: Database, store: EventStore): Promise<ReactorLag[]> {
  const db = database.background;
  const [rows, head] = await Promise.all([listReactorCheckpoints(db), store.head()]);
  const known = new Map(REACTORS.map((reactor) => [reactor.name, reactor.job]));
  for (const row of rows) if (!known.has(row.name)) known.set(row.name, `reactor:${row.name}`);
  const now = Date.now();
  const answer: ReactorLag[] = [];
  for (const [name, job] of known) {
    const row = rows.find((candidate) => candidate.name === name);
    const position = row?.position ?? { transactionId: '0', globalPosition: '0' };
    const behind =
      store.kind === 'esdb'
        ? {
            count: (await store.readAll({ from: position, limit: LAG_COUNTED })).length,
            oldest: null,
          }
        : await countEvents(db, position, head);
    const claimed = await leadHeld(db, job);
    // Its checkpoint moves at least once a second while it follows events.
    const stuck =
      behind.count > 0 &&
      now - (row?.updatedAt.getTime() ?? 0) > STALL_MS &&
      (!behind.oldest || now - behind.oldest.getTime() > STALL_MS);
    answer.push({
      reactor: name,
      status:
        !row || !claimed || stuck ? 'stalled' : behind.count > PAGE ? 'catching-up' : 'running',
      position,
      lag: behind.count,
      updatedAt: row ? row.updatedAt.toISOString() : null,
    });
  }
  return answer;
}
