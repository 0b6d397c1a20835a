import { EventStoreDBClient } from '@eventstore/db-client';
import type { EventStore } from '../eventStore.ts';
import { createEsdbAppend } from './esdbAppend.ts';
import { createEsdbReads } from './esdbReads.ts';
import { createEsdbSubscriptions } from './esdbSubscriptions.ts';

export type EsdbEventStoreOptions = {
  /** Namespaces this store's streams (a test run in a shared server); subscriptions filter on it. */
  streamPrefix?: string;
  /** Called with every error of a subscription (it resubscribes) and of a handler (the page is retried). */
  onError?: (error: unknown) => void;
  /** First wait before resubscribing after an error, doubled up to 5 s while errors repeat. */
  retryMs?: number;
};

/**
 * The event store on EventStoreDB. Stream ids are namespaced with `streamPrefix`; the whole log is
 * $all without system events (and, with a prefix, only its streams), filtered on the server.
 *
 * Subscriptions are EventStoreDB catch-up subscriptions. Each subscriber first reads on its own from
 * its checkpoint with a filtered subscription to $all (the server sends checkpoints while it skips
 * events of no interest, so a resubscription starts past them); once it has caught up it joins one
 * shared subscription of the process, which feeds every subscriber that has caught up, as the SQL
 * store shares one read per wake-up. A subscriber that falls far behind the shared one, or loses it,
 * reads on its own again from the last position it received. Errors go to `onError`, and the
 * subscription is taken again from the last position after a growing pause.
 */
export async function createEsdbEventStore(
  connectionString: string,
  options: EsdbEventStoreOptions = {},
): Promise<EventStore> {
  const client = EventStoreDBClient.connectionString(connectionString);
  const prefix = options.streamPrefix ?? '';
  const onError = options.onError ?? (() => undefined);
  const firstRetryMs = options.retryMs ?? 100;
  let closed = false;
  const isClosed = () => closed;
  const reads = createEsdbReads(client, prefix);
  const subscriptions = createEsdbSubscriptions({
    client,
    prefix,
    head: reads.head,
    onError,
    firstRetryMs,
    isClosed,
  });

  const store: EventStore = {
    kind: 'esdb',
    append: createEsdbAppend({ client, prefix, reads, onError, firstRetryMs, isClosed }),
    readStream: reads.readStream,
    readAll: reads.readAll,
    subscribe: subscriptions.subscribe,

    // EventStoreDB makes an append readable when it commits: the two heads are one.
    committedHead() {
      return reads.head();
    },

    head: reads.head,

    async close() {
      if (closed) return;
      closed = true;
      await subscriptions.close();
      await client.dispose();
    },
  };
  return store;
}
