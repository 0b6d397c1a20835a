import {
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type EventStoreDBClient,
  type Filter,
  type Position,
  excludeSystemEvents,
  streamNameFilter,
} from '@eventstore/db-client';
import {
  START,
  comparePositions,
  type EventStore,
  type LogPosition,
  type RecordedEvent,
  type Subscription,
} from '../eventStore.ts';
import { isVisible, toLogPosition, toReadPosition, toRecordedEvent } from './esdbMapping.ts';
import { sleep } from './esdbReads.ts';
import {
  type Checkpoint,
  type DrainHooks,
  type Subscriber,
  abandon,
  offer as offerTo,
} from './esdbSubscriber.ts';

/** Events the shared subscription keeps, so a subscriber that caught up on its own can join it without a gap. */
const FEED_BUFFER = 5000;

export type EsdbSubscriptionsContext = {
  client: EventStoreDBClient;
  prefix: string;
  head: () => Promise<LogPosition>;
  onError: (error: unknown) => void;
  /** First wait before resubscribing after an error, doubled up to 5 s while errors repeat. */
  firstRetryMs: number;
  isClosed: () => boolean;
};

/**
 * Catch-up subscriptions to the log: each subscriber reads on its own from its checkpoint, then joins
 * the process's shared subscription once it has caught up (see createEsdbEventStore).
 */
export function createEsdbSubscriptions({
  client,
  prefix,
  head,
  onError,
  firstRetryMs,
  isClosed,
}: EsdbSubscriptionsContext) {
  const subscribers = new Set<Subscriber>();

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
    if (feed || feedStarting || isClosed() || Date.now() < feedRetryAt) return;
    feedStarting = (async () => {
      try {
        // From the head of the log: everything after it reaches the buffer.
        const from = await head();
        if (isClosed()) return;
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
          if (!isClosed()) onError(error);
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
        if (!isClosed()) onError(error);
      } finally {
        feedStarting = null;
      }
    })();
  };

  /** Joins the shared subscription when it holds everything after what the subscriber received. */
  const tryJoin = (subscriber: Subscriber) => {
    if (subscriber.closed || subscriber.attached || isClosed()) return;
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
    if (subscriber.closed || isClosed() || subscriber.retryTimer) return;
    if (delay <= 0) return startOwn(subscriber);
    subscriber.retryTimer = setTimeout(() => {
      subscriber.retryTimer = null;
      startOwn(subscriber);
    }, delay);
  };

  /** A catch-up subscription of its own from the last position received (its checkpoint at first). */
  const startOwn = (subscriber: Subscriber) => {
    if (subscriber.closed || isClosed() || subscriber.attached || subscriber.own) return;
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
      if (subscriber.closed || isClosed()) return;
      onError(error);
      const delay = subscriber.retryDelay;
      subscriber.retryDelay = Math.min(delay * 2, 5000);
      void abandon(subscription);
      scheduleOwn(subscriber, delay);
    };
    subscription.on('error', lost);
    subscription.on('end', () => lost(new Error('EventStoreDB ended the subscription to $all')));
  };

  const hooks: DrainHooks = { onError, idle: (subscriber) => tryJoin(subscriber) };
  /** Queues an event or checkpoint after what the subscriber received, and starts handling. */
  const offer = (subscriber: Subscriber, item: RecordedEvent | Checkpoint) =>
    offerTo(subscriber, item, hooks);

  const subscribe: EventStore['subscribe'] = (subscribeOptions, handler): Subscription => {
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
  };

  /** Ends every subscription and the shared one (the store is closed already: nothing restarts). */
  const close = async () => {
    const open = [...subscribers];
    for (const subscriber of open) subscriber.closed = true;
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
  };

  return { subscribe, close };
}
