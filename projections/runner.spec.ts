// @postgres: the read-model runner: its advisory lock, checkpoints, parking and rebuilds
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../storage/schema.ts';
import { meta } from '../server/eventstore/eventStore.contract.ts';
import { createPostgresEventStore } from '../server/eventstore/postgres/postgresEventStore.ts';
import {
  openTestDatabase,
  sqlBackends,
  type TestDatabase,
} from '../server/testing/testDatabase.ts';
import { defineProjection } from './projection.ts';
import { ProjectionRunner, resetProjection } from './runner.ts';

const countsProjection = (version = 1, pages: number[] = []) =>
  defineProjection({
    name: 'streamCounts',
    version,
    handles: ['Counted'],
    tables: ['test_stream_counts'],
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
      ON CONFLICT (stream_id) DO UPDATE SET events = test_stream_counts.events + excluded.events, total = test_stream_counts.total + excluded.total`.execute(
        trx,
      );
    },
  });

/** Marks each event's id; an event marked bad cannot be applied. */
const marksProjection = (
  name = 'marks',
  before?: (trx: Transaction<DB>, id: string) => Promise<void>,
  type = 'Marked',
) =>
  defineProjection({
    name,
    version: 1,
    handles: [type],
    tables: ['test_marks'],
    async apply(trx, events) {
      for (const { data } of events) {
        await before?.(trx, String(data.id));
        if (data.bad) throw new Error(`cannot apply ${String(data.id)}`);
        await sql`INSERT INTO test_marks (id) VALUES (${data.id}) ON CONFLICT DO NOTHING`.execute(
          trx,
        );
      }
    },
  });

const marks = async (database: TestDatabase) =>
  (await sql<{ id: string }>`SELECT id FROM test_marks ORDER BY id`.execute(database.db)).rows.map(
    (row) => row.id,
  );

const rows = async (database: TestDatabase) =>
  (
    await sql<{
      stream_id: string;
      events: number;
      total: string;
    }>`SELECT stream_id, events, total::text FROM test_stream_counts ORDER BY stream_id`.execute(
      database.db,
    )
  ).rows;

async function setup(backend: 'pglite' | 'postgres') {
  const database = await openTestDatabase(backend);
  await sql`CREATE TABLE test_stream_counts (stream_id text PRIMARY KEY, events int NOT NULL, total bigint NOT NULL)`.execute(
    database.db,
  );
  // `npm run test:esdb` runs these on EventStoreDB (EVENTSTORE_URL): the events there, the read models in SQL.
  const store = process.env.EVENTSTORE_URL
    ? await (await import('../server/eventstore/esdb/esdbEventStore.ts')).createEsdbEventStore(
        process.env.EVENTSTORE_URL,
        { streamPrefix: `runner${randomUUID().replaceAll('-', '')}` },
      )
    : await createPostgresEventStore(database);
  const appendMany = async (streams: string[], perStream: number) => {
    let last = null;
    for (let i = 0; i < perStream; i++) {
      for (const stream of streams)
        last = (
          await store.append(
            stream,
            [
              { type: 'Counted', data: { n: i } },
              { type: 'Ignored', data: {} },
            ],
            { expectedRevision: 'any', metadata: meta() },
          )
        ).position;
    }
    return last;
  };
  return {
    database,
    store,
    appendMany,
    close: async () => {
      await store.close();
      await database.drop();
    },
  };
}

for (const backend of sqlBackends()) {
  await t.test(`projection runner on ${backend}`, async (t) => {
    const { database, store, appendMany, close } = await setup(backend);
    t.teardown(close);
    const streams = Array.from({ length: 5 }, () => `counter-${randomUUID()}`);
    const expected = streams
      .map((stream) => ({ stream_id: stream, events: 40, total: String(2 * ((19 * 20) / 2)) }))
      .sort((a, b) => a.stream_id.localeCompare(b.stream_id));

    await t.test(
      'applies pages of events once, checkpoints them, and serves read-your-writes',
      async (t) => {
        const before = await appendMany(streams, 20);
        const pages: number[] = [];
        const runner = new ProjectionRunner(database, store, [countsProjection(1, pages)], {
          pageSize: 100,
        });
        await runner.start();
        t.ok(await runner.waitFor(['streamCounts'], before), 'caught up with history');
        // History is read in pages (up to 100 events; EventStoreDB pushes its own sizes); live appends
        // made one at a time may each be a page of their own.
        const historyPages = pages.length;
        t.ok(
          historyPages <= 10,
          `history folded per page: ${historyPages} pages for its 100 counted events`,
        );
        const last = await appendMany(streams, 20);
        t.ok(await runner.waitFor(['streamCounts'], last, 2000), 'live events visible within 2 s');
        t.same(await rows(database), expected);
        t.equal(
          pages.reduce((sum, size) => sum + size, 0),
          200,
          `every counted event applied once (${pages.length} pages in all)`,
        );
        const [status] = await runner.status();
        t.same(status.position, last, 'checkpoint is the last event');
        t.equal(
          await runner.waitFor(
            ['streamCounts'],
            { transactionId: '99999999999', globalPosition: '1' },
            100,
          ),
          false,
          'waiting past the head gives up after the timeout',
        );
        t.match(await runner.adminStatus(), [
          {
            projection: 'streamCounts',
            version: 1,
            status: 'running',
            position: last,
            lag: 0,
            parked: 0,
            rebuild: null,
          },
        ]);
        // A page of events it does not handle is checkpointed a moment later (EventStoreDB's pushed pages
        // may end inside an append): wait for the stored checkpoint to reach the last event.
        t.ok(
          await until(async () => {
            const row = await database.db
              .selectFrom('projection_checkpoints')
              .select(['transaction_id', 'global_position'])
              .where('name', '=', 'streamCounts')
              .executeTakeFirst();
            return (
              String(row?.transaction_id) === last!.transactionId &&
              String(row?.global_position) === last!.globalPosition
            );
          }, 5000),
          'the checkpoint stored',
        );
        await runner.stop();
        // Run by no process and behind: stalled, the lag counted in events.
        await store.append(
          `counter-${randomUUID()}`,
          [
            { type: 'Ignored', data: {} },
            { type: 'Ignored', data: {} },
            { type: 'Ignored', data: {} },
          ],
          { expectedRevision: 'any', metadata: meta() },
        );
        const idle = new ProjectionRunner(database, store, [countsProjection(1)]);
        // On PostgreSQL the head stops below the oldest transaction still open in the whole cluster (an
        // event committed after it may carry a smaller id): another database's open transaction can
        // hold the three new events back for a moment.
        let idleStatus: unknown[] = [];
        await until(async () => {
          idleStatus = await idle.adminStatus();
          return (idleStatus[0] as { lag: number }).lag === 3;
        }, 5000);
        t.match(idleStatus, [{ projection: 'streamCounts', status: 'stalled', lag: 3 }]);
      },
    );

    await t.test(
      'a crash between applying and checkpointing never applies an event twice',
      async (t) => {
        await resetAll(database);
        const runner = new ProjectionRunner(database, store, [countsProjection(1)], {
          pageSize: 37,
        });
        let crashes = 0;
        runner.beforeCheckpoint = async () => {
          if (crashes < 3) {
            crashes++;
            throw new Error('simulated crash before the checkpoint');
          }
        };
        await runner.start();
        const head = await store.head();
        t.ok(await runner.waitFor(['streamCounts'], head, 10_000), 'caught up despite the crashes');
        t.equal(crashes, 3);
        t.same(await rows(database), expected, 'every event applied exactly once');
        await runner.stop();
      },
    );

    await t.test(
      'a version bump rebuilds the read model, equal to the live one row for row',
      async (t) => {
        const live = await rows(database);
        await sql`UPDATE test_stream_counts SET events = events + 1000`.execute(database.db); // damage it: the rebuild must not keep it
        const damaged = await rows(database);
        const runner = new ProjectionRunner(database, store, [countsProjection(2)], {
          pageSize: 500,
        });
        await runner.start();
        // The old tables keep serving while the new version is built beside them, then swapped in.
        t.same(await rows(database), damaged, 'the live tables serve until the swap');
        t.ok(
          await until(async () => {
            const [model] = await runner.adminStatus();
            return model.version === 2 && model.status !== 'rebuilding';
          }, 10_000),
          'swapped in',
        );
        t.ok(await runner.waitFor(['streamCounts'], await store.head(), 10_000));
        t.same(await rows(database), live, 'rebuilt equals live');
        const [status] = await runner.adminStatus();
        t.equal(status.version, 2);
        t.equal(status.status, 'running');
        t.equal(status.rebuild, null);
        const schemas = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM pg_namespace WHERE nspname LIKE 'rebuild_%' OR nspname LIKE 'retired_%'`.execute(
          database.db,
        );
        t.equal(schemas.rows[0].n, 0, 'the rebuild schema is gone');
        await runner.stop();
      },
    );

    await t.test(
      'a reset while running (npm run reproject) makes the runner start again',
      async (t) => {
        const runner = new ProjectionRunner(database, store, [countsProjection(2)], {
          pageSize: 500,
        });
        await runner.start();
        const head = await store.head();
        t.ok(await runner.waitFor(['streamCounts'], head, 5000));
        await database.db.transaction().execute((trx) => resetProjection(trx, countsProjection(2)));
        const after = await appendMany(streams, 1);
        t.ok(await runner.waitFor(['streamCounts'], after, 10_000));
        t.same(
          (await rows(database)).map((row) => row.events),
          streams.map(() => 41),
        );
        await runner.stop();
      },
    );

    await t.test(
      'an event that cannot be applied is parked; the events around it are applied, and a restart keeps it parked',
      async (t) => {
        await sql`CREATE TABLE test_marks (id text PRIMARY KEY)`.execute(database.db);
        const stream = `marks-${randomUUID()}`;
        const mark = (id: string, bad = false) => ({ type: 'Marked', data: { id, bad } });
        const runner = new ProjectionRunner(database, store, [marksProjection()], {
          attempts: 3,
          retryDelayMs: 10,
        });
        await runner.start();
        await store.append(stream, [mark('a'), mark('bad', true), mark('b')], {
          expectedRevision: 'any',
          metadata: meta(),
        });
        const { position } = await store.append(stream, [mark('c')], {
          expectedRevision: 'any',
          metadata: meta(),
        });
        t.ok(await runner.waitFor(['marks'], position, 10_000), 'the events after it flow on');
        t.same(await marks(database), ['a', 'b', 'c']);
        const parked = await runner.parked('marks');
        t.match(parked, [{ type: 'Marked', streamId: stream, error: 'cannot apply bad' }]);
        t.same(Object.fromEntries(await runner.parkedCounts()), { marks: 1 });
        t.match(await runner.retryParked('marks', parked![0].eventId), {
          status: 'failed',
          error: 'cannot apply bad',
        });
        await runner.stop();

        const again = new ProjectionRunner(database, store, [marksProjection()], {
          attempts: 3,
          retryDelayMs: 10,
        });
        await again.start();
        const next = await store.append(stream, [mark('d')], {
          expectedRevision: 'any',
          metadata: meta(),
        });
        t.ok(await again.waitFor(['marks'], next.position, 10_000));
        t.same(
          await marks(database),
          ['a', 'b', 'c', 'd'],
          'nothing applied twice after the restart',
        );
        t.equal((await again.parked('marks'))!.length, 1, 'still parked, once');
        await again.stop();
      },
    );

    if (backend === 'postgres') {
      await t.test(
        'one runner per projection across processes; another takes over when the holder dies',
        async (t) => {
          const other = await openTestDatabaseSameServer(database);
          const first = new ProjectionRunner(database, store, [countsProjection(2)], {
            lockRetryMs: 100,
          });
          const second = new ProjectionRunner(other, store, [countsProjection(2)], {
            lockRetryMs: 100,
          });
          await first.start();
          await second.start();
          t.same(
            (await first.status()).map((s) => s.running),
            [true],
          );
          t.same(
            (await second.status()).map((s) => s.running),
            [false],
            'the second process waits',
          );
          await first.stop(); // its session ends: the advisory lock is released
          const last = await appendMany(streams, 1);
          t.ok(await second.waitFor(['streamCounts'], last, 5000), 'the second process took over');
          t.same(
            (await second.status()).map((s) => s.running),
            [true],
          );
          t.same(
            (await rows(database)).map((row) => row.events),
            streams.map(() => 42),
          );
          await second.stop();
          await other.close();
        },
      );

      await t.test(
        'a connection lost while applying parks nothing: the page is applied again',
        async (t) => {
          await sql`TRUNCATE test_marks`.execute(database.db);
          let kills = 0;
          const flaky = marksProjection(
            'flakyMarks',
            async (trx, id) => {
              if (id === 'kill' && kills < 4) {
                kills++;
                await sql`SELECT pg_terminate_backend(pg_backend_pid())`.execute(trx);
              }
            },
            'FlakyMarked',
          );
          const runner = new ProjectionRunner(database, store, [flaky], {
            attempts: 2,
            retryDelayMs: 10,
          });
          await runner.start();
          const stream = `flaky-${randomUUID()}`;
          const { position } = await store.append(
            stream,
            ['x', 'kill', 'y'].map((id) => ({ type: 'FlakyMarked', data: { id } })),
            { expectedRevision: 'any', metadata: meta() },
          );
          t.ok(
            await runner.waitFor(['flakyMarks'], position, 10_000),
            'applied once the connection is back',
          );
          t.equal(kills, 4, 'the connection was lost four times (more than the tries of an event)');
          t.same(await marks(database), ['kill', 'x', 'y']);
          t.same(await runner.parked('flakyMarks'), [], 'nothing parked');
          await runner.stop();
        },
      );
    }
  });
}

async function until(check: () => Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

async function resetAll(database: TestDatabase) {
  await database.db.transaction().execute((trx) => resetProjection(trx, countsProjection(1)));
}

async function openTestDatabaseSameServer(database: TestDatabase) {
  const { openDatabase } = await import('../server/db/database.ts');
  return openDatabase({ databaseUrl: database.url, poolSize: 4 });
}
