import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type Filter,
  type Position,
  type ResolvedEvent,
  type StreamingRead,
} from '@eventstore/db-client';
import type { AnyEvent } from '../../../domain/shared/event.ts';
import {
  START,
  StreamChangedError,
  WrongExpectedRevisionError,
  comparePositions,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type LogPosition,
  type ReadStreamResult,
  type RecordedEvent,
  type Subscription,
} from '../eventStore.ts';
import {
  addPrefix,
  fromCurrentRevision,
  isTransient,
  isVisible,
  toExpectedRevision,
  toLogPosition,
  toReadPosition,
  toRecordedEvent,
} from './esdbMapping.ts';

/**
 * Reads a streaming read until `take` says stop (answers false), then cancels the gRPC call and reads
 * on to its end: a call left unread is never finished, and the client's dispose waits for it.
 */
async function consume<E>(read: StreamingRead<E>, take: (item: E) => boolean): Promise<void> {
  let taking = true;
  for await (const item of read as AsyncIterable<E>) {
    if (taking && !take(item)) {
      taking = false;
      void read.cancel().catch(() => undefined);
    }
  }
}

/** Ends a subscription: the call is cancelled, and what it still delivers is read and dropped. */
const abandon = (subscription: AllStreamSubscription): Promise<void> => {
  subscription.resume();
  return subscription.unsubscribe().catch(() => undefined);
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Events the shared subscription keeps, so a subscriber that caught up on its own can join it without a gap. */
const FEED_BUFFER = 5000;
/** How long a subscriber waits for more events before it handles a page that is not full. */
const PAGE_GATHER_MS = 5;
/** Appends retried after a lost connection (same event ids: the server writes them once). */
const APPEND_ATTEMPTS = 4;

export type EsdbEventStoreOptions = {
  /** Namespaces this store's streams (a test run in a shared server); subscriptions filter on it. */
  streamPrefix?: string;
  /** Called with every error of a subscription (it resubscribes) and of a handler (the page is retried). */
  onError?: (error: unknown) => void;
  /** First wait before resubscribing after an error, doubled up to 5 s while errors repeat. */
  retryMs?: number;
};

type Checkpoint = { checkpoint: LogPosition };
type Subscriber = {
  handler: (events: RecordedEvent[]) => Promise<void>;
  pageSize: number;
  /** Events and checkpoints received, not yet handled, in log order. */
  queue: (RecordedEvent | Checkpoint)[];
  /** The last event or checkpoint received: where a new subscription of its own starts after. */
  received: LogPosition;
  /** The last event handled (or checkpoint passed). */
  handled: LogPosition;
  /** Its own catch-up subscription, while it reads the log on its own (from its checkpoint). */
  own: AllStreamSubscription | null;
  paused: boolean;
  attached: boolean;
  closed: boolean;
  draining: Promise<void> | null;
  retryDelay: number;
  retryTimer: NodeJS.Timeout | null;
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
  const subscribers = new Set<Subscriber>();
  let closed = false;

  const filter = (checkpointReached: (position: Position) => void): Filter => {
    // The client calls this as the checkpoint arrives, while events before it may still wait in the
    // subscription's buffer (paused for backpressure): take the checkpoint once they have been read.
    const reached = async (subscription: AllStreamSubscription, position: Position) => {
      while (subscription.readableLength > 0 && !subscription.destroyed) await sleep(5);
      checkpointReached(position);
    };
    return prefix
      ? streamNameFilter({ prefixes: [prefix], checkpointReached: reached })
      : excludeSystemEvents({ checkpointReached: reached });
  };

  // ---- the shared subscription ----
  type Feed = {
    subscription: AllStreamSubscription;
    buffer: RecordedEvent[];
    bufferFrom: LogPosition;
    received: LogPosition;
    members: Set<Subscriber>;
  };
  let feed: Feed | null = null;
  let feedStarting: Promise<void> | null = null;
  let feedRetryAt = 0;

  const ensureFeed = () => {
    if (feed || feedStarting || closed || Date.now() < feedRetryAt) return;
    feedStarting = (async () => {
      try {
        // From the head of the log: everything after it reaches the buffer.
        const from = await head();
        if (closed) return;
        const subscription = client.subscribeToAll({
          fromPosition: toReadPosition(from),
          filter: filter((position) => {
            if (feed?.subscription !== subscription) return;
            const checkpoint = toLogPosition(position);
            if (comparePositions(checkpoint, feed.received) <= 0) return;
            feed.received = checkpoint;
            for (const member of feed.members) offer(member, { checkpoint });
          }),
        });
        const started: Feed = {
          subscription,
          buffer: [],
          bufferFrom: from,
          received: from,
          members: new Set(),
        };
        feed = started;
        subscription.on('data', (resolved: AllStreamResolvedEvent) => {
          if (feed !== started || !resolved.event || !isVisible(prefix, resolved.event)) return;
          const event = toRecordedEvent(prefix, resolved.event);
          if (comparePositions(event.position, started.received) <= 0) return;
          started.received = event.position;
          started.buffer.push(event);
          if (started.buffer.length > FEED_BUFFER)
            started.bufferFrom = started.buffer
              .splice(0, started.buffer.length - FEED_BUFFER)
              .at(-1)!.position;
          for (const member of started.members) {
            offer(member, event);
            // Far behind the others: let it read on its own (with backpressure) rather than queue without end.
            if (member.queue.length > Math.max(FEED_BUFFER, member.pageSize * 4)) detach(member, 0);
          }
        });
        const lost = (error: unknown) => {
          if (feed !== started) return;
          feed = null;
          feedRetryAt = Date.now() + firstRetryMs;
          if (!closed) onError(error);
          for (const member of started.members) detach(member, firstRetryMs);
          void abandon(subscription);
        };
        subscription.on('error', lost);
        subscription.on('end', () =>
          lost(new Error('EventStoreDB ended the subscription to $all')),
        );
        for (const subscriber of subscribers) tryJoin(subscriber);
      } catch (error) {
        feedRetryAt = Date.now() + firstRetryMs;
        if (!closed) onError(error);
      } finally {
        feedStarting = null;
      }
    })();
  };

  /** Joins the shared subscription when it holds everything after what the subscriber received. */
  const tryJoin = (subscriber: Subscriber) => {
    if (subscriber.closed || subscriber.attached || closed) return;
    if (!feed) return ensureFeed();
    if (comparePositions(subscriber.received, feed.bufferFrom) < 0) return;
    const own = subscriber.own;
    subscriber.own = null;
    subscriber.paused = false;
    if (subscriber.retryTimer) {
      clearTimeout(subscriber.retryTimer);
      subscriber.retryTimer = null;
    }
    if (own) void abandon(own);
    subscriber.attached = true;
    feed.members.add(subscriber);
    for (const event of feed.buffer) offer(subscriber, event);
  };

  /** Leaves the shared subscription and reads on its own from the last position received. */
  const detach = (subscriber: Subscriber, delay: number) => {
    if (!subscriber.attached) return;
    subscriber.attached = false;
    feed?.members.delete(subscriber);
    scheduleOwn(subscriber, delay);
  };

  const scheduleOwn = (subscriber: Subscriber, delay: number) => {
    if (subscriber.closed || closed || subscriber.retryTimer) return;
    if (delay <= 0) return startOwn(subscriber);
    subscriber.retryTimer = setTimeout(() => {
      subscriber.retryTimer = null;
      startOwn(subscriber);
    }, delay);
  };

  /** A catch-up subscription of its own from the last position received (its checkpoint at first). */
  const startOwn = (subscriber: Subscriber) => {
    if (subscriber.closed || closed || subscriber.attached || subscriber.own) return;
    const subscription = client.subscribeToAll({
      fromPosition: toReadPosition(subscriber.received),
      filter: filter((position) => {
        if (subscriber.own !== subscription) return;
        offer(subscriber, { checkpoint: toLogPosition(position) });
      }),
    });
    subscriber.own = subscription;
    subscriber.paused = false;
    subscription.on('confirmation', () => {
      subscriber.retryDelay = firstRetryMs;
    });
    subscription.on('data', (resolved: AllStreamResolvedEvent) => {
      if (subscriber.own !== subscription || !resolved.event || !isVisible(prefix, resolved.event))
        return;
      offer(subscriber, toRecordedEvent(prefix, resolved.event));
      if (subscriber.queue.length >= subscriber.pageSize * 2 && !subscriber.paused) {
        subscriber.paused = true;
        subscription.pause();
      }
    });
    // Caught up with the log: join the shared subscription (EventStoreDB 23.10 and later say so).
    subscription.on('caughtUp', () => {
      if (subscriber.own === subscription) tryJoin(subscriber);
    });
    const lost = (error: unknown) => {
      if (subscriber.own !== subscription) return;
      subscriber.own = null;
      if (subscriber.closed || closed) return;
      onError(error);
      const delay = subscriber.retryDelay;
      subscriber.retryDelay = Math.min(delay * 2, 5000);
      void abandon(subscription);
      scheduleOwn(subscriber, delay);
    };
    subscription.on('error', lost);
    subscription.on('end', () => lost(new Error('EventStoreDB ended the subscription to $all')));
  };

  /** Queues an event or checkpoint after what the subscriber received, and starts handling. */
  const offer = (subscriber: Subscriber, item: RecordedEvent | Checkpoint) => {
    if (subscriber.closed) return;
    const position = 'checkpoint' in item ? item.checkpoint : item.position;
    if (comparePositions(position, subscriber.received) <= 0) return;
    subscriber.received = position;
    subscriber.queue.push(item);
    drain(subscriber);
  };

  const drain = (subscriber: Subscriber) => {
    if (subscriber.draining || subscriber.closed) return;
    subscriber.draining = (async () => {
      while (subscriber.queue.length > 0 && !subscriber.closed) {
        // Let a burst arrive: one page rather than one call per event (live appends come one by one).
        if (subscriber.queue.length < subscriber.pageSize) await sleep(PAGE_GATHER_MS);
        const events: RecordedEvent[] = [];
        let taken = 0;
        let passed: LogPosition | null = null;
        for (const item of subscriber.queue) {
          if ('checkpoint' in item) {
            passed = item.checkpoint;
            taken++;
            continue;
          }
          if (events.length === subscriber.pageSize) break;
          events.push(item);
          passed = item.position;
          taken++;
        }
        if (events.length > 0) {
          try {
            await subscriber.handler(events);
          } catch (error) {
            // The page is handled again after a pause, as the polling stores read it again.
            if (subscriber.closed) break;
            onError(error);
            await sleep(250);
            continue;
          }
        }
        subscriber.queue.splice(0, taken);
        if (passed) subscriber.handled = passed;
        if (subscriber.paused && subscriber.queue.length < subscriber.pageSize && subscriber.own) {
          subscriber.paused = false;
          subscriber.own.resume();
        }
      }
      subscriber.draining = null;
      // A server older than 23.10 never says it caught up: an empty queue is the next best sign.
      if (!subscriber.closed && subscriber.own && !subscriber.paused) tryJoin(subscriber);
    })();
  };

  const readAll = async ({
    from = START,
    limit = 500,
  }: {
    from?: LogPosition;
    limit?: number;
  }): Promise<RecordedEvent[]> => {
    const events: RecordedEvent[] = [];
    if (limit <= 0) return events;
    const read = client.readAll({
      fromPosition: toReadPosition(from),
      direction: FORWARDS,
      resolveLinkTos: false,
    });
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
  /** The stream's last revision, -1 when it does not exist. */
  const lastRevision = async (streamName: string): Promise<number> => {
    let revision = -1;
    try {
      await consume<ResolvedEvent>(
        client.readStream(streamName, { fromRevision: END, maxCount: 1, direction: BACKWARDS }),
        ({ event }) => {
          if (event) revision = Number(event.revision);
          return false;
        },
      );
    } catch (error) {
      if (error instanceof StreamNotFoundError) return -1;
      throw error;
    }
    return revision;
  };

  const positionOf = async (streamName: string, revision: bigint): Promise<LogPosition | null> => {
    let position: LogPosition | null = null;
    await consume<ResolvedEvent>(
      client.readStream(streamName, { fromRevision: revision, maxCount: 1, direction: FORWARDS }),
      ({ event }) => {
        if (event?.position) position = toLogPosition(event.position);
        return false;
      },
    );
    return position;
  };

  const head = async () => {
    let position: LogPosition = START;
    await consume<AllStreamResolvedEvent>(
      client.readAll({ fromPosition: END, direction: BACKWARDS, resolveLinkTos: false }),
      ({ event }) => {
        if (!event || !isVisible(prefix, event)) return true;
        position = toLogPosition(event.position);
        return false;
      },
    );
    return position;
  };

  const store: EventStore = {
    kind: 'esdb',

    async append<E extends AnyEvent>(
      streamId: string,
      events: E[],
      { expectedRevision, metadata, unchanged }: AppendOptions,
    ): Promise<AppendResult> {
      if (events.length === 0) throw new Error('append needs at least one event');
      const streamName = addPrefix(prefix, streamId);
      // EventStoreDB has no condition on another stream: its revision is read just before the
      // append (the read-then-append a caller without the option does itself).
      if (unchanged) {
        const actual = await lastRevision(addPrefix(prefix, unchanged.streamId));
        if (actual !== unchanged.revision)
          throw new StreamChangedError(unchanged.streamId, unchanged.revision, actual);
      }
      // The ids are chosen once (or given with the event): a retry of an append the server wrote is
      // recognised by them and not written twice.
      const data = events.map((event) => {
        const given = (event as { id?: unknown }).id;
        return jsonEvent({
          id: typeof given === 'string' ? given : randomUUID(),
          type: event.type,
          data: event.data,
          metadata,
        });
      });
      const expected = toExpectedRevision(expectedRevision);
      let result;
      for (let attempt = 1; ; attempt++) {
        try {
          result = await client.appendToStream(streamName, data, { expectedRevision: expected });
          break;
        } catch (error) {
          if (error instanceof WrongExpectedVersionError) {
            throw new WrongExpectedRevisionError(
              streamId,
              expectedRevision,
              fromCurrentRevision(error.actualVersion),
            );
          }
          if (attempt >= APPEND_ATTEMPTS || closed || !isTransient(error)) throw error;
          onError(error);
          await sleep(firstRetryMs * 2 ** (attempt - 1));
        }
      }
      // The append's position may be its transaction's rather than its last event's: with several
      // events, ask for the last one's so a reader waiting for this position sees all of them.
      const exact =
        events.length > 1
          ? await positionOf(streamName, result.nextExpectedRevision).catch(() => null)
          : null;
      const position = exact ?? (result.position ? toLogPosition(result.position) : null);
      if (!position)
        throw new Error(`EventStoreDB reported no position for the append to ${streamId}`);
      return { nextExpectedRevision: Number(result.nextExpectedRevision), position };
    },

    async readStream<E extends AnyEvent>(streamId: string): Promise<ReadStreamResult<E>> {
      const events: RecordedEvent<E>[] = [];
      try {
        await consume<ResolvedEvent>(
          client.readStream(addPrefix(prefix, streamId), {
            fromRevision: 'start',
            direction: FORWARDS,
          }),
          ({ event }) => {
            if (event) events.push(toRecordedEvent(prefix, event) as RecordedEvent<E>);
            return true;
          },
        );
      } catch (error) {
        if (error instanceof StreamNotFoundError) return { events: [], revision: -1 };
        throw error;
      }
      return { events, revision: events.length ? events[events.length - 1].streamRevision : -1 };
    },

    readAll,

    subscribe(subscribeOptions, handler): Subscription {
      const from = subscribeOptions.from ?? START;
      const subscriber: Subscriber = {
        handler,
        pageSize: subscribeOptions.pageSize ?? 500,
        queue: [],
        received: from,
        handled: from,
        own: null,
        paused: false,
        attached: false,
        closed: false,
        draining: null,
        retryDelay: firstRetryMs,
        retryTimer: null,
      };
      subscribers.add(subscriber);
      startOwn(subscriber);
      // Start the shared subscription early, so the first subscriber to catch up finds it ready.
      ensureFeed();
      return {
        close: async () => {
          if (subscriber.closed) return;
          subscriber.closed = true;
          subscribers.delete(subscriber);
          feed?.members.delete(subscriber);
          if (subscriber.retryTimer) clearTimeout(subscriber.retryTimer);
          const own = subscriber.own;
          subscriber.own = null;
          if (own) await abandon(own);
          await subscriber.draining;
        },
      };
    },

    // EventStoreDB makes an append readable when it commits: the two heads are one.
    committedHead() {
      return head();
    },

    head,

    async close() {
      if (closed) return;
      const open = [...subscribers];
      for (const subscriber of open) subscriber.closed = true;
      closed = true;
      for (const subscriber of open) {
        if (subscriber.retryTimer) clearTimeout(subscriber.retryTimer);
        if (subscriber.own) await abandon(subscriber.own);
        await subscriber.draining;
      }
      subscribers.clear();
      await feedStarting;
      const shared = feed as Feed | null;
      feed = null;
      if (shared) await abandon(shared.subscription);
      await client.dispose();
    },
  };
  return store;
}
