import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { CompiledQuery, Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { Database } from '../../storage/connection.ts';
import type { DB } from '../../storage/schema.ts';
import { preparedStatements } from './pglitePrepared.ts';
import { PREPARABLE, TRANSACTION_CONTROL } from './sqlStatements.ts';

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

/**
 * A cluster in memory keeps every page in the process already, so PostgreSQL's default 128 MB
 * buffer pool (and shared memory sized for 100 connections) only copies them: a small pool starts
 * in half the time (0.7 s instead of 1.5 s on the tests' migrated template, most of it zeroing
 * shared memory) and takes 200 MB less. The lock table keeps its default size (locks per
 * transaction times connections). A folder on disk keeps PostgreSQL's defaults.
 */
const IN_MEMORY_START = [
  ...PGlite.defaultStartParams,
  ...['-c', 'shared_buffers=16MB', '-c', 'max_connections=10'],
  ...['-c', 'max_locks_per_transaction=640'],
];

export async function openPglite(dataDir: string | null, from?: Blob): Promise<Database> {
  const unlock = dataDir ? lockDataDir(dataDir) : () => undefined;
  // One options object: PGlite reads its second argument only when the first is a folder's name, so
  // `new PGlite(undefined, options)` (in memory) would drop the int8 parser and the tarball.
  const pglite = new PGlite({
    ...(dataDir ? { dataDir } : { startParams: IN_MEMORY_START }),
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
      db.connection().execute(async () => (await runPrepared(text, values)).rows as never[]),
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
          (await db.executeQuery<never>(CompiledQuery.raw(text, params ?? []))).rows,
        release: async () => undefined,
      };
    },
    async close() {
      await db.destroy();
      unlock();
    },
  };
}
