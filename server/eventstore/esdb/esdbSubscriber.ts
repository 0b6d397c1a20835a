import type { AllStreamSubscription } from '@eventstore/db-client';
import { comparePositions, type LogPosition, type RecordedEvent } from '../eventStore.ts';
import { sleep } from './esdbReads.ts';

/** How long a subscriber waits for more events before it handles a page that is not full. */
const PAGE_GATHER_MS = 5;

export type Checkpoint = { checkpoint: LogPosition };
export type Subscriber = {
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

/** Ends a subscription: the call is cancelled, and what it still delivers is read and dropped. */
export const abandon = (subscription: AllStreamSubscription): Promise<void> => {
  subscription.resume();
  return subscription.unsubscribe().catch(() => undefined);
};

export type DrainHooks = {
  onError: (error: unknown) => void;
  /** Called when the queue is empty while the subscriber reads on its own: it may join the shared one. */
  idle: (subscriber: Subscriber) => void;
};

/** Queues an event or checkpoint after what the subscriber received, and starts handling. */
export const offer = (
  subscriber: Subscriber,
  item: RecordedEvent | Checkpoint,
  hooks: DrainHooks,
) => {
  if (subscriber.closed) return;
  const position = 'checkpoint' in item ? item.checkpoint : item.position;
  if (comparePositions(position, subscriber.received) <= 0) return;
  subscriber.received = position;
  subscriber.queue.push(item);
  drain(subscriber, hooks);
};

/** Hands the queue to the handler page by page; a page that fails is handled again after a pause. */
const drain = (subscriber: Subscriber, { onError, idle }: DrainHooks) => {
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
    if (!subscriber.closed && subscriber.own && !subscriber.paused) idle(subscriber);
  })();
};
