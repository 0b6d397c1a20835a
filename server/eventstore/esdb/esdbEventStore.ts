import {
  BACKWARDS, END, EventStoreDBClient, FORWARDS, StreamNotFoundError, WrongExpectedVersionError,
  excludeSystemEvents, jsonEvent, streamNameFilter,
  type AllStreamResolvedEvent, type AllStreamSubscription, type ResolvedEvent, type StreamingRead,
} from '@eventstore/db-client';
import type { AnyEvent, EventMetadata } from '../../../domain/shared/event.ts';
import {
  START, WrongExpectedRevisionError, comparePositions, createWaker, pollingSubscription,
  type AppendResult, type EventStore, type ExpectedRevision, type LogPosition, type ReadStreamResult, type RecordedEvent, type Subscription,
} from '../eventStore.ts';
import {
  addPrefix, fromCurrentRevision, isVisible, toExpectedRevision, toLogPosition, toReadPosition, toRecordedEvent,
} from './esdbMapping.ts';

/**
 * Reads a streaming read until `take` says stop, then cancels the gRPC call if it is still running.
 * `take` answers false to stop.
 */
async function consume<E>(read: StreamingRead<E>, take: (item: E) => boolean): Promise<void> {
  let stopped = false;
  try {
    for await (const item of read as AsyncIterable<E>) {
      if (!take(item)) { stopped = true; break; }
    }
  } finally {
    if (stopped) await read.cancel().catch(() => undefined);
  }
}

/**
 * The event store on EventStoreDB. Stream ids are namespaced with `streamPrefix` (for a test run in
 * a shared server); the whole log is $all without system events, filtered to the prefix on the
 * client since the v6 client's readAll has no server-side filter. Subscriptions poll readAll and are
 * woken early by this store's own appends and by a live filtered subscription to $all.
 */
export async function createEsdbEventStore(
  connectionString: string,
  options: { streamPrefix?: string; onError?: (error: unknown) => void } = {},
): Promise<EventStore> {
  const client = EventStoreDBClient.connectionString(connectionString);
  const prefix = options.streamPrefix ?? '';
  const onError = options.onError ?? (() => undefined);
  const subscriptions = new Set<Subscription>();
  const waker = createWaker();
  const wakeAll = () => waker.wakeAll();
  let live: AllStreamSubscription | null = null;
  let closed = false;

  /** Wakes pollers when another process appends; only an accelerator, polling still runs. */
  const startLiveWaker = () => {
    if (live || closed) return;
    const filter = prefix ? streamNameFilter({ prefixes: [prefix] }) : excludeSystemEvents();
    const subscription = client.subscribeToAll({ fromPosition: END, filter });
    live = subscription;
    subscription.on('data', wakeAll);
    subscription.on('error', (error) => {
      if (live === subscription) live = null;
      if (!closed) onError(error);
    });
  };

  const readAll = async ({ from = START, limit = 500 }: { from?: LogPosition; limit?: number }): Promise<RecordedEvent[]> => {
    const events: RecordedEvent[] = [];
    if (limit <= 0) return events;
    const read = client.readAll({ fromPosition: toReadPosition(from), direction: FORWARDS, resolveLinkTos: false });
    await consume<AllStreamResolvedEvent>(read, ({ event }) => {
      if (!event || !isVisible(prefix, event)) return true;
      const recorded = toRecordedEvent(prefix, event);
      // A read from a position includes the event at it: keep only those strictly after.
      if (comparePositions(recorded.position, from) <= 0) return true;
      events.push(recorded);
      return events.length < limit;
    });
    return events;
  };

  /** The exact $all position of one event of a stream, when the server reports it. */
  const positionOf = async (streamName: string, revision: bigint): Promise<LogPosition | null> => {
    let position: LogPosition | null = null;
    await consume<ResolvedEvent>(client.readStream(streamName, { fromRevision: revision, maxCount: 1, direction: FORWARDS }), ({ event }) => {
      if (event?.position) position = toLogPosition(event.position);
      return false;
    });
    return position;
  };

  const store: EventStore = {
    kind: 'esdb',

    async append<E extends AnyEvent>(streamId: string, events: E[], { expectedRevision, metadata }: { expectedRevision: ExpectedRevision; metadata: EventMetadata }): Promise<AppendResult> {
      if (events.length === 0) throw new Error('append needs at least one event');
      const streamName = addPrefix(prefix, streamId);
      const data = events.map((event) => jsonEvent({ type: event.type, data: event.data, metadata }));
      let result;
      try {
        result = await client.appendToStream(streamName, data, { expectedRevision: toExpectedRevision(expectedRevision) });
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          throw new WrongExpectedRevisionError(streamId, expectedRevision, fromCurrentRevision(error.actualVersion));
        }
        throw error;
      }
      wakeAll();
      // The append's position may be its transaction's rather than its last event's: with several
      // events, ask for the last one's so a reader waiting for this position sees all of them.
      const exact = events.length > 1 ? await positionOf(streamName, result.nextExpectedRevision).catch(() => null) : null;
      const position = exact ?? (result.position ? toLogPosition(result.position) : null);
      if (!position) throw new Error(`EventStoreDB reported no position for the append to ${streamId}`);
      return { nextExpectedRevision: Number(result.nextExpectedRevision), position };
    },

    async readStream<E extends AnyEvent>(streamId: string): Promise<ReadStreamResult<E>> {
      const events: RecordedEvent<E>[] = [];
      try {
        await consume<ResolvedEvent>(client.readStream(addPrefix(prefix, streamId), { fromRevision: 'start', direction: FORWARDS }), ({ event }) => {
          if (event) events.push(toRecordedEvent(prefix, event) as RecordedEvent<E>);
          return true;
        });
      } catch (error) {
        if (error instanceof StreamNotFoundError) return { events: [], revision: -1 };
        throw error;
      }
      return { events, revision: events.length ? events[events.length - 1].streamRevision : -1 };
    },

    readAll,

    subscribe(subscribeOptions, handler) {
      startLiveWaker();
      const subscription = pollingSubscription(async (from, limit) => ({ events: await readAll({ from, limit }), held: false }), waker, subscribeOptions, handler, onError);
      subscriptions.add(subscription);
      return {
        close: async () => {
          subscriptions.delete(subscription);
          await subscription.close();
        },
      };
    },

    // EventStoreDB makes an append readable when it commits: the two heads are one.
    committedHead() {
      return store.head();
    },

    async head() {
      let head: LogPosition = START;
      await consume<AllStreamResolvedEvent>(client.readAll({ fromPosition: END, direction: BACKWARDS, resolveLinkTos: false }), ({ event }) => {
        if (!event || !isVisible(prefix, event)) return true;
        head = toLogPosition(event.position);
        return false;
      });
      return head;
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      const subscription = live as AllStreamSubscription | null;
      live = null;
      await subscription?.unsubscribe().catch(() => undefined);
      await client.dispose();
    },
  };
  return store;
}
