// @postgres: the drivers themselves (transactions, prepared statements, sessions, the pool)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { sql } from 'kysely';
import { openDatabase } from './database.ts';

// Kysely's built-in PGlite dialect shares one connection without a lock, so two transactions would
// interleave their statements. Ours serialises them: each sees only its own writes until commit.
t.test('concurrent transactions on PGlite do not interleave', async (t) => {
  const database = await openDatabase({ databaseUrl: null, dataDir: null });
  t.teardown(() => database.close());
  await sql`CREATE TABLE ledger (id serial PRIMARY KEY, tx int NOT NULL, step int NOT NULL)`.execute(
    database.db,
  );
  const trace: string[] = [];
  const work = (tx: number, fail: boolean) =>
    database.db.transaction().execute(async (trx) => {
      for (let step = 0; step < 5; step++) {
        trace.push(`${tx}`);
        await sql`INSERT INTO ledger (tx, step) VALUES (${tx}, ${step})`.execute(trx);
        await new Promise((resolve) => setTimeout(resolve, 2)); // give the other transaction every chance to cut in
      }
      const { rows } = await sql<{
        count: number;
      }>`SELECT count(*)::int AS count FROM ledger WHERE tx <> ${tx}`.execute(trx);
      if (fail) throw new Error('rolled back on purpose');
      return rows[0].count;
    });
  const results = await Promise.allSettled([work(1, false), work(2, true), work(3, false)]);
  t.equal(results[1].status, 'rejected', 'the second transaction failed');
  t.same(trace.join(''), '111112222233333', 'statements of each transaction ran together');
  const { rows } = await sql<{
    tx: number;
    count: number;
  }>`SELECT tx, count(*)::int AS count FROM ledger GROUP BY tx ORDER BY tx`.execute(database.db);
  t.same(
    rows,
    [
      { tx: 1, count: 5 },
      { tx: 3, count: 5 },
    ],
    'the rolled-back transaction left nothing, the others everything',
  );
});

// `new PGlite(undefined, options)` drops its options: a database in memory (every test's) must read
// int8 as the product's folder does, a decimal string, through the raw query and the prepared path.
t.test('PGlite in memory reads int8 as a decimal string, as in a folder', async (t) => {
  const [memory, folder] = [
    await openDatabase({ databaseUrl: null, dataDir: null }),
    await openDatabase({
      databaseUrl: null,
      dataDir: mkdtempSync(join(tmpdir(), 'freight-int8-')),
    }),
  ];
  t.teardown(async () => {
    await memory.close();
    await folder.close();
  });
  for (const [name, database] of [
    ['memory', memory],
    ['folder', folder],
  ] as const) {
    const raw = await sql<{ big: unknown }>`SELECT 9007199254740993::int8 AS big`.execute(
      database.db,
    );
    t.equal(raw.rows[0]!.big, '9007199254740993', `${name}: a literal int8`);
    const prepared = await database.prepared('SELECT $1::int8 AS big', ['42']);
    t.equal(prepared[0].big, '42', `${name}: an int8 through the prepared path`);
  }
});

t.test('a second process cannot open the same PGlite folder', async (t) => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const dir = mkdtempSync(path.join(tmpdir(), 'freight-lock-'));
  writeFileSync(path.join(dir, 'server.pid'), String(process.ppid)); // a live process that is not us
  await t.rejects(openDatabase({ databaseUrl: null, dataDir: dir }), /in use by process/);
});

// The append and the log's read run as prepared statements: planned once per connection, the same rows.
t.test(
  'prepared statements: the same answers, planned once per connection on PostgreSQL',
  async (t) => {
    const url = process.env.DATABASE_URL ?? null;
    const database = await openDatabase({ databaseUrl: url, dataDir: null, poolSize: 1 });
    t.teardown(() => database.close());
    const table = `prepared_${process.pid}_${Date.now()}`;
    await sql`CREATE TABLE ${sql.table(table)} (id int PRIMARY KEY, name text NOT NULL)`.execute(
      database.db,
    );
    t.teardown(() =>
      sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(database.db).then(() => undefined),
    );
    const insert = `INSERT INTO ${table} (id, name) VALUES ($1, $2) RETURNING id, name`;
    t.same(await database.prepared(insert, [1, 'one']), [{ id: 1, name: 'one' }]);
    t.same(await database.prepared(insert, [2, 'two']), [{ id: 2, name: 'two' }]);
    await t.rejects(
      database.prepared(insert, [2, 'again']),
      /duplicate key/,
      'a failing execution answers its error',
    );
    const select = `SELECT * FROM ${table} WHERE id >= $1 ORDER BY id`;
    t.same(await database.prepared(select, [1], { background: true }), [
      { id: 1, name: 'one' },
      { id: 2, name: 'two' },
    ]);
    // The table changes under the statement: PostgreSQL plans it again, nothing stale comes back.
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN note text NOT NULL DEFAULT 'n'`.execute(
      database.db,
    );
    t.same(await database.prepared(insert, [3, 'three']), [{ id: 3, name: 'three' }]);
    if (database.kind === 'postgres') {
      // One connection in the pool: the statement prepared on it is there once, whatever the executions.
      const { rows } = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = ${insert}`.execute(
        database.db,
      );
      t.same(rows, [{ n: 1 }], 'the insert is prepared once on the connection');
    }
  },
);

