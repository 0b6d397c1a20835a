// @postgres: socket.io's PostgreSQL adapter
/**
 * Processes starting at once on a fresh database each create the socket.io adapter's table: the
 * race on PostgreSQL's catalog must not fail any of them (in a CI run it failed one with "relation
 * already exists", and the process's realtime with it).
 */
import t from 'tap';
import { sql } from 'kysely';
import pino from 'pino';
import { Server } from 'socket.io';
import { openTestDatabase } from '../testing/testDatabase.ts';
import { ATTACHMENTS_TABLE, createPostgresAdapter } from './postgresAdapter.ts';

if (!process.env.DATABASE_URL) {
  t.pass('skipped: DATABASE_URL is not set (the adapter is PostgreSQL only)');
} else {
  t.test('eight adapters created at once on a fresh database, ten times over', async (t) => {
    const logger = pino({ level: 'silent' });
    for (let round = 0; round < 10; round++) {
      const database = await openTestDatabase('postgres');
      try {
        const settled = await Promise.allSettled(
          Array.from({ length: 8 }, () => createPostgresAdapter(database.url!, logger)),
        );
        const failed = settled
          .filter((result) => result.status === 'rejected')
          .map((result) => String((result as PromiseRejectedResult).reason));
        t.same(failed, [], `round ${round + 1}: every process got its adapter`);
        // Each as a process uses it: a socket.io server on the adapter, closed before the adapter's pool.
        await Promise.all(
          settled.map(async (result) => {
            if (result.status !== 'fulfilled') return;
            const io = new Server({ adapter: result.value.adapter });
            await io.of('/').adapter.close();
            await result.value.close();
          }),
        );
        const { rows } = await sql<{
          table: string | null;
        }>`SELECT to_regclass(${ATTACHMENTS_TABLE})::text AS table`.execute(database.db);
        t.equal(rows[0]!.table, ATTACHMENTS_TABLE, 'the table is there');
      } finally {
        await database.drop();
      }
    }
  });
}
