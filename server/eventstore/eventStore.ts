import type { AnyEvent, EventMetadata } from '../../domain/shared/event.ts';
import { ConflictError } from '../../domain/shared/errors.ts';

/**
 * A position in the whole log. On PostgreSQL it is (writing transaction id, global position);
 * on EventStoreDB (commit position, prepare position). Both are unsigned 64-bit integers kept as
 * decimal strings, compared as a pair.
 */
export type LogPosition = { transactionId: string; globalPosition: string };
export const START: LogPosition = Object.freeze({ transactionId: '0', globalPosition: '0' });

export const comparePositions = (a: LogPosition, b: LogPosition): number => {
  const tx = BigInt(a.transactionId) - BigInt(b.transactionId);
  if (tx !== 0n) return tx < 0n ? -1 : 1;
  const pos = BigInt(a.globalPosition) - BigInt(b.globalPosition);
  return pos === 0n ? 0 : pos < 0n ? -1 : 1;
};

/** -1 expects no stream; a number expects exactly that revision (0-based, the last event's). */
export type ExpectedRevision = number | 'any' | 'no_stream' | 'stream_exists';
export const NO_STREAM = -1;

export type RecordedEvent<E extends AnyEvent = AnyEvent> = E & {
  id: string;
  streamId: string;
  /** 0-based position of the event in its stream. */
  streamRevision: number;
  position: LogPosition;
  metadata: EventMetadata;
};

export type AppendResult = {
  /** The stream's revision after the append; pass it as the next expected revision. */
  nextExpectedRevision: number;
  /** Log position of the last appended event. */
  position: LogPosition;
};

export type ReadStreamResult<E extends AnyEvent> = {
  events: RecordedEvent<E>[];
  /** -1 when the stream does not exist. */
  revision: number;
};

export type Subscription = { close: () => Promise<void> };

export interface EventStore {
  readonly kind: 'postgres' | 'pglite' | 'esdb';
  append<E extends AnyEvent>(streamId: string, events: E[], options: { expectedRevision: ExpectedRevision; metadata: EventMetadata }): Promise<AppendResult>;
  readStream<E extends AnyEvent = AnyEvent>(streamId: string): Promise<ReadStreamResult<E>>;
  /** Events strictly after `from`, in log order, only those whose transaction can no longer be overtaken. */
  readAll(options: { from?: LogPosition; limit?: number }): Promise<RecordedEvent[]>;
  /** Calls `handler` with each page of events after `from`, in order, then live. */
  subscribe(options: { from?: LogPosition; pageSize?: number }, handler: (events: RecordedEvent[]) => Promise<void>): Subscription;
  /** The log position of the newest readable event (START when empty): where to start "from now". */
  head(): Promise<LogPosition>;
  /**
   * The newest committed event, readable yet or not: a reader that has passed it has read everything
   * committed before the call. `head()` may be older while a transaction holds the log back.
   */
  committedHead(): Promise<LogPosition>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends ConflictError {
  constructor(readonly streamId: string, readonly expected: ExpectedRevision, readonly actual: number | null) {
    super(`Stream ${streamId} was changed by someone else (expected revision ${String(expected)}, actual ${actual ?? 'unknown'})`);
  }
}

/**
 * Wakes subscriptions when new events may be readable. A wake that arrives while a subscription is
 * reading is not lost: each wake bumps a generation, and a subscription that saw an older generation
 * before its read reads again at once instead of waiting for the next poll.
 */
export type Waker = { wakeAll(): void; generation(): number; wait(signal: AbortSignal, ms: number, since: number): Promise<void> };

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
        const done = () => { clearTimeout(timer); waiting.delete(done); signal.removeEventListener('abort', done); resolve(); };
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
  const fresh = (entry: Entry, now: number) => entry.settledAt === null || now - entry.settledAt < SHARED_READ_MS;
  const first = (page: Page, limit: number): Page => (page.events.length > limit ? { events: page.events.slice(0, limit), held: false } : page);
  return (from, limit) => {
    const key = `${from.transactionId}/${from.globalPosition}`;
    const kept = full.get(key);
    if (kept && kept.length >= limit) return Promise.resolve(first({ events: kept, held: false }, limit));
    const now = Date.now();
    const generation = waker.generation();
    const hit = recent.get(key);
    if (hit && hit.limit >= limit && hit.generation === generation && fresh(hit, now)) return hit.page.then((page) => first(page, limit));
    for (const [other, entry] of recent) if (!fresh(entry, now)) recent.delete(other);
    // Read a full page whatever this caller's size, so callers with bigger pages can share it too.
    const size = Math.max(limit, SHARED_PAGE);
    const entry: Entry = { limit: size, generation, settledAt: null, page: read(from, size) };
    recent.set(key, entry);
    entry.page.then((page) => {
      entry.settledAt = Date.now();
      // A held page is about to change without a wake-up: shared only while in flight.
      if (page.held && recent.get(key) === entry) recent.delete(key);
      if (page.events.length === size) {
        full.set(key, page.events);
        if (full.size > FULL_PAGES_KEPT) full.delete(full.keys().next().value!);
      }
    }, () => { if (recent.get(key) === entry) recent.delete(key); });
    return entry.page.then((page) => first(page, limit));
  };
}

const POLL_MS = 250;
const HELD_FIRST_MS = 5;

/** Turns a page-based reader into a subscription: read until empty, then wait for a wake-up or a poll tick. */
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
