import { comparePositions, type EventStore, type LogPosition } from '../eventstore/eventStore.ts';

/**
 * Waits until `readAll` returns everything up to `position` and answers the readable head. On a
 * PostgreSQL server shared with other work (other test files run beside this one), a transaction in
 * flight anywhere holds the readable head back for a moment; the answer may still be short of
 * `position` after `timeoutMs`, and the caller's assertion says so.
 */
export async function readableThrough(
  store: EventStore,
  position: LogPosition,
  timeoutMs = 10_000,
): Promise<LogPosition> {
  let head = await store.head();
  for (
    const deadline = Date.now() + timeoutMs;
    comparePositions(head, position) < 0 && Date.now() < deadline;
  ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    head = await store.head();
  }
  return head;
}
