import { randomUUID } from 'node:crypto';
import {
  type EventStoreDBClient,
  WrongExpectedVersionError,
  jsonEvent,
} from '@eventstore/db-client';
import type { AnyEvent } from '../../../domain/shared/event.ts';
import {
  StreamChangedError,
  WrongExpectedRevisionError,
  type AppendOptions,
  type AppendResult,
} from '../eventStore.ts';
import {
  addPrefix,
  fromCurrentRevision,
  isTransient,
  toExpectedRevision,
  toLogPosition,
} from './esdbMapping.ts';
import { type EsdbReads, sleep } from './esdbReads.ts';

/** Appends retried after a lost connection (same event ids: the server writes them once). */
const APPEND_ATTEMPTS = 4;

export type EsdbAppendContext = {
  client: EventStoreDBClient;
  prefix: string;
  reads: Pick<EsdbReads, 'lastRevision' | 'positionOf'>;
  onError: (error: unknown) => void;
  /** First wait before retrying an append after a lost connection, doubled on each attempt. */
  firstRetryMs: number;
  isClosed: () => boolean;
};

/** The store's append: optimistic on the stream's revision, retried after a lost connection. */
export function createEsdbAppend({
  client,
  prefix,
  reads: { lastRevision, positionOf },
  onError,
  firstRetryMs,
  isClosed,
}: EsdbAppendContext) {
  return async function append<E extends AnyEvent>(
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
    let result: Awaited<ReturnType<EventStoreDBClient['appendToStream']>>;
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
        if (attempt >= APPEND_ATTEMPTS || isClosed() || !isTransient(error)) throw error;
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
  };
}
