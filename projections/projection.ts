import type { Transaction } from 'kysely';
import type { DB } from '../storage/schema.ts';
import type { RecordedEvent } from '../storage/eventStore.ts';

/**
 * A read model: the tables it owns and how a page of events changes them. The runner owns the
 * transaction and the checkpoint; `apply` receives, in log order, only the events it handles, a
 * page at a time, so it can fold them in memory and write set-based.
 */
export type Projection = {
  name: string;
  /** Bumping it rebuilds the read model from the start of the log. */
  version: number;
  handles: readonly string[];
  /** Tables emptied before a rebuild. */
  tables: readonly string[];
  apply(trx: Transaction<DB>, events: RecordedEvent[]): Promise<void>;
};

export const defineProjection = (projection: Projection): Projection => projection;