// Kysely's reads and single writes on the request pool run prepared; a transaction's statements do not.
t.test(
  'PostgreSQL request pool: statements outside a transaction prepared once, inside one plain, a changed shape planned afresh',
  { skip: process.env.DATABASE_URL ? false : 'PostgreSQL only (DATABASE_URL)' },
  async (t) => {
    const database = await openDatabase({
      databaseUrl: process.env.DATABASE_URL!,
      dataDir: null,
      poolSize: 1,
    });
    t.teardown(() => database.close());
    const table = `preparing_${process.pid}_${Date.now()}`;
    await sql`CREATE TABLE ${sql.table(table)} (id int PRIMARY KEY, name text NOT NULL)`.execute(
      database.db,
    );
    t.teardown(() =>
      sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(database.db).then(() => undefined),
    );
    const db =
      database.db.withTables<Record<string, { id: number; name: string; note?: string }>>();
    const preparedCount = async (fragment: string) =>
      (
        await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements
    WHERE statement LIKE ${`%${fragment}%`} AND statement NOT LIKE '%pg_prepared_statements%'`.execute(
          database.db,
        )
      ).rows[0]!.n;

    for (const [id, name] of [
      [1, 'one'],
      [2, 'two'],
      [3, 'three'],
    ] as const)
      await db.insertInto(table).values({ id, name }).execute();
    for (let run = 0; run < 3; run++)
      t.same(
        await db
          .selectFrom(table)
          .select(['id', 'name'])
          .where('id', '>=', 2)
          .orderBy('id')
          .execute(),
        [
          { id: 2, name: 'two' },
          { id: 3, name: 'three' },
        ],
      );
    t.equal(
      await preparedCount(`insert into "${table}"`),
      1,
      'the insert is prepared once on the connection',
    );
    t.equal(await preparedCount(`select "id", "name" from "${table}"`), 1, 'so is the read');
    const duplicate = await db
      .insertInto(table)
      .values({ id: 1, name: 'again' })
      .execute()
      .then(
        () => null,
        (error: { code?: string }) => error,
      );
    t.equal(duplicate?.code, '23505', 'a failing prepared write keeps its error');

    await database.db.transaction().execute(async (trx) => {
      const tx = trx.withTables<Record<string, { id: number; name: string }>>();
      await tx.updateTable(table).set({ name: 'uno' }).where('id', '=', 1).execute();
      await sql`SAVEPOINT inner_change`.execute(trx);
      await tx.updateTable(table).set({ name: 'eins' }).where('id', '=', 1).execute();
      await sql`ROLLBACK TO SAVEPOINT inner_change`.execute(trx);
      await tx.updateTable(table).set({ name: 'un' }).where('id', '=', 2).execute();
    });
    t.equal(
      await preparedCount(`update "${table}"`),
      0,
      'statements inside a transaction (after a savepoint rolled back too) are not prepared',
    );
    t.same(
      await db
        .selectFrom(table)
        .select(['id', 'name'])
        .where('id', '>=', 1)
        .orderBy('id')
        .execute(),
      [
        { id: 1, name: 'uno' },
        { id: 2, name: 'un' },
        { id: 3, name: 'three' },
      ],
      'the transaction committed what it kept',
    );

    // The table changes shape under a prepared SELECT *: the next execution answers the new column.
    const all = () => db.selectFrom(table).selectAll().where('id', '=', 3).execute();
    t.same(await all(), [{ id: 3, name: 'three' }]);
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN note text NOT NULL DEFAULT 'n'`.execute(
      database.db,
    );
    t.same(await all(), [{ id: 3, name: 'three', note: 'n' }], 'planned again with the new column');
    t.same(await all(), [{ id: 3, name: 'three', note: 'n' }], 'and again after');
  },
);

// PGlite parses and plans every statement in its own query: the connection prepares each text once.
t.test(
  'PGlite prepares the statements with parameters once, and plans one again when its table changes shape',
  async (t) => {
    const database = await openDatabase({ databaseUrl: null, dataDir: null });
    t.teardown(() => database.close());
    await sql`CREATE TABLE shapes (id int PRIMARY KEY, name text NOT NULL)`.execute(database.db);
    for (const id of [1, 2, 3])
      await sql`INSERT INTO shapes (id, name) VALUES (${id}, ${`n${id}`})`.execute(database.db);
    const all = () =>
      sql<Record<string, unknown>>`SELECT * FROM shapes WHERE id >= ${1} ORDER BY id`.execute(
        database.db,
      );
    t.same((await all()).rows, [
      { id: 1, name: 'n1' },
      { id: 2, name: 'n2' },
      { id: 3, name: 'n3' },
    ]);
    const prepared = async () =>
      (
        await sql<{
          statement: string;
        }>`SELECT statement FROM pg_prepared_statements WHERE statement LIKE ${'%shapes%'} ORDER BY statement`.execute(
          database.db,
        )
      ).rows.map((row) => row.statement);
    t.same(
      await prepared(),
      [
        'INSERT INTO shapes (id, name) VALUES ($1, $2)',
        'SELECT * FROM shapes WHERE id >= $1 ORDER BY id',
      ],
      'each text prepared once, whatever its executions',
    );
    // A column more: the prepared SELECT * would answer the old row type; it is planned again instead.
    await sql`ALTER TABLE shapes ADD COLUMN note text NOT NULL DEFAULT 'x'`.execute(database.db);
    t.same((await all()).rows[0], { id: 1, name: 'n1', note: 'x' }, 'the new column is there');
    const result = await sql`UPDATE shapes SET name = ${'renamed'} WHERE id <= ${2}`.execute(
      database.db,
    );
    t.equal(result.numAffectedRows, 2n, 'the rows a write touched are counted');
    await t.rejects(
      sql`INSERT INTO shapes (id, name) VALUES (${1}, ${'again'})`.execute(database.db),
      { code: '23505' },
      'a constraint error keeps its code',
    );
    t.same(
      (
        await sql`SELECT count(*)::int AS n FROM shapes WHERE name = ${'renamed'}`.execute(
          database.db,
        )
      ).rows,
      [{ n: 2 }],
      'the connection works on after an error',
    );
  },
);
