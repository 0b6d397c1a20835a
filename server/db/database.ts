import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  parse as pgliteResults,
  PGlite,
  protocol,
  types,
  type Results,
} from '@electric-sql/pglite';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import type { Database, SessionConnection } from '../../storage/connection.ts';
import type { DB } from '../../storage/schema.ts';

export type { Database, SessionConnection };

/** Connections for the projections and their log reads (each projection runs one page at a time). */
const BACKGROUND_POOL = 6;

// int8 as a decimal string on both drivers (pg already does; PGlite would give number or bigint).
pg.types.setTypeParser(20, (value) => value);

/**
 * PostgreSQL at `databaseUrl`, else PGlite in `dataDir` (in memory when null). `pgliteFrom`, for a
 * PGlite in memory only, is a data folder's tarball (PGlite's `dumpDataDir`) to start from instead
 * of an empty cluster: the tests' migrated template (server/testing/testDatabase.ts).
 */
export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir?: string | null;
  poolSize?: number;
  pgliteFrom?: Blob;
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 20);
  return openPglite(options.dataDir ?? null, options.dataDir ? undefined : options.pgliteFrom);
}

async function openPostgres(connectionString: string, max: number): Promise<Database> {
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

/** PGlite lets one process at a time open a data folder; a second one would corrupt it. */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'server.pid');
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, 'utf8'));
    let alive = false;
    try {
      alive = pid > 0 && pid !== process.pid && process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (alive)
      throw new Error(
        `The data folder ${dataDir} is in use by process ${pid}. Stop it first: the embedded database serves one process (set DATABASE_URL for several).`,
      );
  }
  writeFileSync(lockFile, String(process.pid));
  return () => {
    try {
      if (readFileSync(lockFile, 'utf8') === String(process.pid)) unlinkSync(lockFile);
    } catch {
      /* already gone */
    }
  };
}

async function openPglite(dataDir: string | null, from?: Blob): Promise<Database> {
  const unlock = dataDir ? lockDataDir(dataDir) : () => undefined;
  // One options object: PGlite reads its second argument only when the first is a folder's name, so
  // `new PGlite(undefined, options)` (in memory) would drop the int8 parser and the tarball.
  const pglite = new PGlite({
    ...(dataDir ? { dataDir } : {}),
    parsers: { [types.INT8]: (value: string) => value },
    ...(from ? { loadDataDir: from } : {}),
  });
  await pglite.waitReady;
  const runPrepared = preparedStatements(pglite);
  // Every statement with parameters that Kysely runs goes through the prepared path: the text is
  // planned once. Statements without parameters (BEGIN, COMMIT, DDL) and texts beyond the cap run
  // as PGlite's query runs them.
  // BEGIN, COMMIT and ROLLBACK (Kysely's exact texts) go as one simple-protocol message, half the
  // cost of PGlite's query (parse, describe, bind, execute) for a statement with nothing to plan.
  const client = {
    query: (text: string, values: unknown[]) =>
      values.length > 0 && PREPARABLE.test(text)
        ? runPrepared(text, values)
        : values.length === 0 && TRANSACTION_CONTROL.test(text)
          ? pglite.exec(text).then((results) => results[results.length - 1]!)
          : pglite.query(text, values),
    close: () => pglite.close(),
  };
  const db = new Kysely<DB>({ dialect: new PGliteDialect(client as unknown as PGlite) });
  return {
    kind: 'pglite',
    db,
    background: db,
    // Holding Kysely's one connection, so it never lands inside another caller's open transaction.
    prepared: (text, values) =>
      db.connection().execute(async () => (await runPrepared(text, values)).rows as any[]),
    async listen(channel, onNotify) {
      const unsubscribe = await pglite.listen(channel, onNotify);
      return async () => {
        await unsubscribe();
      };
    },
    async session() {
      // One process owns a PGlite folder, so its single connection is the session.
      return {
        // Through Kysely's queue, so it never lands inside another caller's open transaction.
        query: async (text, params) =>
          (await db.executeQuery<any>(CompiledQuery.raw(text, params ?? []))).rows,
        release: async () => undefined,
      };
    },
    async close() {
      await db.destroy();
      unlock();
    },
  };
}

/**
 * Named prepared statements on PGlite, which has no API for them: its `query` parses, describes and
 * plans every statement anew. Here a text is parsed and described once (its parameters' types kept),
 * then each call only binds, describes the portal and executes, through PGlite's own protocol
 * messages and result parser, under PGlite's lock like its `query`.
 */
function preparedStatements(pglite: PGlite) {
  const { serialize } = protocol;
  const statements = new Map<string, { name: string; types: number[] }>();
  let named = 0;
  const exchange = (message: Uint8Array) => pglite.execProtocolStream(message, { syncToFs: false });
  const run = (text: string, values: readonly unknown[]) =>
    pglite._runExclusiveQuery(async () => {
      let statement = statements.get(text);
      if (!statement) {
        // A new name for every try: a parse that failed half-way leaves no name behind to collide with.
        const name = `p${++named}`;
        try {
          await exchange(serialize.parse({ name, text }));
          statement = {
            name,
            types: pgliteResults.parseDescribeStatementResults(
              await exchange(serialize.describe({ type: 'S', name })),
            ),
          };
        } finally {
          await exchange(serialize.sync());
        }
        statements.set(text, statement);
      }
      const { name, types: parameterTypes } = statement;
      const serialized = values.map((value, index) => {
        if (value === null || value === undefined) return null;
        const serializer = pglite.serializers[parameterTypes[index]!];
        return serializer ? serializer(value) : String(value);
      });
      // Bind, describe, execute and sync in one exchange: PGlite runs the backend once over the four.
      // After an error the backend skips to the sync, so the connection is ready again either way.
      const messages = await exchange(
        concatBytes([
          serialize.bind({ statement: name, values: serialized }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
      );
      await pglite.syncToFs();
      return pgliteResults.parseResults(messages, pglite.parsers)[0] ?? { rows: [], fields: [] };
    });
  return async (text: string, values: readonly unknown[]): Promise<Results> => {
    // Distinct texts are few (the code's statements); a flood of one-off texts runs unprepared.
    if (!statements.has(text) && statements.size >= MAX_PREPARED)
      return pglite.query(text, [...values]);
    try {
      return await run(text, values);
    } catch (error) {
      // The statement's table changed shape under it (a rebuilt read model swapped in): plan it afresh.
      if ((error as { code?: string }).code !== '0A000') throw error;
      statements.delete(text);
      return run(text, values);
    }
  };
}

const concatBytes = (parts: Uint8Array[]) => {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
};

/** Statements worth planning once: reads and writes. */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
/** At most this many prepared texts on the PGlite connection. */
const MAX_PREPARED = 2000;
/** At most this many texts prepared on each PostgreSQL request connection. */
const MAX_PREPARED_POSTGRES = 300;
/** Kysely's own transaction statements on PGlite. */
const TRANSACTION_CONTROL = /^(begin|commit|rollback)$/;
const TRANSACTION_BEGINS = /^\s*(begin|start\s+transaction)\b/i;
/** COMMIT, ROLLBACK (not ROLLBACK TO a savepoint), END, ABORT. */
const TRANSACTION_ENDS = /^\s*(commit|end|abort|rollback(?!\s+to\b))\b/i;
