import type { Test } from 'tap';
import { randomUUID } from 'node:crypto';
import type { EventMetadata } from '../../domain/shared/event.ts';
import {
  comparePositions,
  StreamChangedError,
  WrongExpectedRevisionError,
  type EventStore,
  type RecordedEvent,
} from './eventStore.ts';
import { readableThrough } from '../testing/readableHead.ts';

export const meta = (overrides: Partial<EventMetadata> = {}): EventMetadata => ({
  userId: 'user-1',
  organizationId: 'org-1',
  correlationId: 'load-1',
  causationId: 'request-1',
  at: '2026-11-22T09:00:00.000Z',
  ...overrides,
});

const ev = (n: number) => ({ type: 'Counted', data: { n } });

/**
 * What every event store adapter must do. `open` gives a fresh, empty store; `holdOpenAppend`,
 * where the adapter has one, begins an append in a transaction and commits it only when released.
 */
export async function eventStoreContract(
  t: Test,
  open: () => Promise<{ store: EventStore; close: () => Promise<void> }>,
  extras: {
    holdOpenAppend?: (
      store: EventStore,
      streamId: string,
    ) => Promise<{ commit: () => Promise<void> }>;
  } = {},
) {
  const { store, close } = await open();
  t.teardown(close);

  await t.test('appends and reads a stream back, with metadata', async (t) => {
    const stream = `test-${randomUUID()}`;
    const first = await store.append(stream, [ev(1), ev(2)], {
      expectedRevision: 'no_stream',
      metadata: meta(),
    });
    t.equal(first.nextExpectedRevision, 1);
    const second = await store.append(stream, [ev(3)], {
      expectedRevision: 1,
      metadata: meta({ userId: 'user-2' }),
    });
    t.equal(second.nextExpectedRevision, 2);
    t.ok(
      comparePositions(second.position, first.position) > 0,
      'later append has a later position',
    );
    const { events, revision } = await store.readStream(stream);
    t.equal(revision, 2);
    t.same(
      events.map((e) => [e.type, e.data.n, e.streamRevision]),
      [
        ['Counted', 1, 0],
        ['Counted', 2, 1],
        ['Counted', 3, 2],
      ],
    );
    t.same(events[2].metadata, meta({ userId: 'user-2' }));
    t.match(events[0].id, /^[0-9a-f-]{36}$/);
    const missing = await store.readStream(`test-${randomUUID()}`);
    t.same(missing, { events: [], revision: -1 });
  });

  await t.test('both heads are the last append when nothing is in flight', async (t) => {
    const appended = await store.append(`test-${randomUUID()}`, [ev(1), ev(2)], {
      expectedRevision: 'no_stream',
      metadata: meta(),
    });
    t.same(await store.committedHead(), appended.position);
    // A transaction in flight elsewhere on a shared PostgreSQL may hold the readable head back a moment.
    t.same(await readableThrough(store, appended.position), appended.position);
  });

  await t.test('a wrong expected revision is a typed conflict and writes nothing', async (t) => {
    const stream = `test-${randomUUID()}`;
    await store.append(stream, [ev(1)], { expectedRevision: 'no_stream', metadata: meta() });
    await t.rejects(
      store.append(stream, [ev(2)], { expectedRevision: 'no_stream', metadata: meta() }),
      WrongExpectedRevisionError,
    );
    await t.rejects(
      store.append(stream, [ev(2)], { expectedRevision: 5, metadata: meta() }),
      WrongExpectedRevisionError,
    );
    const error = await store
      .append(stream, [ev(2), ev(3)], { expectedRevision: 3, metadata: meta() })
      .catch((e) => e);
    t.ok(error instanceof WrongExpectedRevisionError, 'conflict error');
    t.equal(error.statusCode, 409);
    t.equal((await store.readStream(stream)).events.length, 1, 'nothing half-written');
    await store.append(stream, [ev(2)], { expectedRevision: 'any', metadata: meta() });
    await store.append(stream, [ev(3)], { expectedRevision: 'stream_exists', metadata: meta() });
    await t.rejects(
      store.append(`test-${randomUUID()}`, [ev(1)], {
        expectedRevision: 'stream_exists',
        metadata: meta(),
      }),
      WrongExpectedRevisionError,
    );
    t.equal((await store.readStream(stream)).revision, 2);
  });

  await t.test(
    'an append on the condition that another stream stands where the decision was made',
    async (t) => {
      const decidedOn = `test-${randomUUID()}`;
      const target = `test-${randomUUID()}`;
      await store.append(decidedOn, [ev(1)], { expectedRevision: 'no_stream', metadata: meta() });
      const written = await store.append(target, [ev(1), ev(2)], {
        expectedRevision: 'any',
        metadata: meta(),
        unchanged: { streamId: decidedOn, revision: 0 },
      });
      t.equal(written.nextExpectedRevision, 1, 'written while the other stream is unchanged');
      await store.append(decidedOn, [ev(2)], { expectedRevision: 0, metadata: meta() });
      for (const expectedRevision of ['any', 1, 'stream_exists'] as const) {
        const error = await store
          .append(target, [ev(3)], {
            expectedRevision,
            metadata: meta(),
            unchanged: { streamId: decidedOn, revision: 0 },
          })
          .catch((e) => e);
        t.ok(
          error instanceof StreamChangedError,
          `refused once the other stream moved on (expected ${expectedRevision})`,
        );
        t.match(error, { statusCode: 409, expected: 0, actual: 1 });
      }
      t.equal((await store.readStream(target)).revision, 1, 'nothing written on a refusal');
      await store.append(target, [ev(3)], {
        expectedRevision: 1,
        metadata: meta(),
        unchanged: { streamId: decidedOn, revision: 1 },
      });
      t.ok(
        await store.append(`test-${randomUUID()}`, [ev(1)], {
          expectedRevision: 'no_stream',
          metadata: meta(),
          unchanged: { streamId: `test-${randomUUID()}`, revision: -1 },
        }),
        'a stream that must not exist yet',
      );
      await t.rejects(
        store.append(target, [ev(4)], {
          expectedRevision: 'any',
          metadata: meta(),
          unchanged: { streamId: decidedOn, revision: -1 },
        }),
        StreamChangedError,
      );
      // Both conditions hold or nothing is written; a wrong expected revision is still that error.
      await t.rejects(
        store.append(target, [ev(4)], {
          expectedRevision: 0,
          metadata: meta(),
          unchanged: { streamId: decidedOn, revision: 1 },
        }),
        WrongExpectedRevisionError,
      );
      t.equal((await store.readStream(target)).revision, 2);
    },
  );

  await t.test(
    '16 concurrent appenders to one stream: contiguous revisions, no duplicate',
    async (t) => {
      const stream = `test-${randomUUID()}`;
      await store.append(stream, [ev(-1)], { expectedRevision: 'no_stream', metadata: meta() });
      let conflicts = 0;
      const writer = async (w: number) => {
        for (let i = 0; i < 5; i++) {
          for (;;) {
            const { revision } = await store.readStream(stream);
            try {
              await store.append(stream, [ev(w * 100 + i)], {
                expectedRevision: revision,
                metadata: meta(),
              });
              break;
            } catch (error) {
              if (!(error instanceof WrongExpectedRevisionError)) throw error;
              conflicts++;
            }
          }
        }
      };
      await Promise.all(Array.from({ length: 16 }, (_, w) => writer(w)));
      const { events } = await store.readStream(stream);
      t.equal(events.length, 81);
      t.same(
        events.map((e) => e.streamRevision),
        Array.from({ length: 81 }, (_, i) => i),
        'revisions 0..80 in order',
      );
      t.equal(new Set(events.map((e) => e.data.n)).size, 81, 'every append exactly once');
      t.comment(`optimistic conflicts retried: ${conflicts}`);
    },
  );

  await t.test('readAll pages through the whole log in order from a checkpoint', async (t) => {
    const head = await store.head();
    const streams = [`test-${randomUUID()}`, `test-${randomUUID()}`];
    for (let i = 0; i < 6; i++)
      await store.append(streams[i % 2], [ev(i)], { expectedRevision: 'any', metadata: meta() });
    const seen: RecordedEvent[] = [];
    let from = head;
    const deadline = Date.now() + 5000;
    while (seen.length < 6 && Date.now() < deadline) {
      const page = await store.readAll({ from, limit: 4 });
      if (page.length === 0) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      // Other writers of the same server (xids are cluster-wide) may hold the readable head back
      // for a moment; only this test's streams are compared.
      seen.push(...page.filter((e) => streams.includes(e.streamId)));
      from = page[page.length - 1].position;
    }
    t.same(
      seen.map((e) => e.data.n),
      [0, 1, 2, 3, 4, 5],
    );
    for (let i = 1; i < seen.length; i++)
      t.ok(comparePositions(seen[i].position, seen[i - 1].position) > 0);
    let head2 = await store.head();
    for (let i = 0; i < 100 && comparePositions(head2, seen[5].position) < 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      head2 = await store.head();
    }
    t.ok(comparePositions(head2, seen[5].position) >= 0, 'head reaches the newest event');
  });

  await t.test('subscribe delivers history, then live events, in order', async (t) => {
    const from = await store.head();
    const stream = `test-${randomUUID()}`;
    await store.append(stream, [ev(1)], { expectedRevision: 'no_stream', metadata: meta() });
    const received: number[] = [];
    let resolve!: () => void;
    const done = new Promise<void>((r) => {
      resolve = r;
    });
    const subscription = store.subscribe({ from }, async (events) => {
      for (const e of events) if (e.streamId === stream) received.push(e.data.n);
      if (received.length >= 3) resolve();
    });
    await store.append(stream, [ev(2), ev(3)], { expectedRevision: 0, metadata: meta() });
    await Promise.race([
      done,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('subscription timed out')), 5000),
      ),
    ]);
    await subscription.close();
    t.same(received, [1, 2, 3]);
  });

  if (extras.holdOpenAppend) {
    await t.test(
      'a reader started while an earlier transaction is open does not skip its events',
      async (t) => {
        const from = await store.head();
        const slow = `test-slow-${randomUUID()}`;
        const fast = `test-fast-${randomUUID()}`;
        const held = await extras.holdOpenAppend!(store, slow);
        const fastAppend = await store.append(fast, [ev(2)], {
          expectedRevision: 'no_stream',
          metadata: meta(),
        });
        const before = await store.readAll({ from });
        t.same(
          before.filter((e) => e.streamId === fast || e.streamId === slow).map((e) => e.streamId),
          [],
          'nothing past the open transaction is readable yet',
        );
        t.ok(
          comparePositions(await store.head(), fastAppend.position) < 0,
          'the readable head stops before the open transaction',
        );
        t.same(
          await store.committedHead(),
          fastAppend.position,
          'the committed head is the later append',
        );
        await held.commit();
        const after = await store.readAll({ from });
        t.same(
          after.map((e) => e.streamId).filter((s) => s === fast || s === slow),
          [slow, fast],
          'both, the late one first, none skipped',
        );
      },
    );
  }
}
