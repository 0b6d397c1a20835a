import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest } from '../../migrations/index.ts';
import { openDatabase, type Database } from '../db/database.ts';

export type TestDatabase = Database & { url: string | null; drop(): Promise<void> };

/**
 * A fresh, migrated database for one test file: a new database on the PostgreSQL server of
 * DATABASE_URL when `backend` is 'postgres', else PGlite in memory.
 */
export async function openTestDatabase(backend: 'pglite' | 'postgres' = process.env.DATABASE_URL ? 'postgres' : 'pglite'): Promise<TestDatabase> {
  if (backend === 'pglite') {
    const database = await openDatabase({ databaseUrl: null, dataDir: null });
    await migrateToLatest(database.db);
    return { ...database, url: null, drop: () => database.close() };
  }
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL is not set');
  const name = `freight_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 24 });
  await migrateToLatest(database.db);
  return {
    ...database,
    url: url.toString(),
    async drop() {
      await database.close();
      await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try { return await work(client); } finally { await client.end(); }
}

/** The backends the event store contract runs on here: PGlite always, PostgreSQL when configured. */
export const sqlBackends = (): ('pglite' | 'postgres')[] => (process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']);
