import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AnyEvent, EventMetadata } from '../../../domain/shared/event.ts';
import type { Database } from '../../db/database.ts';
import {
  START, WrongExpectedRevisionError, createWaker, pollingSubscription,
  type AppendResult, type EventStore, type ExpectedRevision, type LogPosition, type ReadStreamResult, type RecordedEvent, type Subscription,
} from '../eventStore.ts';

export const EVENTS_CHANNEL = 'events_appended';

type EventRow = {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  type: string;
  data: any;
  metadata: any;
};

const toRecorded = (row: EventRow): RecordedEvent => ({
  id: row.event_id,
  type: row.type,
  data: row.data,
  metadata: row.metadata,
  streamId: row.stream_id,
  streamRevision: Number(row.stream_revision),
  position: { transactionId: String(row.transaction_id), globalPosition: String(row.global_position) },
});

/**
 * The event store on PostgreSQL or PGlite. Appends check the stream's revision in the same
 * transaction as the insert; the whole log is read ordered by (transaction id, position) and only
 * below pg_snapshot_xmin, so an event whose transaction commits late is never skipped.
 */
export async function createPostgresEventStore(database: Database, options: { onError?: (error: unknown) => void } = {}): Promise<EventStore> {
  const { db } = database;
  const waker = createWaker();
  const wakeAll = () => waker.wakeAll();
  const unlisten = await database.listen(EVENTS_CHANNEL, wakeAll);
  const subscriptions = new Set<Subscription>();
  const onError = options.onError ?? (() => undefined);

  const readAll = async ({ from = START, limit = 500 }: { from?: LogPosition; limit?: number }) => {
    // Only below the oldest running transaction: a lower position may still commit. ORDER BY names
    // the table's columns: the text aliases of the select list would sort '1000' before '999'.
    const { rows } = await sql<EventRow>`
      SELECT global_position, transaction_id::text AS transaction_id, stream_id, stream_revision, event_id, type, data, metadata
      FROM events
      WHERE (transaction_id, global_position) > (${from.transactionId}::text::xid8, ${from.globalPosition}::bigint)
        AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      ORDER BY events.transaction_id, events.global_position
      LIMIT ${limit}`.execute(db);
    return rows.map(toRecorded);
  };

  const store: EventStore = {
    kind: database.kind,

    async append<E extends AnyEvent>(streamId: string, events: E[], { expectedRevision, metadata }: { expectedRevision: ExpectedRevision; metadata: EventMetadata }): Promise<AppendResult> {
      if (events.length === 0) throw new Error('append needs at least one event');
      const count = events.length;
      return db.transaction().execute(async (trx) => {
        const newRevision = await reserveRevisions(trx, streamId, count, expectedRevision);
        const first = newRevision - count + 1;
        const values = events.map((event, index) => sql`(${streamId}, ${first + index}, ${randomUUID()}, ${event.type}, ${JSON.stringify(event.data)}::jsonb, ${JSON.stringify(metadata)}::jsonb)`);
        const { rows } = await sql<{ transaction_id: string; global_position: string }>`
          INSERT INTO events (stream_id, stream_revision, event_id, type, data, metadata)
          VALUES ${sql.join(values)}
          RETURNING transaction_id::text AS transaction_id, global_position`.execute(trx);
        await sql`SELECT pg_notify(${EVENTS_CHANNEL}, '')`.execute(trx);
        const last = rows.reduce((a, b) => (BigInt(a.global_position) > BigInt(b.global_position) ? a : b));
        return { nextExpectedRevision: newRevision, position: { transactionId: last.transaction_id, globalPosition: String(last.global_position) } };
      });
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
      const subscription = pollingSubscription((from, limit) => readAll({ from, limit }), waker, options, handler, onError);
      subscriptions.add(subscription);
      return {
        close: async () => {
          subscriptions.delete(subscription);
          await subscription.close();
        },
      };
    },

    async head() {
      const { rows } = await sql<{ transaction_id: string; global_position: string }>`
        SELECT transaction_id::text AS transaction_id, global_position FROM events
        WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY events.transaction_id DESC, events.global_position DESC LIMIT 1`.execute(db);
      return rows[0] ? { transactionId: rows[0].transaction_id, globalPosition: String(rows[0].global_position) } : START;
    },

    async close() {
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      await unlisten();
    },
  };
  return store;
}

/** Moves the stream's revision forward by `count`, checking the expectation; answers the new revision. */
async function reserveRevisions(trx: any, streamId: string, count: number, expected: ExpectedRevision): Promise<number> {
  let rows: { revision: string }[];
  if (expected === 'no_stream' || expected === -1) {
    ({ rows } = await sql<{ revision: string }>`
      INSERT INTO streams (stream_id, revision) VALUES (${streamId}, ${count - 1})
      ON CONFLICT (stream_id) DO NOTHING RETURNING revision`.execute(trx));
  } else if (expected === 'any') {
    ({ rows } = await sql<{ revision: string }>`
      INSERT INTO streams (stream_id, revision) VALUES (${streamId}, ${count - 1})
      ON CONFLICT (stream_id) DO UPDATE SET revision = streams.revision + ${count} RETURNING revision`.execute(trx));
  } else if (expected === 'stream_exists') {
    ({ rows } = await sql<{ revision: string }>`
      UPDATE streams SET revision = revision + ${count} WHERE stream_id = ${streamId} RETURNING revision`.execute(trx));
  } else {
    ({ rows } = await sql<{ revision: string }>`
      UPDATE streams SET revision = revision + ${count}
      WHERE stream_id = ${streamId} AND revision = ${expected} RETURNING revision`.execute(trx));
  }
  if (rows.length === 0) {
    const { rows: current } = await sql<{ revision: string }>`SELECT revision FROM streams WHERE stream_id = ${streamId}`.execute(trx);
    throw new WrongExpectedRevisionError(streamId, expected, current[0] ? Number(current[0].revision) : -1);
  }
  return Number(rows[0].revision);
}
