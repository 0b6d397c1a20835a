/**
 * Several server processes on one PostgreSQL: the socket.io PostgreSQL adapter carries an emit made
 * in one process to the sockets of every other (NOTIFY on a channel per namespace, a table for
 * payloads over NOTIFY's 8000 bytes). It gets a small pool of its own: one connection LISTENs for
 * good, the others NOTIFY, and none of them queues behind the app's queries.
 */
import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import type { Logger } from 'pino';

export const ATTACHMENTS_TABLE = 'socket_io_attachments';

export type PostgresAdapterHandle = {
  adapter: ReturnType<typeof createAdapter>;
  close(): Promise<void>;
};

export async function createPostgresAdapter(
  databaseUrl: string,
  logger: Pick<Logger, 'warn'>,
): Promise<PostgresAdapterHandle> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 4,
    connectionTimeoutMillis: 10_000,
  });
  pool.on('error', (err) => logger.warn({ err }, 'socket.io adapter connection dropped'));
  // The adapter's own table (its README's schema), kept out of the migrations: it holds nothing but
  // large emits in flight, for at most the cleanup interval, and belongs to the adapter, not the model.
  // Processes starting at once on a fresh database race on the catalog even with IF NOT EXISTS (the
  // loser hears of the table, its type or its sequence already existing): one at a time, under a
  // transaction-scoped advisory lock, each finds the table or creates it.
  const client = await pool.connect().catch(async (err: unknown) => {
    await pool.end().catch(() => undefined);
    throw err;
  });
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [ATTACHMENTS_TABLE]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${ATTACHMENTS_TABLE} (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)`,
    );
    await client.query('COMMIT');
    client.release();
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release(true);
    await pool.end().catch(() => undefined);
    throw err;
  }
  // The adapter checks out its LISTEN connection on its own schedule and retries every ~2 s when
  // that fails. Once closed, no connection may stay checked out (pool.end would wait for it
  // forever), including one the adapter got just before and had not stored yet (its close only
  // hands back the one it stored), and no checkout may fail (the retry timer would keep the
  // process alive): a late one is handed back and the adapter is left waiting for good.
  let closed = false;
  const never = () => new Promise<never>(() => undefined);
  const checkouts = new Set<Promise<unknown>>();
  const handedOut = new Set<pg.PoolClient>();
  const gate = {
    query: (...args: unknown[]) => (pool.query as (...a: unknown[]) => Promise<unknown>)(...args),
    connect: () => {
      if (closed) return never();
      const checkout = pool.connect().then((client) => {
        if (closed) {
          client.release(true);
          return never();
        }
        // A checked-out client has no pool listener: a terminated backend would crash the process.
        // The adapter reconnects on the 'end' that follows.
        client.on('error', (err) => logger.warn({ err }, 'socket.io adapter connection dropped'));
        const release = client.release.bind(client);
        client.release = ((destroy?: boolean | Error) => {
          if (!handedOut.delete(client)) return;
          release(destroy);
        }) as typeof client.release;
        handedOut.add(client);
        return client;
      });
      checkouts.add(checkout);
      void checkout.finally(() => checkouts.delete(checkout)).catch(() => undefined);
      return checkout;
    },
  };
  const adapter = createAdapter(gate as unknown as pg.Pool, {
    tableName: ATTACHMENTS_TABLE,
    errorHandler: (err) => logger.warn({ err }, 'socket.io adapter error'),
  });
  return {
    adapter,
    async close() {
      closed = true;
      // A checkout in flight settles (or is handed back) before the pool ends.
      await Promise.race([
        Promise.allSettled([...checkouts]),
        new Promise((resolve) => setTimeout(resolve, 100)),
      ]);
      for (const client of [...handedOut]) {
        client.removeAllListeners('end'); // the adapter's: it would schedule a reconnection
        client.release(true);
      }
      await pool.end().catch(() => undefined);
    },
  };
}
