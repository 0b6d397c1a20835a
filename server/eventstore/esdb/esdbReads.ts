import {
  BACKWARDS,
  END,
  type EventStoreDBClient,
  FORWARDS,
  StreamNotFoundError,
  type AllStreamResolvedEvent,
  type ResolvedEvent,
  type StreamingRead,
} from '@eventstore/db-client';
import type { AnyEvent } from '../../../domain/shared/event.ts';
import {
  START,
  comparePositions,
  type LogPosition,
  type ReadStreamResult,
  type RecordedEvent,
} from '../eventStore.ts';
import {
  addPrefix,
  isVisible,
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

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type EsdbReads = ReturnType<typeof createEsdbReads>;

/** Reads of one stream, of the log ($all without system events, only the prefix's streams) and of its head. */
export function createEsdbReads(client: EventStoreDBClient, prefix: string) {
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

  /** The exact $all position of one event of a stream, when the server reports it. */
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

  /** The position of the log's last event (START when it is empty). */
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

  const readStream = async <E extends AnyEvent>(streamId: string): Promise<ReadStreamResult<E>> => {
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
  };

  return { readAll, readStream, lastRevision, positionOf, head };
}
