import { sql, type Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import { comparePositions, START, type EventStore, type LogPosition } from '../eventstore/eventStore.ts';

/**
 * Waits until `readAll` returns everything up to `position` and answers the readable head. On a
 * PostgreSQL server shared with other work (other test files run beside this one), a transaction in
 * flight anywhere holds the readable head back for a moment; the answer may still be short of
 * `position` after `timeoutMs`, and the caller's assertion says so.
 */
export async function readableThrough(store: EventStore, position: LogPosition, timeoutMs = 10_000): Promise<LogPosition> {
  let head = await store.head();
  for (const deadline = Date.now() + timeoutMs; comparePositions(head, position) < 0 && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    head = await store.head();
  }
  return head;
}

/**
 * The position of the newest event committed so far, whether or not the readable head has passed it:
 * what a test waits for after its own commands (`store.head()` may still be short of them while a
 * transaction elsewhere on a shared PostgreSQL server runs).
 */
export async function lastCommitted(db: Kysely<DB>): Promise<LogPosition> {
  const { rows } = await sql<{ transaction_id: string; global_position: string }>`
    SELECT transaction_id::text AS transaction_id, global_position::text AS global_position FROM events
    ORDER BY transaction_id DESC, global_position DESC LIMIT 1`.execute(db);
  const row = rows[0];
  return row ? { transactionId: row.transaction_id, globalPosition: row.global_position } : START;
}
