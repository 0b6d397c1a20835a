import t from 'tap';
import { sql } from 'kysely';
import { openDatabase } from './database.ts';

// Kysely's built-in PGlite dialect shares one connection without a lock, so two transactions would
// interleave their statements. Ours serialises them: each sees only its own writes until commit.
t.test('concurrent transactions on PGlite do not interleave', async (t) => {
  const database = await openDatabase({ databaseUrl: null, dataDir: null });
  t.teardown(() => database.close());
  await sql`CREATE TABLE ledger (id serial PRIMARY KEY, tx int NOT NULL, step int NOT NULL)`.execute(database.db);
  const trace: string[] = [];
  const work = (tx: number, fail: boolean) => database.db.transaction().execute(async (trx) => {
    for (let step = 0; step < 5; step++) {
      trace.push(`${tx}`);
      await sql`INSERT INTO ledger (tx, step) VALUES (${tx}, ${step})`.execute(trx);
      await new Promise((resolve) => setTimeout(resolve, 2)); // give the other transaction every chance to cut in
    }
    const { rows } = await sql<{ count: number }>`SELECT count(*)::int AS count FROM ledger WHERE tx <> ${tx}`.execute(trx);
    if (fail) throw new Error('rolled back on purpose');
    return rows[0].count;
  });
  const results = await Promise.allSettled([work(1, false), work(2, true), work(3, false)]);
  t.equal(results[1].status, 'rejected', 'the second transaction failed');
  t.same(trace.join(''), '111112222233333', 'statements of each transaction ran together');
  const { rows } = await sql<{ tx: number; count: number }>`SELECT tx, count(*)::int AS count FROM ledger GROUP BY tx ORDER BY tx`.execute(database.db);
  t.same(rows, [{ tx: 1, count: 5 }, { tx: 3, count: 5 }], 'the rolled-back transaction left nothing, the others everything');
});

t.test('a second process cannot open the same PGlite folder', async (t) => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const dir = mkdtempSync(path.join(tmpdir(), 'freight-lock-'));
  writeFileSync(path.join(dir, 'server.pid'), String(process.ppid)); // a live process that is not us
  await t.rejects(openDatabase({ databaseUrl: null, dataDir: dir }), /in use by process/);
});
