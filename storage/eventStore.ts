import type { AnyEvent, EventMetadata } from '../domain/shared/event.ts';
import { ConflictError } from '../domain/shared/errors.ts';

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

/** The latest of several positions (null when nothing was appended). */
export const latest = (...positions: (LogPosition | null)[]): LogPosition | null =>
  positions.reduce<LogPosition | null>(
    (a, b) => (!b ? a : !a ? b : comparePositions(a, b) > 0 ? a : b),
    null,
  );

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

/**
 * Options of an append. `unchanged` makes it conditional on another stream: the events are written
 * only while that stream still stands at `revision` (-1: does not exist), the revision the caller
 * decided on; else nothing is written and {@link StreamChangedError} is thrown. It lets a decision
 * folded from a stream kept in memory be written in one round trip, with no read of that stream first.
 */
export type AppendOptions = {
  expectedRevision: ExpectedRevision;
  metadata: EventMetadata;
  unchanged?: { streamId: string; revision: number };
};

export interface EventStore {
  readonly kind: 'postgres' | 'pglite' | 'esdb';
  append<E extends AnyEvent>(
    streamId: string,
    events: E[],
    options: AppendOptions,
  ): Promise<AppendResult>;
  readStream<E extends AnyEvent = AnyEvent>(streamId: string): Promise<ReadStreamResult<E>>;
  /** Events strictly after `from`, in log order, only those whose transaction can no longer be overtaken. */
  readAll(options: { from?: LogPosition; limit?: number }): Promise<RecordedEvent[]>;
  /** Calls `handler` with each page of events after `from`, in order, then live. */
  subscribe(
    options: { from?: LogPosition; pageSize?: number },
    handler: (events: RecordedEvent[]) => Promise<void>,
  ): Subscription;
  /** The log position of the newest readable event (START when empty): where to start "from now". */
  head(): Promise<LogPosition>;
  /**
   * The newest committed event, readable yet or not: a reader that has passed it has read everything
   * committed before the call. `head()` may be older while a transaction holds the log back.
   */
  committedHead(): Promise<LogPosition>;
  close(): Promise<void>;
}

/** An append's `unchanged` stream had moved on: the decision was made on an older state; nothing was written. */
export class StreamChangedError extends ConflictError {
  readonly streamId: string;
  readonly expected: number;
  readonly actual: number;

  constructor(streamId: string, expected: number, actual: number) {
    super(
      `Stream ${streamId} changed while the decision was made (decided at revision ${expected}, now ${actual})`,
    );
    this.streamId = streamId;
    this.expected = expected;
    this.actual = actual;
  }
}

export class WrongExpectedRevisionError extends ConflictError {
  readonly streamId: string;
  readonly expected: ExpectedRevision;
  readonly actual: number | null;

  constructor(streamId: string, expected: ExpectedRevision, actual: number | null) {
    super(
      `Stream ${streamId} was changed by someone else (expected revision ${String(expected)}, actual ${actual ?? 'unknown'})`,
    );
    this.streamId = streamId;
    this.expected = expected;
    this.actual = actual;
  }
}
