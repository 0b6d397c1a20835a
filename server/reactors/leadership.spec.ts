// @postgres: the advisory locks of background jobs: one holder per job on one database, handed over on release
import t from 'tap';
import { createLeadership, leadHeld } from '../../storage/leadership.ts';
import { openDatabase } from '../db/database.ts';
import { openTestDatabase } from '../testing/testDatabase.ts';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

t.test('two holders on one database: only one leads a job; release hands it over', async (t) => {
  const database = await openTestDatabase();
  t.teardown(() => database.drop());
  const job = `test:job:${Date.now()}`;
  const first = createLeadership(database);
  t.teardown(() => first.release());
  t.equal(await leadHeld(database.db, job), false, 'nobody holds a job nobody asked for');
  t.equal(await first.holds(job), true, 'the first to ask leads');
  t.equal(first.leads(job), true);
  t.equal(await first.holds(job), true, 'and keeps leading when it asks again');
  t.equal(await leadHeld(database.db, job), true, 'the lock is seen from any connection');

  if (backend === 'pglite') {
    // One process owns a PGlite database: it runs every job, whoever asks.
    t.equal(await createLeadership(database).holds(job), true);
    await first.release();
    t.equal(await leadHeld(database.db, job), true, 'another holder of this process still has it');
    return;
  }

  // Another process on the same PostgreSQL database.
  const other = await openDatabase({ databaseUrl: database.url, poolSize: 2 });
  t.teardown(() => other.close());
  const second = createLeadership(other);
  t.teardown(() => second.release());
  t.equal(await second.holds(job), false, 'the second does not lead while the first does');
  t.equal(await second.holds(`${job}:other`), true, 'another job is free for it');
  t.equal(first.leads(`${job}:other`), false);
  t.equal(await first.holds(`${job}:other`), false, 'and the first no longer gets that one');

  await first.resign(job);
  t.equal(await second.holds(job), true, 'a job given back is taken by the next to ask');
  t.equal(await first.holds(job), false);

  await second.release();
  t.equal(await leadHeld(database.db, job), false, 'release gives every job back');
  t.equal(await first.holds(job), true, 'and the first takes over');
  t.equal(await first.holds(`${job}:other`), true);
});

t.test(
  'a holder whose session dies loses its jobs to the others',
  { skip: backend === 'pglite' ? 'needs PostgreSQL (DATABASE_URL)' : false },
  async (t) => {
    const database = await openTestDatabase();
    t.teardown(() => database.drop());
    const other = await openDatabase({ databaseUrl: database.url, poolSize: 2 });
    t.teardown(() => other.close());
    const job = 'test:crash';
    const first = createLeadership(database);
    const second = createLeadership(other);
    t.teardown(() => second.release());
    t.equal(await first.holds(job), true);
    t.equal(await second.holds(job), false);
    // The session ends as a crashed process's would: PostgreSQL frees its locks.
    await first.reset();
    t.equal(await second.holds(job), true, 'the next to ask leads');
    t.equal(await first.holds(job), false, 'and the first, reconnected, does not');
    await first.release();
  },
);

t.test('jobs of one holder asking at once share one session, opened once', async (t) => {
  const database = await openTestDatabase();
  t.teardown(() => database.drop());
  let opened = 0;
  const counting = {
    kind: database.kind,
    session: () => {
      opened += 1;
      return database.session();
    },
  };
  const leadership = createLeadership(counting);
  t.teardown(() => leadership.release());
  const stamp = Date.now();
  const jobs = ['a', 'b', 'c', 'd'].map((name) => `test:shared:${name}:${stamp}`);
  t.same(
    await Promise.all(jobs.map((job) => leadership.holds(job))),
    [true, true, true, true],
    'each job is led',
  );
  t.equal(opened, 1, 'one session for all of them');
  for (const job of jobs) t.equal(await leadHeld(database.db, job), true, `${job} is held`);
  await leadership.resign(jobs[0]!);
  t.equal(await leadHeld(database.db, jobs[0]!), false, 'a resigned job is free');
  t.equal(await leadHeld(database.db, jobs[1]!), true, 'the others stay held');
});
