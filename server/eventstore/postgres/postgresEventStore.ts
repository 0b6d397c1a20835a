import { randomUUID } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { AnyEvent, EventMetadata } from '../../../domain/shared/event.ts';
import type { Database } from '../../db/database.ts';
import {
  START,
  StreamChangedError,
  WrongExpectedRevisionError,
  createWaker,
  pollingSubscription,
  sharedReader,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type Page,
  type ExpectedRevision,
  type LogPosition,
  type ReadStreamResult,
  type RecordedEvent,
  type Subscription,
} from '../eventStore.ts';

export const EVENTS_CHANNEL = 'events_appended';

type EventRow = {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
};

const toRecorded = (row: EventRow): RecordedEvent => ({
  id: row.event_id,
  type: row.type,
  data: row.data,
  metadata: row.metadata,
  streamId: row.stream_id,
  streamRevision: Number(row.stream_revision),
  position: {
    transactionId: String(row.transaction_id),
    globalPosition: String(row.global_position),
  },
});

/**
 * The event store on PostgreSQL or PGlite. Appends check the stream's revision in the same
 * transaction as the insert; the whole log is read ordered by (transaction id, position) and only
 * below pg_snapshot_xmin, so an event whose transaction commits late is never skipped.
 */
export async function createPostgresEventStore(
  database: Database,
  options: {
    onError?: (error: unknown) => void;
    /** Tell other processes about appends (default true); a store alone on its database may skip it. */
    notify?: boolean;
  } = {},
): Promise<EventStore> {
  const { db } = database;
  const waker = createWaker();
  // Appends wake this store's subscriptions at once; other processes on the same PostgreSQL hear a
  // NOTIFY carrying this store's tag, sent after the commit and coalesced (see notifyOthers).
  const tag = randomUUID();
  const unlisten = await database.listen(EVENTS_CHANNEL, (payload) => {
    if (payload !== tag) waker.wakeAll();
  });
  let notifying = false;
  let notifyAgain = false;
  /**
   * One NOTIFY in flight at a time, and one more for whatever was appended meanwhile: a NOTIFY inside
   * each append would take PostgreSQL's global notify lock at every commit and serialise the writers.
   * Events committed by a process that dies before its NOTIFY are found by the subscribers' poll.
   * PGlite has no other process to tell.
   */
  const notifyOthers = () => {
    if (database.kind !== 'postgres' || options.notify === false) return;
    if (notifying) {
      notifyAgain = true;
      return;
    }
    notifying = true;
    sql`SELECT pg_notify(${EVENTS_CHANNEL}, ${tag})`
      .execute(db)
      .catch(onError)
      .finally(() => {
        notifying = false;
        if (notifyAgain) {
          notifyAgain = false;
          notifyOthers();
        }
      });
  };
  const subscriptions = new Set<Subscription>();
  const onError = options.onError ?? (() => undefined);

  /**
   * Events after `from`, only below the oldest running transaction (a lower position may still
   * commit), and whether committed events wait above that line: then the reader is held back by a
   * transaction that is not an append (a read model's write, say) whose end wakes no one, so the
   * subscription looks again shortly instead of at the next poll. ORDER BY names xid8 columns: the
   * text aliases would sort '1000' before '999'.
   */
  const readPage = async (from: LogPosition, limit: number): Promise<Page> => {
    // Prepared, like the append: every subscription's wake runs it.
    const statement = sql<EventRow & { held: boolean }>`
      WITH frontier AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin),
      page AS (
        SELECT events.* FROM events, frontier
        WHERE (events.transaction_id, events.global_position) > (${from.transactionId}::text::xid8, ${from.globalPosition}::bigint)
          AND events.transaction_id < frontier.xmin
        ORDER BY events.transaction_id, events.global_position
        LIMIT ${limit}
      )
      SELECT * FROM (
        SELECT false AS held, transaction_id AS tx, global_position, transaction_id::text AS transaction_id, stream_id, stream_revision, event_id, type, data, metadata
        FROM page
        UNION ALL
        SELECT true, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
        FROM frontier WHERE EXISTS (SELECT 1 FROM events WHERE events.transaction_id >= frontier.xmin)
      ) answer
      ORDER BY held, tx, global_position`.compile(database.background);
    const rows = await database.prepared<EventRow & { held: boolean }>(
      statement.sql,
      statement.parameters,
      { background: true },
    );
    const held = rows.length > 0 && rows[rows.length - 1]!.held;
    return { events: (held ? rows.slice(0, -1) : rows).map(toRecorded), held };
  };
  const readAll = async ({ from = START, limit = 500 }: { from?: LogPosition; limit?: number }) =>
    (await readPage(from, limit)).events;

  // Every subscription of the process (each projection, the notifier, the reactors) waits at the
  // same head and is woken by the same append: they share one read instead of each running its own.
  const sharedRead = sharedReader(readPage, waker);

  /** The position of the newest event the filter lets through (START when none). */
  const newestEvent = async (filter: RawBuilder<unknown>): Promise<LogPosition> => {
    const { rows } = await sql<{ transaction_id: string; global_position: string }>`
      SELECT transaction_id::text AS transaction_id, global_position FROM events ${filter}
      ORDER BY events.transaction_id DESC, events.global_position DESC LIMIT 1`.execute(db);
    return rows[0]
      ? { transactionId: rows[0].transaction_id, globalPosition: String(rows[0].global_position) }
      : START;
  };

  const store: EventStore = {
    kind: database.kind,

    async append<E extends AnyEvent>(
      streamId: string,
      events: E[],
      { expectedRevision, metadata, unchanged }: AppendOptions,
    ): Promise<AppendResult> {
      if (events.length === 0) throw new Error('append needs at least one event');
      const count = events.length;
      const reserve = reserveRevisions(streamId, count, expectedRevision, unchanged);
      // One statement, so one round trip in its own transaction: move the stream's revision (the
      // expectation is its WHERE) and insert the events numbered from it. A single event (most
      // appends) is inserted from its own parameters, with no array to unpack.
      // A prepared statement on PostgreSQL: the statement's text depends only on its shape (one event
      // or several, the expectation, the guard), so each connection plans it once; parsing and planning
      // the statement anew took about half of an append.
      const statement = sql<{
        revision: string;
        transaction_id: string;
        global_position: string;
      }>`${
        count === 1
          ? sql`
        WITH reserved AS (${reserve})
        INSERT INTO events (stream_id, stream_revision, event_id, type, data, metadata)
        SELECT ${streamId}, reserved.revision, ${randomUUID()}::uuid, ${events[0]!.type}, ${JSON.stringify(events[0]!.data)}::jsonb, ${JSON.stringify(metadata)}::jsonb
        FROM reserved
        RETURNING stream_revision AS revision, transaction_id::text AS transaction_id, global_position`
          : sql`
        WITH reserved AS (${reserve}),
        appended AS (
          INSERT INTO events (stream_id, stream_revision, event_id, type, data, metadata)
          SELECT ${streamId}, reserved.revision - ${count} + e.ord, gen_random_uuid(), e.value->>'type', e.value->'data', ${JSON.stringify(metadata)}::jsonb
          FROM reserved, jsonb_array_elements(${JSON.stringify(events.map((event) => ({ type: event.type, data: event.data })))}::jsonb) WITH ORDINALITY AS e(value, ord)
          RETURNING transaction_id, global_position
        ),
        summary AS (SELECT (array_agg(transaction_id::text))[1] AS transaction_id, max(global_position) AS global_position, count(*) AS n FROM appended)
        SELECT reserved.revision, summary.transaction_id, summary.global_position
        FROM reserved, summary WHERE summary.n > 0`
      }`.compile(db);
      const rows = await database.prepared<{
        revision: string;
        transaction_id: string;
        global_position: string;
      }>(statement.sql, statement.parameters);
      if (rows.length === 0) {
        if (unchanged) {
          const { rows: other } = await sql<{
            revision: string;
          }>`SELECT revision FROM streams WHERE stream_id = ${unchanged.streamId}`.execute(db);
          const actual = other[0] ? Number(other[0].revision) : -1;
          if (actual !== unchanged.revision)
            throw new StreamChangedError(unchanged.streamId, unchanged.revision, actual);
        }
        const { rows: current } = await sql<{
          revision: string;
        }>`SELECT revision FROM streams WHERE stream_id = ${streamId}`.execute(db);
        throw new WrongExpectedRevisionError(
          streamId,
          expectedRevision,
          current[0] ? Number(current[0].revision) : -1,
        );
      }
      waker.wakeAll();
      notifyOthers();
      return {
        nextExpectedRevision: Number(rows[0].revision),
        position: {
          transactionId: rows[0].transaction_id,
          globalPosition: String(rows[0].global_position),
        },
      };
    },

    async readStream<E extends AnyEvent>(streamId: string): Promise<ReadStreamResult<E>> {
      const { rows } = await sql<EventRow>`
        SELECT global_position, transaction_id::text AS transaction_id, stream_id, stream_revision, event_id, type, data, metadata
        FROM events WHERE stream_id = ${streamId} ORDER BY stream_revision`.execute(db);
      const events = rows.map(toRecorded) as RecordedEvent<E>[];
      return { events, revision: events.length ? events[events.length - 1].streamRevision : -1 };
    },

    readAll,

    subscribe(options, handler) {
      const subscription = pollingSubscription(sharedRead, waker, options, handler, onError);
      subscriptions.add(subscription);
      return {
        close: async () => {
          subscriptions.delete(subscription);
          await subscription.close();
        },
      };
    },

    head: () => newestEvent(sql`WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())`),

    committedHead: () => newestEvent(sql``),

    async close() {
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      await unlisten();
    },
  };
  return store;
}

