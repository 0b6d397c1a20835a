import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../storage/schema.ts';
import type { LogPosition, RecordedEvent } from '../storage/eventStore.ts';

/** An event a read model set aside because applying it failed, as `GET admin/projections/{name}/parked` shows it. */
export type ParkedEvent = {
  eventId: string;
  streamId: string;
  type: string;
  position: string;
  error: string;
  at: string;
};

type ParkedRow = {
  event_id: string;
  stream_id: string;
  type: string;
  transaction_id: string;
  global_position: string;
  error: string;
  parked_at: Date | string;
};

/** The longest error text kept with a parked event. */
const ERROR_TEXT_MAX = 2000;

export const errorText = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, ERROR_TEXT_MAX) ||
  'Unknown error';

/**
 * Failures that say nothing about the event: the connection dropped, the server is shutting down
 * or out of resources, a lock or a serialization conflict. The page is tried again later; such an
 * error never parks an event.
 */
export function isTransient(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (/^(08|53|57P|58)/.test(code) || ['40001', '40P01', '55P03', '55006'].includes(code))
      return true;
    if (
      ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)
    )
      return true;
  }
  const message = error instanceof Error ? error.message : String(error);
  return /Connection terminated|connection error|timeout exceeded when trying to connect|not queryable|PGlite is closed|driver has already been destroyed|Client was closed/i.test(
    message,
  );
}

/**
 * Sets an event aside, in the caller's transaction (the one that moves the checkpoint past it). The
 * table is named without a schema: a rebuild's transaction writes into its own schema's copy.
 */
export async function parkEvent(
  trx: Transaction<DB>,
  projection: string,
  event: RecordedEvent,
  error: unknown,
) {
  await sql`INSERT INTO projection_parked_events (projection, event_id, stream_id, type, transaction_id, global_position, error)
    VALUES (${projection}, ${event.id}, ${event.streamId}, ${event.type}, ${event.position.transactionId}, ${event.position.globalPosition}, ${errorText(error)})
    ON CONFLICT (projection, event_id) DO UPDATE SET error = excluded.error, parked_at = now()`.execute(
    trx,
  );
}

export async function listParked(db: Kysely<DB>, projection: string): Promise<ParkedEvent[]> {
  const { rows } =
    await sql<ParkedRow>`SELECT event_id, stream_id, type, transaction_id::text AS transaction_id, global_position::text AS global_position, error, parked_at
    FROM projection_parked_events WHERE projection = ${projection} ORDER BY transaction_id, global_position`.execute(
      db,
    );
  return rows.map((row) => ({
    eventId: row.event_id,
    streamId: row.stream_id,
    type: row.type,
    position: String(row.global_position),
    error: row.error,
    at: new Date(row.parked_at).toISOString(),
  }));
}

/** One parked event with its log position, or null. */
export async function findParked(
  db: Kysely<DB>,
  projection: string,
  eventId: string,
): Promise<{ eventId: string; streamId: string; position: LogPosition } | null> {
  const { rows } =
    await sql<ParkedRow>`SELECT event_id, stream_id, transaction_id::text AS transaction_id, global_position::text AS global_position
    FROM projection_parked_events WHERE projection = ${projection} AND event_id = ${eventId}`.execute(
      db,
    );
  const row = rows[0];
  return row
    ? {
        eventId: row.event_id,
        streamId: row.stream_id,
        position: {
          transactionId: String(row.transaction_id),
          globalPosition: String(row.global_position),
        },
      }
    : null;
}

export async function unparkEvent(trx: Transaction<DB>, projection: string, eventId: string) {
  await sql`DELETE FROM projection_parked_events WHERE projection = ${projection} AND event_id = ${eventId}`.execute(
    trx,
  );
}

/** How many events each read model has set aside (only those with any). */
export async function countParked(db: Kysely<DB>): Promise<Map<string, number>> {
  const { rows } = await sql<{
    projection: string;
    parked: string | number;
  }>`SELECT projection, count(*) AS parked FROM projection_parked_events GROUP BY projection`.execute(
    db,
  );
  return new Map(rows.map((row) => [row.projection, Number(row.parked)]));
}
