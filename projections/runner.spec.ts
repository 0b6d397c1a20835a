import t from 'tap';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { meta } from '../server/eventstore/eventStore.contract.ts';
import { createPostgresEventStore } from '../server/eventstore/postgres/postgresEventStore.ts';
import { openTestDatabase, sqlBackends, type TestDatabase } from '../server/testing/testDatabase.ts';
import { defineProjection } from './projection.ts';
import { ProjectionRunner, resetProjection } from './runner.ts';

const countsProjection = (version = 1, pages: number[] = []) => defineProjection({
  name: 'streamCounts', version, handles: ['Counted'], tables: ['test_stream_counts'],
  // Folds the page in memory and writes one upsert per stream.
  async apply(trx, events) {
    pages.push(events.length);
    const byStream = new Map<string, { events: number; total: number }>();
    for (const event of events) {
      const entry = byStream.get(event.streamId) ?? { events: 0, total: 0 };
      entry.events += 1;
      entry.total += Number(event.data.n);
      byStream.set(event.streamId, entry);
    }
    await sql`INSERT INTO test_stream_counts (stream_id, events, total)
      SELECT * FROM unnest(${[...byStream.keys()]}::text[], ${[...byStream.values()].map((v) => v.events)}::int[], ${[...byStream.values()].map((v) => v.total)}::bigint[])
      ON CONFLICT (stream_id) DO UPDATE SET events = test_stream_counts.events + excluded.events, total = test_stream_counts.total + excluded.total`.execute(trx);
  },
});

const rows = async (database: TestDatabase) =>
  (await sql<{ stream_id: string; events: number; total: string }>`SELECT stream_id, events, total::text FROM test_stream_counts ORDER BY stream_id`.execute(database.db)).rows;

async function setup(backend: 'pglite' | 'postgres') {
  const database = await openTestDatabase(backend);
  await sql`CREATE TABLE test_stream_counts (stream_id text PRIMARY KEY, events int NOT NULL, total bigint NOT NULL)`.execute(database.db);
  const store = await createPostgresEventStore(database);
  const appendMany = async (streams: string[], perStream: number) => {
    let last = null;
    for (let i = 0; i < perStream; i++) {
      for (const stream of streams) last = (await store.append(stream, [{ type: 'Counted', data: { n: i } }, { type: 'Ignored', data: {} }], { expectedRevision: 'any', metadata: meta() })).position;
    }
    return last;
  };
  return { database, store, appendMany, close: async () => { await store.close(); await database.drop(); } };
}

for (const backend of sqlBackends()) {
  await t.test(`projection runner on ${backend}`, async (t) => {
    const { database, store, appendMany, close } = await setup(backend);
    t.teardown(close);
    const streams = Array.from({ length: 5 }, () => `counter-${randomUUID()}`);
    const expected = streams.map((stream) => ({ stream_id: stream, events: 40, total: String(2 * ((19 * 20) / 2)) })).sort((a, b) => a.stream_id.localeCompare(b.stream_id));

    await t.test('applies pages of events once, checkpoints them, and serves read-your-writes', async (t) => {
      const before = await appendMany(streams, 20);
      const pages: number[] = [];
      const runner = new ProjectionRunner(database, store, [countsProjection(1, pages)], { pageSize: 100 });
      await runner.start();
      t.ok(await runner.waitFor(['streamCounts'], before), 'caught up with history');
      const last = await appendMany(streams, 20);
      t.ok(await runner.waitFor(['streamCounts'], last, 2000), 'live events visible within 2 s');
      t.same(await rows(database), expected);
      t.ok(pages.length < 100, `events folded per page: ${pages.length} pages for 200 counted events`);
      const [status] = await runner.status();
      t.same(status.position, last, 'checkpoint is the last event');
      t.equal(await runner.waitFor(['streamCounts'], { transactionId: '99999999999', globalPosition: '1' }, 100), false, 'waiting past the head gives up after the timeout');
      await runner.stop();
    });

    await t.test('a crash between applying and checkpointing never applies an event twice', async (t) => {
      await resetAll(database);
      const runner = new ProjectionRunner(database, store, [countsProjection(1)], { pageSize: 37 });
      let crashes = 0;
      runner.beforeCheckpoint = async () => {
        if (crashes < 3) { crashes++; throw new Error('simulated crash before the checkpoint'); }
      };
      await runner.start();
      const head = await store.head();
      t.ok(await runner.waitFor(['streamCounts'], head, 10_000), 'caught up despite the crashes');
      t.equal(crashes, 3);
      t.same(await rows(database), expected, 'every event applied exactly once');
      await runner.stop();
    });

    await t.test('a version bump rebuilds the read model, equal to the live one row for row', async (t) => {
      const live = await rows(database);
      await sql`UPDATE test_stream_counts SET events = events + 1000`.execute(database.db); // damage it: the rebuild must not keep it
      const runner = new ProjectionRunner(database, store, [countsProjection(2)], { pageSize: 500 });
      await runner.start();
      t.ok(await runner.waitFor(['streamCounts'], await store.head(), 10_000));
      t.same(await rows(database), live, 'rebuilt equals live');
      const [status] = await runner.status();
      t.equal(status.version, 2);
      await runner.stop();
    });

    await t.test('a reset while running (npm run reproject) makes the runner start again', async (t) => {
      const runner = new ProjectionRunner(database, store, [countsProjection(2)], { pageSize: 500 });
      await runner.start();
      const head = await store.head();
      t.ok(await runner.waitFor(['streamCounts'], head, 5000));
      await database.db.transaction().execute((trx) => resetProjection(trx, countsProjection(2)));
      const after = await appendMany(streams, 1);
      t.ok(await runner.waitFor(['streamCounts'], after, 10_000));
      t.same((await rows(database)).map((row) => row.events), streams.map(() => 41));
      await runner.stop();
    });

    if (backend === 'postgres') {
      await t.test('one runner per projection across processes; another takes over when the holder dies', async (t) => {
        const other = await openTestDatabaseSameServer(database);
        const first = new ProjectionRunner(database, store, [countsProjection(2)], { lockRetryMs: 100 });
        const second = new ProjectionRunner(other, store, [countsProjection(2)], { lockRetryMs: 100 });
        await first.start();
        await second.start();
        t.same((await first.status()).map((s) => s.running), [true]);
        t.same((await second.status()).map((s) => s.running), [false], 'the second process waits');
        await first.stop(); // its session ends: the advisory lock is released
        const last = await appendMany(streams, 1);
        t.ok(await second.waitFor(['streamCounts'], last, 5000), 'the second process took over');
        t.same((await second.status()).map((s) => s.running), [true]);
        t.same((await rows(database)).map((row) => row.events), streams.map(() => 42));
        await second.stop();
        await other.close();
      });
    }
  });
}

async function resetAll(database: TestDatabase) {
  await database.db.transaction().execute((trx) => resetProjection(trx, countsProjection(1)));
}

async function openTestDatabaseSameServer(database: TestDatabase) {
  const { openDatabase } = await import('../server/db/database.ts');
  return openDatabase({ databaseUrl: database.url, poolSize: 4 });
}
