import {
  ANY,
  ErrorType,
  NO_STREAM as ESDB_NO_STREAM,
  START as ESDB_START,
  STREAM_EXISTS,
  type AppendExpectedRevision,
  type CurrentRevision,
  type Position,
  type ReadPosition,
} from '@eventstore/db-client';
import type { EventMetadata } from '../../../domain/shared/event.ts';
import {
  START,
  type ExpectedRevision,
  type LogPosition,
  type RecordedEvent,
} from '../eventStore.ts';

/** The fields of an EventStoreDB recorded event that the adapter uses. */
export type EsdbRecordedEvent = {
  id: string;
  streamId: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata?: unknown;
  position?: Position;
};

/** EventStoreDB (commit, prepare) → our (transactionId, globalPosition), both as decimal strings. */
export const toLogPosition = (position: Position): LogPosition => ({
  transactionId: position.commit.toString(10),
  globalPosition: position.prepare.toString(10),
});

export const toEsdbPosition = (position: LogPosition): Position => ({
  commit: BigInt(position.transactionId),
  prepare: BigInt(position.globalPosition),
});

/** Where a forward read of $all starts: START (0, 0) is the beginning of the log. */
export const toReadPosition = (position: LogPosition): ReadPosition =>
  BigInt(position.transactionId) === 0n && BigInt(position.globalPosition) === 0n
    ? ESDB_START
    : toEsdbPosition(position);

/** Our expected revision (0-based revision of the last event, -1 for no stream) → the client's. */
export const toExpectedRevision = (expected: ExpectedRevision): AppendExpectedRevision => {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return ESDB_NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      if (!Number.isSafeInteger(expected) || expected < -1)
        throw new RangeError(`Invalid expected revision: ${String(expected)}`);
      return expected === -1 ? ESDB_NO_STREAM : BigInt(expected);
  }
};

/** The actual revision a WrongExpectedVersionError reports: -1 for no stream, null when unknown. */
export const fromCurrentRevision = (current: CurrentRevision | undefined | null): number | null => {
  if (current === ESDB_NO_STREAM) return -1;
  if (typeof current === 'bigint') return Number(current);
  return null;
};

/** The stream name on the server: the store's prefix namespaces its streams in a shared server. */
export const addPrefix = (prefix: string, streamId: string): string => prefix + streamId;

/** The caller's stream id, or null when the stream is not this store's. */
export const stripPrefix = (prefix: string, streamName: string): string | null =>
  streamName.startsWith(prefix) ? streamName.slice(prefix.length) : null;

/** System events ($-prefixed types, or in $-prefixed streams such as $$metadata and projections' links). */
export const isSystemEvent = (event: { streamId: string; type: string }): boolean =>
  event.type.startsWith('$') || event.streamId.startsWith('$');

/** Whether a store with this prefix shows the event: not a system event, and in one of its streams. */
export const isVisible = (prefix: string, event: { streamId: string; type: string }): boolean =>
  !isSystemEvent(event) && stripPrefix(prefix, event.streamId) !== null;

const decodeJson = (value: unknown): unknown => {
  if (!(value instanceof Uint8Array)) return value;
  try {
    return JSON.parse(Buffer.from(value).toString('utf8'));
  } catch {
    return value;
  }
};

/** A recorded EventStoreDB event as our RecordedEvent, its stream id without the prefix. */
export const toRecordedEvent = (prefix: string, event: EsdbRecordedEvent): RecordedEvent => ({
  id: event.id,
  type: event.type,
  data: decodeJson(event.data),
  metadata: (decodeJson(event.metadata) ?? {}) as EventMetadata,
  streamId: stripPrefix(prefix, event.streamId) ?? event.streamId,
  streamRevision: Number(event.revision),
  // Reads of a single stream carry positions only on servers newer than 22.6.
  position: event.position ? toLogPosition(event.position) : START,
});

/**
 * A lost or refused connection, or a call that ran out of time: the call may or may not have reached
 * the server, and is safe to repeat where the server recognises a repeat (appends, by event id).
 */
export const isTransient = (error: unknown): boolean => {
  const { type, code } = (error ?? {}) as { type?: unknown; code?: unknown };
  if (
    type === ErrorType.UNAVAILABLE ||
    type === ErrorType.DEADLINE_EXCEEDED ||
    type === ErrorType.NOT_LEADER
  )
    return true;
  // The client passes some gRPC errors on unconverted (a call that could not start, for one).
  return type === undefined && (code === GRPC_UNAVAILABLE || code === GRPC_DEADLINE_EXCEEDED);
};

/** gRPC status codes (grpc/status.proto). */
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_UNAVAILABLE = 14;
