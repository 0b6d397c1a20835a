/** The event store port lives in `storage/eventStore.ts` (projections read it too); adapters share these helpers. */
export * from '../../storage/eventStore.ts';
import {
  START,
  type LogPosition,
  type RecordedEvent,
  type Subscription,
} from '../../storage/eventStore.ts';

/**
 * Wakes subscriptions when new events may be readable. A wake that arrives while a subscription is
 * reading is not lost: each wake bumps a generation, and a subscription that saw an older generation
 * before its read reads again at once instead of waiting for the next poll.
 */
export type Waker = {
  wakeAll(): void;
  generation(): number;
  wait(signal: AbortSignal, ms: number, since: number): Promise<void>;
};

export function createWaker(): Waker {
  const waiting = new Set<() => void>();
  let generation = 0;
  return {
    wakeAll() {
      generation++;
      for (const wake of [...waiting]) wake();
    },
    generation: () => generation,
    wait(signal, ms, since) {
      if (since !== generation || signal.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiting.delete(done);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        waiting.add(done);
        signal.addEventListener('abort', done, { once: true });
      });
    },
  };
}

/** A page of the log, and whether committed events wait behind a running transaction (look again soon). */
export type Page = { events: RecordedEvent[]; held: boolean };
type PageReader = (from: LogPosition, limit: number) => Promise<Page>;

/** How long after it finished a page read may answer other subscriptions asking for the same position. */
const SHARED_READ_MS = 50;
/** The page size of a shared read: the largest any subscription of the process asks for. */
const SHARED_PAGE = 1000;

/** Full pages kept for subscriptions that trail others through the same part of the log (a rebuild). */
const FULL_PAGES_KEPT = 24;

/**
 * Lets subscriptions that ask for the same position share one read: one in flight, or one that
 * finished less than SHARED_READ_MS ago with no wake-up since it started (a wake means more may be
 * readable, and the poll tick is far longer, so nothing is held back). A full page never changes
 * (everything in it is below the oldest running transaction, and later events come after it), so
 * the last FULL_PAGES_KEPT full pages answer any later reader at their position. A shared read
 * answers a smaller limit with its first events.
 */
export function sharedReader(read: PageReader, waker: Waker): PageReader {
  type Entry = { limit: number; generation: number; settledAt: number | null; page: Promise<Page> };
  const recent = new Map<string, Entry>();
  const full = new Map<string, RecordedEvent[]>();
  const fresh = (entry: Entry, now: number) =>
    entry.settledAt === null || now - entry.settledAt < SHARED_READ_MS;
  const first = (page: Page, limit: number): Page =>
    page.events.length > limit ? { events: page.events.slice(0, limit), held: false } : page;
  return (from, limit) => {
    const key = `${from.transactionId}/${from.globalPosition}`;
    const kept = full.get(key);
    if (kept && kept.length >= limit)
      return Promise.resolve(first({ events: kept, held: false }, limit));
    const now = Date.now();
    const generation = waker.generation();
    const hit = recent.get(key);
    if (hit && hit.limit >= limit && hit.generation === generation && fresh(hit, now))
      return hit.page.then((page) => first(page, limit));
    for (const [other, entry] of recent) if (!fresh(entry, now)) recent.delete(other);
    // Read a full page whatever this caller's size, so callers with bigger pages can share it too.
    const size = Math.max(limit, SHARED_PAGE);
    const entry: Entry = { limit: size, generation, settledAt: null, page: read(from, size) };
    recent.set(key, entry);
    entry.page.then(
      (page) => {
        entry.settledAt = Date.now();
        // A held page is about to change without a wake-up: shared only while in flight.
        if (page.held && recent.get(key) === entry) recent.delete(key);
        if (page.events.length === size) {
          full.set(key, page.events);
          if (full.size > FULL_PAGES_KEPT) full.delete(full.keys().next().value!);
        }
      },
      () => {
        if (recent.get(key) === entry) recent.delete(key);
      },
    );
    return entry.page.then((page) => first(page, limit));
  };
}

const POLL_MS = 250;
const HELD_FIRST_MS = 5;

/**
 * Turns a page-based reader into a subscription: read until empty, then wait for a wake-up or a poll
 * tick. After each page it handled, it lets the event loop run once (setImmediate) before it reads
 * again: on PGlite every query resolves without leaving the microtask queue, so subscriptions that
 * keep finding new events would otherwise read, apply and read again while the requests wait on
 * their sockets, and each page would hold one event. Let in, the requests append meanwhile and the
 * next page holds what they wrote (posted loads a second on PGlite, T1b: 0.20 to 0.42 of a raw insert).
 */
export function pollingSubscription(
  read: PageReader,
  waker: Waker,
  options: { from?: LogPosition; pageSize?: number },
  handler: (events: RecordedEvent[]) => Promise<void>,
  onError: (error: unknown) => void,
): Subscription {
  const controller = new AbortController();
  let from = options.from ?? START;
  const pageSize = options.pageSize ?? 500;
  // Held back by a running transaction: look again after 5 ms, doubling up to the poll interval.
  let heldDelay = HELD_FIRST_MS;
  const loop = (async () => {
    while (!controller.signal.aborted) {
      const seen = waker.generation();
      let held = false;
      try {
        const page = await read(from, pageSize);
        if (controller.signal.aborted) break;
        const { events } = page;
        held = page.held;
        if (events.length > 0) {
          await handler(events);
          from = events[events.length - 1].position;
          await new Promise((resolve) => setImmediate(resolve));
          if (events.length === pageSize) continue;
        }
      } catch (error) {
        if (controller.signal.aborted) break;
        onError(error);
      }
      await waker.wait(controller.signal, held ? heldDelay : POLL_MS, seen);
      heldDelay = held ? Math.min(heldDelay * 2, POLL_MS) : HELD_FIRST_MS;
    }
  })();
  return {
    close: async () => {
      controller.abort();
      await loop;
    },
  };
}
