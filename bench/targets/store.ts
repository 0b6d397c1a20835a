/** T4, T4c: the event store's append against raw INSERTs with the same uniqueness. */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { compare, fmt, pool, quick, report } from '../lib.ts';
import { type Backend, plainStatement, startBenchApp } from '../setup.ts';

const metadata = () => ({
  userId: null,
  organizationId: null,
  correlationId: null,
  causationId: null,
  at: new Date().toISOString(),
});
const event = (n: number) => ({ type: 'BenchEvent', data: { n, text: 'x'.repeat(200) } });

export async function t4(backend: Backend) {
  const bench = await startBenchApp(backend, { runProjections: false });
  const { platform } = bench;
  // The baseline's own table, outside the product's schema.
  const db = bench.db.withTables<{
    bench_raw_events: {
      stream_id: string;
      revision: number;
      type: string;
      data: string;
      metadata: string;
    };
  }>();
  const { store } = platform;
  await sql`CREATE TABLE bench_raw_events (stream_id text NOT NULL, revision int NOT NULL, type text NOT NULL, data jsonb NOT NULL, metadata jsonb NOT NULL, UNIQUE (stream_id, revision))`.execute(
    db,
  );
  const total = quick ? 1_000 : 4_000;
  try {
    const single = await compare(
      async () => ({
        ops: await pool(total, 16, async (i) => {
          await sql`${plainStatement}INSERT INTO bench_raw_events VALUES (${randomUUID()}, 0, 'BenchEvent', ${JSON.stringify(event(i).data)}::jsonb, ${JSON.stringify(metadata())}::jsonb)`.execute(
            db,
          );
        }),
      }),
      async () => ({
        ops: await pool(total, 16, (i) =>
          store.append(`bench-${randomUUID()}`, [event(i)], {
            expectedRevision: 'no_stream',
            metadata: metadata(),
          }),
        ),
      }),
    );
    report(
      'T4',
      `append, new stream each, 16 concurrent (${backend})`,
      single.ours.ops / single.baseline.ops,
      0.6,
      `ours ${fmt(single.ours.ops)} appends/s; raw unique insert ${fmt(single.baseline.ops)} rows/s`,
    );

    const batches = quick ? 200 : 800;
    const ten = await compare(
      async () => ({
        ops:
          (await pool(batches, 16, async (i) => {
            const stream = randomUUID();
            await db.transaction().execute(async (trx) => {
              await sql`${plainStatement}INSERT INTO bench_raw_events (stream_id, revision, type, data, metadata) VALUES ${sql.join(Array.from({ length: 10 }, (_, r) => sql`(${stream}, ${r}, 'BenchEvent', ${JSON.stringify(event(i).data)}::jsonb, ${JSON.stringify(metadata())}::jsonb)`))}`.execute(
                trx,
              );
            });
          })) * 10,
      }),
      async () => ({
        ops:
          (await pool(batches, 16, (i) =>
            store.append(
              `bench-${randomUUID()}`,
              Array.from({ length: 10 }, () => event(i)),
              { expectedRevision: 'no_stream', metadata: metadata() },
            ),
          )) * 10,
      }),
    );
    report(
      'T4b',
      `10-event appends (${backend})`,
      ten.ours.ops / ten.baseline.ops,
      0.9,
      `ours ${fmt(ten.ours.ops)} events/s; raw 10-row transactions ${fmt(ten.baseline.ops)} rows/s`,
    );

    // T4c: 16 writers on one stream, each reading the revision and appending with it, retrying on conflict.
    const appends = quick ? 200 : 600;
    let rawRetries = 0;
    const contended = await compare(
      async () => {
        const stream = randomUUID();
        let done = 0;
        const ops = await pool(appends, 16, async () => {
          for (;;) {
            const { rows } = await sql<{
              next: number;
            }>`${plainStatement}SELECT coalesce(max(revision) + 1, 0)::int AS next FROM bench_raw_events WHERE stream_id = ${stream}`.execute(
              db,
            );
            try {
              await sql`${plainStatement}INSERT INTO bench_raw_events VALUES (${stream}, ${rows[0]!.next}, 'BenchEvent', '{}'::jsonb, '{}'::jsonb)`.execute(
                db,
              );
              done++;
              return;
            } catch {
              rawRetries++;
            }
          }
        });
        const { rows } = await sql<{
          n: number;
          d: number;
        }>`SELECT count(*)::int AS n, count(DISTINCT revision)::int AS d FROM bench_raw_events WHERE stream_id = ${stream}`.execute(
          db,
        );
        return { ops, bad: Math.abs(rows[0]!.n - done) + (rows[0]!.n - rows[0]!.d) };
      },
      async () => {
        // Appending without reading first: the store orders concurrent writers on the stream's row
        // lock and numbers the revisions itself (the path positions take).
        const stream = `benchone-${randomUUID()}`;
        const ops = await pool(appends, 16, (i) =>
          store.append(stream, [event(i)], { expectedRevision: 'any', metadata: metadata() }),
        );
        const { events } = await store.readStream(stream);
        const revisions = events.map((recorded) => recorded.streamRevision);
        const bad =
          Math.abs(events.length - appends) +
          revisions.filter((revision, index) => revision !== index).length;
        return { ops, bad };
      },
    );
    report(
      'T4c',
      `16 writers on one stream (${backend})`,
      contended.ours.ops / contended.baseline.ops,
      1,
      `ours ${fmt(contended.ours.ops)} appends/s (duplicate or missing revisions ${contended.ours.bad}); naive read-insert-retry ${fmt(contended.baseline.ops)}/s (${rawRetries} retries over three runs)`,
      contended.ours.ops / contended.baseline.ops >= 1 && contended.ours.bad === 0,
    );
  } finally {
    await bench.close();
  }
}
