import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { migrateToLatest } from '../../migrations/index.ts';
import { openDatabase, type Database } from '../db/database.ts';

export type TestDatabase = Database & { url: string | null; drop(): Promise<void> };

/**
 * A fresh, migrated database for one test file: a new database on the PostgreSQL server of
 * DATABASE_URL when `backend` is 'postgres', else PGlite in memory. Both are copies of a template
 * migrated once for the current migrations (`migratedPglite`, `migratedTemplateDatabase`), so a test
 * pays for a copy, not for initdb and every migration; `migrateToLatest` still runs and finds nothing to do.
 */
export async function openTestDatabase(
  backend: 'pglite' | 'postgres' = process.env.DATABASE_URL ? 'postgres' : 'pglite',
): Promise<TestDatabase> {
  if (backend === 'pglite') {
    const database = await openDatabase({
      databaseUrl: null,
      dataDir: null,
      pgliteFrom: await migratedPglite(),
    });
    await migrateToLatest(database.db);
    return { ...database, url: null, drop: () => database.close() };
  }
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL is not set');
  const name = `freight_test_${randomBytes(6).toString('hex')}`;
  try {
    const template = await migratedTemplateDatabase(adminUrl);
    await withAdmin(adminUrl, (client) => createFromTemplate(client, name, template));
  } catch (error) {
    // Another run on the same server (another checkout, other migrations) replaced the template
    // this process had made: make it again, once.
    if ((error as { code?: string }).code !== '3D000') throw error;
    pgTemplate = undefined;
    const template = await migratedTemplateDatabase(adminUrl);
    await withAdmin(adminUrl, (client) => createFromTemplate(client, name, template));
  }
  const url = withDatabase(adminUrl, name);
  const database = await openDatabase({ databaseUrl: url, poolSize: 24 });
  await migrateToLatest(database.db);
  return {
    ...database,
    url,
    async drop() {
      await database.close();
      await withAdmin(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  };
}

/** The backends the event store contract runs on here: PGlite always, PostgreSQL when configured. */
export const sqlBackends = (): ('pglite' | 'postgres')[] =>
  process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * What identifies the migrated schema: the text of every migration file, and the PGlite release
 * (its tarball's format). A changed or added migration, or another PGlite, makes a new template; an
 * unchanged set reuses the one already made (by this process or another). Read once a process by
 * each template's own memo below.
 */
function migrationsKey(): string {
  const folder = new URL('../../migrations/', import.meta.url).pathname;
  const hash = createHash('sha256');
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith('.ts'))
    .sort())
    hash.update(file).update(readFileSync(join(folder, file)));
  const pglitePackage = join(
    dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')),
    '..',
    'package.json',
  );
  hash.update((JSON.parse(readFileSync(pglitePackage, 'utf8')) as { version: string }).version);
  return hash.digest('hex').slice(0, 16);
}

let pgliteTemplate: Promise<Blob> | undefined;

/**
 * The template's bytes, handed whole to each PGlite that starts from them. PGlite reads its
 * `loadDataDir` with `arrayBuffer()`, which a Blob made from 40 MB answers by copying them in small
 * chunks (0.4 s of CPU each time); this one answers with the bytes it holds, which PGlite only reads.
 */
class TarballBlob extends Blob {
  readonly #bytes: ArrayBuffer;
  constructor(bytes: Buffer) {
    super([]);
    // A large file's Buffer is its whole ArrayBuffer: no copy then.
    this.#bytes = (
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
        ? bytes.buffer
        : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
    ) as ArrayBuffer;
  }
  override get size() {
    return this.#bytes.byteLength;
  }
  override arrayBuffer() {
    return Promise.resolve(this.#bytes);
  }
}

/**
 * A PGlite data folder after every migration, as PGlite's uncompressed tarball in the system's temp
 * folder (about 40 MB), made by the first test process that needs it and read by the others: loading
 * it takes under a second where a fresh PGlite's initdb and the migrations take about three.
 * Concurrent makers each write their own file and rename it into place, so a reader never sees half;
 * the maker removes the templates of other migration sets left untouched for a day.
 */
export function migratedPglite(): Promise<Blob> {
  return (pgliteTemplate ??= (async () => {
    const file = join(tmpdir(), `freight-pglite-${migrationsKey()}.tar`);
    if (existsSync(file)) return new TarballBlob(readFileSync(file));
    const pglite = new PGlite();
    const db = new Kysely<unknown>({ dialect: new PGliteDialect(pglite) });
    await migrateToLatest(db);
    const dump = await pglite.dumpDataDir('none');
    await db.destroy();
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    const bytes = Buffer.from(await dump.arrayBuffer());
    writeFileSync(partial, bytes);
    renameSync(partial, file);
    // Templates of other migration sets untouched for a day are given back (40 MB each); younger
    // ones may belong to another checkout on this machine that is testing now.
    for (const name of readdirSync(tmpdir())) {
      const other = join(tmpdir(), name);
      if (
        /^freight-pglite-[0-9a-f]{16}\.tar$/.test(name) &&
        other !== file &&
        Date.now() - (statSync(other, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) >
          86_400_000
      )
        rmSync(other, { force: true });
    }
    return new TarballBlob(bytes);
  })());
}

let pgTemplate: Promise<string> | undefined;

/**
 * On the PostgreSQL server of `adminUrl`, a database migrated once for the current migrations and
 * marked as a template, for `CREATE DATABASE ... TEMPLATE`. One process makes it under an advisory
 * lock while the others wait; one left half-made by a killed process (not yet marked) is made again,
 * and templates of other migration sets are dropped once a day old.
 */
function migratedTemplateDatabase(adminUrl: string): Promise<string> {
  return (pgTemplate ??= withAdmin(adminUrl, async (client) => {
    const name = `freight_template_${migrationsKey()}`;
    await client.query('SELECT pg_advisory_lock(hashtext($1))', ['freight_test_template']);
    try {
      const found = await client.query<{ datistemplate: boolean }>(
        'SELECT datistemplate FROM pg_database WHERE datname = $1',
        [name],
      );
      if (found.rows[0]?.datistemplate) return name;
      // Templates of other migration sets made over a day ago (their comment holds when): a run of
      // another checkout on the same server may still be using a newer one.
      const stale = await client.query<{ datname: string }>(
        `SELECT datname FROM (
           SELECT datname, shobj_description(oid, 'pg_database') AS note FROM pg_database
            WHERE datname LIKE 'freight\\_template\\_%') AS templates
          WHERE CASE WHEN note ~ '^made \\d{4}-' THEN substr(note, 6)::timestamptz < now() - interval '1 day'
                     ELSE true END`,
      );
      for (const { datname } of stale.rows) {
        await client.query(`ALTER DATABASE ${datname} IS_TEMPLATE false`);
        await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      }
      await client.query(`CREATE DATABASE ${name}`);
      await client.query(`COMMENT ON DATABASE ${name} IS 'made ${new Date().toISOString()}'`);
      const database = await openDatabase({
        databaseUrl: withDatabase(adminUrl, name),
        poolSize: 1,
      });
      try {
        await migrateToLatest(database.db);
      } finally {
        await database.close();
      }
      await client.query(`ALTER DATABASE ${name} IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      return name;
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', ['freight_test_template']);
    }
  }));
}

/** A copy of the template; a copy fails while another session is still inside the template, so that is retried briefly. */
async function createFromTemplate(
  client: pg.Client,
  name: string,
  template: string,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      return;
    } catch (error) {
      if (attempt >= 20 || !/being accessed by other users/.test(String((error as Error).message)))
        throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

const withDatabase = (url: string, name: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
