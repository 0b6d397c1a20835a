import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../../storage/connection.ts';
import type { DB } from '../../storage/schema.ts';
import { PREPARABLE, TRANSACTION_BEGINS, TRANSACTION_ENDS } from './sqlStatements.ts';

/** Connections for the projections and their log reads (each projection runs one page at a time). */
const BACKGROUND_POOL = 6;

// int8 as a decimal string on both drivers (pg already does; PGlite would give number or bigint).
pg.types.setTypeParser(20, (value) => value);

/** At most this many texts prepared on each PostgreSQL request connection. */
const MAX_PREPARED_POSTGRES = 300;

/** PostgreSQL: a pool for requests (through the preparing pool), a smaller one for the background. */
export async function openPostgres(connectionString: string, max: number): Promise<Database> {
  // A stuck session must not hold back pg_snapshot_xmin (and so every projection) for long.
  const sessionOptions = '-c idle_in_transaction_session_timeout=30000 -c lock_timeout=10000';
  const pool = (size: number) => {
    const created = new pg.Pool({
      connectionString,
      max: size,
      options: sessionOptions,
      connectionTimeoutMillis: 10_000,
    });
    created.on('error', () => {
      /* a dropped idle client is replaced on the next checkout */
    });
    // A checked-out client has no pool listener: a backend terminated between two queries of a
    // transaction would crash the process. Its query fails instead, and the pool drops it on release.
    created.on('connect', (client) => client.on('error', () => undefined));
    return created;
  };
  const requests = pool(max);
  const backgroundPool = pool(BACKGROUND_POOL);
  // A prepared statement's name is its text's digest: the same text is one statement on a connection
  // (pg prepares it there on first use), and two texts never share a name.
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name)
      names.set(text, (name = `s${createHash('sha256').update(text).digest('hex').slice(0, 24)}`));
    return name;
  };
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: preparingPool(requests, nameOf) }),
  });
  const background = new Kysely<DB>({ dialect: new PostgresDialect({ pool: backgroundPool }) });
  const listeners: pg.Client[] = [];
  return {
    kind: 'postgres',
    db,
    background,
    async prepared(text, values, options) {
      return (
        await (options?.background ? backgroundPool : requests).query({
          name: nameOf(text),
          text,
          values: values as unknown[],
        })
      ).rows;
    },
    async listen(channel, onNotify) {
      // A dropped listening connection (a restart, a terminated backend) is opened again, so the
      // subscribers do not stay on the slower poll; meanwhile they poll.
      let client: pg.Client | null = null;
      let stopped = false;
      const open = async (): Promise<void> => {
        const next = new pg.Client({ connectionString });
        next.on('notification', (message) => {
          if (message.channel === channel) onNotify(message.payload ?? '');
        });
        next.on('error', () => undefined);
        next.on('end', () => {
          listeners.splice(listeners.indexOf(next) >>> 0, 1);
          if (!stopped)
            setTimeout(() => {
              if (!stopped) open().catch(() => undefined);
            }, 1000).unref();
        });
        await next.connect();
        await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        if (stopped) {
          await next.end().catch(() => undefined);
          return;
        }
        client = next;
        listeners.push(next);
        // Anything appended while no one listened: wake the subscribers once.
        onNotify('');
      };
      await open();
      return async () => {
        stopped = true;
        if (client) await client.end().catch(() => undefined);
      };
    },
    async session() {
      const client = new pg.Client({ connectionString, options: sessionOptions });
      client.on('error', () => undefined);
      await client.connect();
      return {
        query: async (text, params) => (await client.query(text, params as unknown[])).rows,
        release: () => client.end().catch(() => undefined),
      };
    },
    async close() {
      await Promise.all(listeners.splice(0).map((client) => client.end().catch(() => undefined)));
      await Promise.all([db.destroy(), background.destroy()]);
    },
  };
}

/**
 * The request pool as Kysely sees it, with each statement that has parameters and runs outside a
 * transaction (a read, a single write) executed as a named prepared statement: PostgreSQL parses and
 * plans its text once per connection instead of at every request. Statements inside a transaction
 * run as pg runs them: if a read model rebuilt with other columns is swapped in, a prepared statement
 * whose result changes shape fails (0A000), which outside a transaction is simply run again, plain,
 * and that text is not prepared again. At most MAX_PREPARED_POSTGRES distinct texts are prepared (a
 * connection keeps each one's plan); any other text runs unprepared.
 */
function preparingPool(pool: pg.Pool, nameOf: (text: string) => string) {
  const prepared = new Set<string>();
  const unpreparable = new Set<string>();
  const mayPrepare = (text: string) => {
    if (prepared.has(text)) return true;
    if (unpreparable.has(text) || prepared.size >= MAX_PREPARED_POSTGRES) return false;
    prepared.add(text);
    return true;
  };
  const wrappers = new WeakMap<pg.PoolClient, object>();
  const wrap = (client: pg.PoolClient) => {
    let inTransaction = false;
    return {
      // Kysely cancels a running statement through the backend's process id.
      get processID() {
        return (client as unknown as { processID: number }).processID;
      },
      release: (destroy?: boolean | Error) => client.release(destroy),
      query(config: unknown, values?: unknown[]) {
        // A cursor (Kysely's stream) and anything but a plain text goes to pg as it is.
        if (typeof config !== 'string') return client.query(config as never, values);
        if (TRANSACTION_BEGINS.test(config)) inTransaction = true;
        else if (TRANSACTION_ENDS.test(config)) inTransaction = false;
        if (
          inTransaction ||
          !values ||
          values.length === 0 ||
          !PREPARABLE.test(config) ||
          !mayPrepare(config)
        )
          return client.query(config, values);
        return client
          .query({ name: nameOf(config), text: config, values })
          .catch((error: unknown) => {
            if ((error as { code?: string }).code !== '0A000') throw error;
            prepared.delete(config);
            unpreparable.add(config);
            return client.query(config, values);
          });
      },
    };
  };
  return {
    // What Kysely's driver reads of a pg pool besides connect and end.
    Client: (pool as unknown as { Client: unknown }).Client,
    options: pool.options,
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = wrap(client)));
      return wrapper;
    },
    end: () => pool.end(),
  } as unknown as pg.Pool;
}
