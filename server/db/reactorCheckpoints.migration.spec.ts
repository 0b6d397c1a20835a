// @postgres: migration 2026_11_28_1000 moves the reactors' checkpoints into one table
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import t from 'tap';
import { migrateToLatest, migrateUpTo } from '../../migrations/index.ts';
import { listReactorCheckpoints } from '../../storage/checkpoints.ts';
import { openDatabase, type Database } from './database.ts';

/** An empty database: PGlite in memory, or a new database on the PostgreSQL server of DATABASE_URL. */
async function emptyDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const database = await openDatabase({ databaseUrl: null, dataDir: null });
    return { database, drop: () => database.close() };
  }
  const name = `freight_migration_${randomBytes(6).toString('hex')}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
  return {
    database,
    async drop() {
      await database.close();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

t.test(
  'the checkpoints of eld_checkpoints and webhook_checkpoints move to reactor_checkpoints',
  async (t) => {
    const { database, drop } = await emptyDatabase();
    t.teardown(drop);
    await migrateUpTo(database.db, '2026_11_27_1000_webhook_replays');
    await sql`INSERT INTO eld_checkpoints (name, transaction_id, global_position, updated_at)
    VALUES ('pickupCheck', 812, 4711, '2026-11-27T10:00:00Z')`.execute(database.db);
    await sql`INSERT INTO webhook_checkpoints (name, transaction_id, global_position, updated_at)
    VALUES ('webhooks', 815, 4802, '2026-11-27T11:00:00Z')`.execute(database.db);

    t.equal(
      (await migrateToLatest(database.db))[0],
      '2026_11_28_1000_reactor_checkpoints',
      'the next migration',
    );

    const rows = await listReactorCheckpoints(database.db);
    t.same(
      rows.map(({ name, position, updatedAt }) => ({
        name,
        position,
        at: updatedAt.toISOString(),
      })),
      [
        {
          name: 'pickupCheck',
          position: { transactionId: '812', globalPosition: '4711' },
          at: '2026-11-27T10:00:00.000Z',
        },
        {
          name: 'webhooks',
          position: { transactionId: '815', globalPosition: '4802' },
          at: '2026-11-27T11:00:00.000Z',
        },
      ],
      'each reactor carries on from where it stood',
    );
    const { rows: left } = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_name IN ('eld_checkpoints', 'webhook_checkpoints')`.execute(database.db);
    t.same(left, [], 'the two old tables are gone');
  },
);
