/**
 * A projector process for crash.spec.ts: runs every projection over DATABASE_URL until the read
 * models reach the head of the log, then exits 0. With KILL_AFTER_PAGES=n it kills itself (SIGKILL,
 * no clean-up of any kind) inside the n-th page's transaction, after the projection wrote its
 * tables and before the checkpoint moved.
 */
import { migrateToLatest } from '../../migrations/index.ts';
import { allProjections } from '../../projections/index.ts';
import { ProjectionRunner } from '../../projections/runner.ts';
import { openDatabase } from '../../server/db/database.ts';
import { createPostgresEventStore } from '../../server/eventstore/postgres/postgresEventStore.ts';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const killAfter = Number(process.env.KILL_AFTER_PAGES || 0);

const database = await openDatabase({ databaseUrl, poolSize: 4 });
await migrateToLatest(database.db);
const store = await createPostgresEventStore(database);
const runner = new ProjectionRunner(database, store, allProjections, {
  pageSize: Number(process.env.PAGE_SIZE || 100),
  lockRetryMs: 100,
});
let pages = 0;
runner.beforeCheckpoint = async () => {
  pages += 1;
  if (killAfter > 0 && pages >= killAfter) process.kill(process.pid, 'SIGKILL');
};
await runner.start();
const head = await store.head();
const done = await runner.waitFor(
  allProjections.map((projection) => projection.name),
  head,
  120_000,
);
await runner.stop();
await store.close();
await database.close();
process.exit(done ? 0 : 3);
