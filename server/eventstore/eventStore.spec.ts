// @postgres: the event store's contract: appends, expected revisions and reads in SQL
import t from 'tap';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openTestDatabase, sqlBackends } from '../testing/testDatabase.ts';
import { eventStoreContract, meta } from './eventStore.contract.ts';
import { createPostgresEventStore } from './postgres/postgresEventStore.ts';

for (const backend of sqlBackends()) {
  await t.test(`event store contract on ${backend}`, async (t) => {
    let url: string | null = null;
    await eventStoreContract(
      t,
      async () => {
        const database = await openTestDatabase(backend);
        url = database.url;
        const store = await createPostgresEventStore(database);
        return {
          store,
          close: async () => {
            await store.close();
            await database.drop();
          },
        };
      },
      backend === 'postgres'
        ? {
            // Another process's append whose transaction began first and commits last.
            holdOpenAppend: async (_store, streamId) => {
              const client = new pg.Client({ connectionString: url! });
              await client.connect();
              await client.query('BEGIN');
              await client.query(`INSERT INTO streams (stream_id, revision) VALUES ($1, 0)`, [
                streamId,
              ]);
              await client.query(
                `INSERT INTO events (stream_id, stream_revision, event_id, type, data, metadata) VALUES ($1, 0, $2, 'Counted', '{"n":1}', $3)`,
                [streamId, randomUUID(), JSON.stringify(meta())],
              );
              return {
                commit: async () => {
                  await client.query('COMMIT');
                  await client.end();
                },
              };
            },
          }
        : {},
    );
  });
}

await t.test(
  'EventStoreDB contract',
  {
    skip: process.env.EVENTSTORE_URL
      ? false
      : 'EVENTSTORE_URL is not set: no EventStoreDB server to run the contract against',
  },
  async (t) => {
    const { createEsdbEventStore } = await import('./esdb/esdbEventStore.ts');
    await eventStoreContract(t, async () => {
      const store = await createEsdbEventStore(process.env.EVENTSTORE_URL!, {
        streamPrefix: `contract${randomUUID().replaceAll('-', '')}`,
      });
      return { store, close: () => store.close() };
    });
  },
);
