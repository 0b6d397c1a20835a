/**
 * `npx tsx server/listLoadOffers.ts`: once, on a log written before loads listed their offers, lists
 * each offer on its load so that accepting or cancelling declines it (see
 * server/commands/listLoadOffers.ts). A server that runs the background work does this by itself at
 * its first start on such a log; this command does it by hand. Safe to run again; on PGlite, stop the
 * server first.
 */
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { createPostgresEventStore } from './eventstore/postgres/postgresEventStore.ts';
import { migrateToLatest } from '../migrations/index.ts';
import { listLoadOffers } from './commands/listLoadOffers.ts';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await migrateToLatest(database.db);
const store = config.eventstoreUrl
  ? await (await import('./eventstore/esdb/esdbEventStore.ts')).createEsdbEventStore(
      config.eventstoreUrl,
    )
  : await createPostgresEventStore(database);
const { listed } = await listLoadOffers(store, new Date().toISOString());
console.log(`${listed} offer(s) listed on their load`);
await store.close();
await database.close();