/**
 * The statement that moves the stream's revision forward by `count` if the expectation holds (and
 * the `unchanged` stream still stands where the caller decided), returning the new revision.
 */
function reserveRevisions(
  streamId: string,
  count: number,
  expected: ExpectedRevision,
  unchanged?: AppendOptions['unchanged'],
) {
  // Checked in the same statement as the write: no other round trip, and nothing written when it fails.
  const guard = !unchanged
    ? null
    : unchanged.revision < 0
      ? sql`NOT EXISTS (SELECT 1 FROM streams WHERE stream_id = ${unchanged.streamId})`
      : sql`EXISTS (SELECT 1 FROM streams WHERE stream_id = ${unchanged.streamId} AND revision = ${unchanged.revision})`;
  const newRow = guard
    ? sql`SELECT ${streamId}::text, ${count - 1}::bigint WHERE ${guard}`
    : sql`VALUES (${streamId}, ${count - 1})`;
  if (expected === 'no_stream' || expected === -1) {
    return sql`INSERT INTO streams (stream_id, revision) ${newRow}
      ON CONFLICT (stream_id) DO NOTHING RETURNING revision`;
  }
  if (expected === 'any') {
    return sql`INSERT INTO streams (stream_id, revision) ${newRow}
      ON CONFLICT (stream_id) DO UPDATE SET revision = streams.revision + ${count} RETURNING revision`;
  }
  if (expected === 'stream_exists') {
    return sql`UPDATE streams SET revision = revision + ${count} WHERE stream_id = ${streamId} ${guard ? sql`AND ${guard}` : sql``} RETURNING revision`;
  }
  return sql`UPDATE streams SET revision = revision + ${count} WHERE stream_id = ${streamId} AND revision = ${expected} ${guard ? sql`AND ${guard}` : sql``} RETURNING revision`;
}
