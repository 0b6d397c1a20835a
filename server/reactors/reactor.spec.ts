// @postgres: the reactor primitive: checkpointed in one table, resumes after a restart, one process at a time
import { sql } from 'kysely';
import t from 'tap';
import { listReactorCheckpoints } from '../../storage/checkpoints.ts';
import { comparePositions, type RecordedEvent } from '../../storage/eventStore.ts';
import { startReactor, type ReactorDefinition } from '../../storage/reactor.ts';
import { openDatabase } from '../db/database.ts';
import { meta } from '../eventstore/eventStore.contract.ts';
import { createPostgresEventStore } from '../eventstore/postgres/postgresEventStore.ts';
import { openTestDatabase } from '../testing/testDatabase.ts';

const logger = { warn: () => undefined };

t.test(
  'a reactor handles its events once, checkpointed, and resumes after a restart',
  async (t) => {
    const database = await openTestDatabase();
    t.teardown(() => database.drop());
    const store = await createPostgresEventStore(database);
    await sql`CREATE TABLE test_reacted (event_id text PRIMARY KEY, n int NOT NULL)`.execute(
      database.db,
    );
    const append = async (type: string, n: number) =>
      (
        await store.append('counter-1', [{ type, data: { n } }], {
          expectedRevision: 'any',
          metadata: meta(),
        })
      ).position;
    const before = await append('Counted', -1); // before the first start: not handled (it starts at the head)
    // On PostgreSQL the readable head trails a cluster-wide snapshot horizon, so an open transaction in
    // another database may hold it below `before` for a moment: start once the head has passed it.
    for (
      let waited = 0;
      comparePositions(await store.head(), before) < 0 && waited < 5_000;
      waited += 20
    )
      await new Promise((resolve) => setTimeout(resolve, 20));

    const heard: number[] = [];
    const counting: ReactorDefinition = {
      name: 'testCounting',
      handles: ['Counted'],
      async handle(events, page) {
        // The rows and the checkpoint in one transaction.
        await page.commit(async (trx) => {
          for (const event of events as RecordedEvent<{ type: 'Counted'; data: { n: number } }>[]) {
            heard.push(event.data.n);
            await sql`INSERT INTO test_reacted (event_id, n) VALUES (${event.id}, ${event.data.n})`.execute(
              trx,
            );
          }
        });
      },
    };
    const ignoring: ReactorDefinition = {
      name: 'testIgnoring',
      handles: (event) => event.type === 'Nothing',
      handle: async () => 'idle',
    };

    let reactor = startReactor(counting, { database, store, logger, claimRetryMs: 100 });
    const other = startReactor(ignoring, { database, store, logger, claimRetryMs: 100 });
    t.teardown(() => other.stop());
    await reactor.started;
    await other.started;
    await append('Counted', 1);
    await append('Ignored', 0);
    const last = await append('Counted', 2);
    t.ok(await reactor.waitFor(last, 10_000), 'the reactor reached the last event');
    t.same(heard, [1, 2], 'only its events, from the head at its first start');
    t.ok(await other.waitFor(last, 10_000));

    const checkpoints = await listReactorCheckpoints(database.db);
    t.same(
      checkpoints.map((row) => row.name),
      ['testCounting', 'testIgnoring'],
      'both reactors keep their checkpoint in the one table',
    );
    t.same(checkpoints[0]!.position, last, 'the checkpoint is the last event handled');

    await reactor.stop();
    await append('Counted', 3);
    const after = await append('Counted', 4);
    t.same(heard, [1, 2], 'a stopped reactor handles nothing');

    reactor = startReactor(counting, { database, store, logger, claimRetryMs: 100 });
    t.teardown(() => reactor.stop());
    t.ok(await reactor.waitFor(after, 10_000), 'the restarted reactor caught up');
    t.same(heard, [1, 2, 3, 4], 'from its checkpoint: nothing twice, nothing skipped');
    const { rows } = await sql<{ n: number }>`SELECT n FROM test_reacted ORDER BY n`.execute(
      database.db,
    );
    t.same(
      rows.map((row) => row.n),
      [1, 2, 3, 4],
    );
  },
);

t.test(
  'pages with nothing done: the checkpoint reaches the last one about a second after the log goes quiet, and at stop',
  async (t) => {
    const database = await openTestDatabase();
    t.teardown(() => database.drop());
    const store = await createPostgresEventStore(database);
    const append = async () =>
      (
        await store.append('counter-3', [{ type: 'Counted', data: {} }], {
          expectedRevision: 'any',
          metadata: meta(),
        })
      ).position;
    const idle = startReactor(
      { name: 'testIdle', handles: ['Counted'], handle: async () => 'idle' },
      { database, store, logger },
    );
    t.teardown(() => idle.stop());
    await idle.started;
    const checkpoint = async () =>
      (await listReactorCheckpoints(database.db)).find((row) => row.name === 'testIdle')?.position;
    t.ok(await idle.waitFor(await append(), 10_000));
    // Within a second of the checkpoint written for the first page: left for later.
    const second = await append();
    t.ok(await idle.waitFor(second, 10_000));
    for (
      let waited = 0;
      JSON.stringify(await checkpoint()) !== JSON.stringify(second) && waited < 3_000;
      waited += 50
    )
      await new Promise((resolve) => setTimeout(resolve, 50));
    t.same(
      await checkpoint(),
      second,
      'no event after it, and the checkpoint is there all the same',
    );
    const third = await append();
    t.ok(await idle.waitFor(third, 10_000));
    await idle.stop();
    t.same(await checkpoint(), third, 'a stopped reactor leaves its checkpoint where it stood');
  },
);

t.test(
  'two processes: one runs the reactor, the other takes over when it stops',
  { skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL (DATABASE_URL)' },
  async (t) => {
    const database = await openTestDatabase();
    t.teardown(() => database.drop());
    const other = await openDatabase({ databaseUrl: database.url, poolSize: 4 });
    t.teardown(() => other.close());
    const stores = [
      await createPostgresEventStore(database),
      await createPostgresEventStore(other),
    ] as const;
    const heard: string[][] = [[], []];
    const definition = (i: 0 | 1): ReactorDefinition => ({
      name: 'testTwoProcesses',
      handles: ['Counted'],
      async handle(events) {
        for (const event of events) heard[i]!.push(event.id);
      },
    });
    const first = startReactor(definition(0), { database, store: stores[0], logger });
    await first.started;
    const second = startReactor(definition(1), {
      database: other,
      store: stores[1],
      logger,
      claimRetryMs: 100,
    });
    t.teardown(() => second.stop());
    await second.started;
    t.equal(second.position(), null, 'the second process does not lead');
    const append = async () =>
      (
        await stores[0].append('counter-2', [{ type: 'Counted', data: {} }], {
          expectedRevision: 'any',
          metadata: meta(),
        })
      ).position;
    const one = await append();
    t.ok(await first.waitFor(one, 10_000));
    await first.stop();
    const two = await append();
    t.ok(await second.waitFor(two, 10_000), 'the second took over');
    t.equal(heard[0]!.length, 1);
    t.equal(heard[1]!.length, 1, 'from where the first stopped: the first event not again');
  },
);
