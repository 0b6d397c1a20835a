/**
 * `npm run reproject [-- name ...]`: rebuilds read models (all when none is named) from the start of
 * the log, beside the live tables, and swaps each in once it has caught up: screens keep reading the
 * old, complete tables meanwhile. A projection this command can take (no server runs it) is rebuilt
 * here; one a running server holds (PostgreSQL) is asked for through the database, and that server
 * rebuilds it while this command follows its progress. On PGlite, stop the server first.
 */
import { sql } from 'kysely';
import pino from 'pino';
import { loadConfig, loadDotEnv } from './config.ts';
import { openDatabase } from './db/database.ts';
import { createPostgresEventStore } from './eventstore/postgres/postgresEventStore.ts';
import { migrateToLatest } from '../migrations/index.ts';
import { allProjections } from '../projections/index.ts';
import { ProjectionRunner } from '../projections/runner.ts';

const names = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = names.filter(
  (name) => !allProjections.some((projection) => projection.name === name),
);
if (unknown.length) {
  console.error(
    `Unknown projection(s): ${unknown.join(', ')}. Known: ${allProjections.map((projection) => projection.name).join(', ') || 'none'}`,
  );
  process.exit(2);
}
const selected = names.length
  ? allProjections.filter((projection) => names.includes(projection.name))
  : allProjections;
const selectedNames = selected.map((projection) => projection.name);

loadDotEnv();
const config = loadConfig();
const logger = pino({ level: 'warn' });
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await migrateToLatest(database.db);
const store = config.eventstoreUrl
  ? await (await import('./eventstore/esdb/esdbEventStore.ts')).createEsdbEventStore(
      config.eventstoreUrl,
    )
  : await createPostgresEventStore(database);

const started = Date.now();
// Takes the selected projections no other process runs; the others stay with their server.
const runner = new ProjectionRunner(database, store, selected, { logger, pageSize: 2000 });
await runner.start();
const before = await runner.status();
const here = new Set(before.filter((status) => status.running).map((status) => status.projection));

/** The identity of a read model's first table: a swap replaces it. */
const tableOid = async (name: string) => {
  const table = selected.find((projection) => projection.name === name)?.tables[0];
  if (!table) return null;
  const { rows } = await sql<{
    oid: string | null;
  }>`SELECT to_regclass(${table})::oid::text AS oid`.execute(database.db);
  return rows[0]?.oid ?? null;
};
const oidsBefore = new Map(
  await Promise.all(selectedNames.map(async (name) => [name, await tableOid(name)] as const)),
);

console.log(
  `Rebuilding ${selectedNames.join(', ')} beside the live tables (${database.kind})` +
    (here.size < selected.length
      ? `; a running server rebuilds ${selectedNames.filter((name) => !here.has(name)).join(', ')}`
      : ''),
);
const progress = setInterval(() => {
  runner
    .adminStatus()
    .then((statuses) => {
      for (const status of statuses) {
        if (!status.rebuild) continue;
        console.log(
          `  ${status.projection}: ${Math.round(status.rebuild.progress * 100)}% (position ${status.rebuild.position.globalPosition})${here.has(status.projection) ? '' : ' (rebuilt by the running server)'}`,
        );
      }
    })
    .catch(() => undefined);
}, 2000);

let failed = false;
await Promise.all(
  selectedNames.map(async (name) => {
    try {
      if (here.has(name)) {
        // Asked for through the database too: if this command is stopped, the next holder rebuilds it.
        await runner.requestRebuild(name);
        await runner.rebuild(name);
      } else {
        await runner.requestRebuild(name);
        // The server that holds it takes the request; done once no rebuild is under way any more.
        for (;;) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          const status = (await runner.adminStatus()).find(
            (candidate) => candidate.projection === name,
          );
          if (status && !status.rebuild) break;
        }
        if ((await tableOid(name)) === oidsBefore.get(name))
          throw new Error('the server did not swap it in (see its log)');
      }
      console.log(`  ${name}: rebuilt and swapped in`);
    } catch (error) {
      failed = true;
      console.error(
        `  ${name}: rebuild failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }),
);
clearInterval(progress);
const head = await store.head();
console.log(
  `${failed ? 'Finished with failures' : 'Rebuilt'} ${selectedNames.length} read model(s) up to position ${head.globalPosition} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
await runner.stop();
await store.close();
await database.close();
if (failed) process.exitCode = 1;
