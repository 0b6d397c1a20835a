/**
 * What a request appended, read back from the real event store of the app under test:
 *
 *   const events = await watchEvents(platform.store);
 *   await as(shipper).post('/api/loads', body);
 *   await events.expect(t, [{ type: 'LoadPosted', stream: loadStream(id), data: { weight: 42000 } }]);
 *
 * `expect` compares the event types appended since the last look (in log order, exactly: an event
 * too many or missing fails), matches each expectation's stream, data and metadata against its
 * event, and moves the mark on, so the next `expect` speaks of the next request. `[]` asserts that
 * nothing was appended (a refused request).
 */
import type { Test } from 'tap';
import {
  comparePositions,
  type EventStore,
  type LogPosition,
  type RecordedEvent,
} from '../eventstore/eventStore.ts';
import { readableThrough } from './readableHead.ts';

/** A type name, or a type with the stream (exact or a pattern), data and metadata it must match. */
export type ExpectedEvent =
  | string
  | { type: string; stream?: string | RegExp; data?: object; metadata?: object };

export type Only = { stream?: string | RegExp; types?: readonly string[] };

const PAGE = 500;

/** Every event committed after `from` up to the committed head at the call, in log order. */
export async function appendedSince(
  store: EventStore,
  from: LogPosition,
): Promise<{ events: RecordedEvent[]; through: LogPosition }> {
  const through = await store.committedHead();
  await readableThrough(store, through);
  const events: RecordedEvent[] = [];
  let at = from;
  for (;;) {
    const page = await store.readAll({ from: at, limit: PAGE });
    const kept = page.filter((event) => comparePositions(event.position, through) <= 0);
    events.push(...kept);
    if (page.length < PAGE || kept.length < page.length) break;
    at = page.at(-1)!.position;
  }
  return { events, through };
}

const belongs = (event: RecordedEvent, only: Only) =>
  (only.stream === undefined ||
    (typeof only.stream === 'string'
      ? event.streamId === only.stream
      : only.stream.test(event.streamId))) &&
  (only.types === undefined || only.types.includes(event.type));

export type EventWatch = {
  /** The events appended since the last look, then moves the mark past them. */
  take(only?: Only): Promise<RecordedEvent[]>;
  /** Asserts the events appended since the last look (see the module comment). */
  expect(
    t: Test,
    expected: readonly ExpectedEvent[],
    options?: Only & { message?: string },
  ): Promise<RecordedEvent[]>;
};

/** Starts watching the log at its committed head now. */
export async function watchEvents(store: EventStore): Promise<EventWatch> {
  let mark = await store.committedHead();
  const take = async (only: Only = {}) => {
    const { events, through } = await appendedSince(store, mark);
    mark = through;
    return events.filter((event) => belongs(event, only));
  };
  return {
    take,
    async expect(t, expected, options = {}) {
      const events = await take(options);
      const wanted = expected.map((entry) => (typeof entry === 'string' ? { type: entry } : entry));
      const message = options.message ?? 'the events appended';
      const typesMatch = t.same(
        events.map((event) => event.type),
        wanted.map((entry) => entry.type),
        `${message}: ${wanted.map((entry) => entry.type).join(', ') || 'none'}`,
      );
      const detailed = wanted.some(
        (entry) => 'stream' in entry || 'data' in entry || 'metadata' in entry,
      );
      if (typesMatch && detailed)
        t.match(
          events.map((event) => ({
            streamId: event.streamId,
            data: event.data,
            metadata: event.metadata,
          })),
          wanted.map(({ stream, data, metadata }) => ({
            ...(stream === undefined ? {} : { streamId: stream }),
            ...(data === undefined ? {} : { data }),
            ...(metadata === undefined ? {} : { metadata }),
          })),
          `${message}: their streams and data`,
        );
      return events;
    },
  };
}
