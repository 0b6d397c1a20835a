/**
 * `npm run reproject [-- name ...]`: rebuilds read models from position 0. Resets the named
 * projections (all when none is named) in one transaction, then catches them up to the head of the
 * log, reporting progress. If a running server holds a projection, that server sees its checkpoint
 * moved and rebuilds it itself; this command then waits for it.
 */
import pino from 'pino';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { createPostgresEventStore } from './eventstore/postgres/postgresEventStore.ts';
import { migrateToLatest } from '../migrations/index.ts';
import { allProjections } from '../projections/index.ts';
import { ProjectionRunner, resetProjection } from '../projections/runner.ts';

const names = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = names.filter((name) => !allProjections.some((projection) => projection.name === name));
if (unknown.length) {
  console.error(`Unknown projection(s): ${unknown.join(', ')}. Known: ${allProjections.map((projection) => projection.name).join(', ') || 'none'}`);
  process.exit(2);
}
const selected = names.length ? allProjections.filter((projection) => names.includes(projection.name)) : allProjections;

const config = loadConfig();
const logger = pino({ level: 'warn' });
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await migrateToLatest(database.db);
const store = config.eventstoreUrl
  ? await (await import('./eventstore/esdb/esdbEventStore.ts')).createEsdbEventStore(config.eventstoreUrl)
  : await createPostgresEventStore(database);

const started = Date.now();
await database.db.transaction().execute(async (trx) => {
  for (const projection of selected) {
    await trx.insertInto('projection_checkpoints').values({ name: projection.name, version: projection.version }).onConflict((oc) => oc.column('name').doNothing()).execute();
    await resetProjection(trx, projection);
  }
});
console.log(`Reset ${selected.map((projection) => projection.name).join(', ') || 'nothing'}; rebuilding from position 0 (${database.kind})`);

const runner = new ProjectionRunner(database, store, selected, { logger, pageSize: 2000 });
await runner.start();
const head = await store.head();
const progress = setInterval(async () => {
  for (const status of await runner.status()) console.log(`  ${status.projection}: position ${status.position.globalPosition} of ${head.globalPosition}${status.running ? '' : ' (rebuilt by the running server)'}`);
}, 2000);
const selectedNames = selected.map((projection) => projection.name);
while (!(await runner.waitFor(selectedNames, head, 2000))) { /* keep waiting; progress is printed */ }
clearInterval(progress);
console.log(`Rebuilt ${selectedNames.length} read model(s) up to position ${head.globalPosition} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
await runner.stop();
await store.close();
await database.close();
