/**
 * PostgreSQL faults (skipped without DATABASE_URL): while clients post loads and read the shipper's
 * table over HTTP, every backend of the app's database is terminated (pg_terminate_backend) a few
 * times. Requests fail fast (503 or 500, no hang), the app recovers by itself, and no acknowledged
 * load is missing from the log. A full `pg_ctl -m immediate` restart is not done here: the cluster
 * is shared with the rest of the tests.
 */
import { sql } from 'kysely';
import pg from 'pg';
import t from 'tap';
import { organization } from '../../server/identity/fixtures.ts';
import { loadBody } from '../../server/testing/loadBodies.ts';
import { startTestApp } from '../../server/testing/testApp.ts';
import { percentile, POSTGRES_URL, request, scaled, sleep } from './support.ts';

t.setTimeout(600_000);
if (!POSTGRES_URL) {
  t.comment('PostgreSQL faults: skipped, PostgreSQL only (set DATABASE_URL)');
  t.pass('skipped without DATABASE_URL');
  process.exit(0);
}
process.env.RATE_LIMIT_PER_MINUTE = '1000000000';

const TERMINATIONS = scaled('PG_TERMINATIONS', 4);
const { app, platform, close } = await startTestApp();
t.teardown(close);
const db = platform.database.db;
const shipper = await organization(app, platform, 'Shipper', { name: 'Fault Tolerant Foods' });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const databaseName = new URL(platform.config.databaseUrl!).pathname.slice(1);

type Sample = { kind: 'write' | 'read'; start: number; end: number; status: number; ref?: string };

/** Posts a few loads one after another: the median latency of a write with read-your-writes. */
const writeLatency = async (tag: string) => {
  const times: number[] = [];
  for (let index = 0; index < 10; index += 1) {
    const started = performance.now();
    const answer = await request(`${base}/api/loads`, {
      method: 'POST',
      token: shipper.token,
      body: loadBody({ refNumber: `${tag}-${index}` }),
    });
    if (answer.status === 201) times.push(performance.now() - started);
  }
  return percentile(times, 50);
};

t.test(
  `pg_terminate_backend of every app connection, ${TERMINATIONS} times under load`,
  async (t) => {
    const before = await writeLatency('BEFORE');
    const admin = new pg.Client({ connectionString: POSTGRES_URL! });
    await admin.connect();
    const samples: Sample[] = [];
    const terminations: { at: number; killed: number }[] = [];
    let running = true;
    let written = 0;
    const writer = async () => {
      while (running) {
        const ref = `FAULT-${written++}`;
        const start = performance.now();
        const answer = await request(`${base}/api/loads`, {
          method: 'POST',
          token: shipper.token,
          body: loadBody({ refNumber: ref }),
          timeoutMs: 15_000,
        });
        samples.push({ kind: 'write', start, end: performance.now(), status: answer.status, ref });
      }
    };
    const reader = async () => {
      while (running) {
        const start = performance.now();
        const answer = await request(`${base}/api/loads/shipper?page=1&pageSize=25`, {
          token: shipper.token,
          timeoutMs: 15_000,
        });
        samples.push({ kind: 'read', start, end: performance.now(), status: answer.status });
      }
    };
    const clients = [writer(), writer(), writer(), writer(), reader(), reader()];
    try {
      await sleep(1500);
      for (let round = 0; round < TERMINATIONS; round += 1) {
        const at = performance.now();
        const { rows } = await admin.query(
          `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS killed FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
          [databaseName],
        );
        terminations.push({ at, killed: rows[0].killed });
        await sleep(2500);
      }
    } finally {
      running = false;
      await Promise.all(clients);
      await admin.end();
    }

    const failed = (sample: Sample) => sample.status === 0 || sample.status >= 500;
    const failures = samples.filter(failed);
    const statuses = new Map<number, number>();
    for (const sample of failures)
      statuses.set(sample.status, (statuses.get(sample.status) ?? 0) + 1);
    const windows = terminations.map(({ at }, index) => {
      const until = terminations[index + 1]?.at ?? Infinity;
      const hit = failures.filter((sample) => sample.end >= at && sample.end < until);
      const lastFailure = hit.length ? Math.max(...hit.map((sample) => sample.end)) : at;
      const recovered = samples
        .filter((sample) => !failed(sample) && sample.start >= lastFailure && sample.end < until)
        .map((sample) => sample.end);
      return {
        errors: hit.length,
        window: lastFailure - at,
        recovery: recovered.length ? Math.min(...recovered) - at : NaN,
      };
    });
    const maxLatency = Math.max(...samples.map((sample) => sample.end - sample.start));
    const failureLatency = percentile(
      failures.map((sample) => sample.end - sample.start),
      99,
    );

    const acknowledged = samples
      .filter((sample) => sample.kind === 'write' && sample.status === 201)
      .map((sample) => sample.ref!);
    const { rows } = await sql<{
      ref: string;
    }>`SELECT data->'details'->>'refNumber' AS ref FROM events WHERE type = 'LoadPosted' AND data->'details'->>'refNumber' LIKE 'FAULT-%'`.execute(
      db,
    );
    const logged = new Set(rows.map((row) => row.ref));
    const lost = acknowledged.filter((ref) => !logged.has(ref)).length;
    const after = await writeLatency('AFTER');
    const health = await request(`${base}/api/health`);

    t.ok(
      terminations.every((termination) => termination.killed > 0),
      `every round terminated the app's backends (${terminations.map((termination) => termination.killed).join(', ')})`,
    );
    t.ok(maxLatency < 10_000, `no request hung (slowest ${maxLatency.toFixed(0)} ms)`);
    t.ok(
      [...statuses.keys()].every((status) => status === 503 || status === 500),
      `failures answer 503 or 500 (${[...statuses].map(([status, n]) => `${n}× ${status}`).join(', ') || 'none'})`,
    );
    t.ok(
      windows.every((window) => !Number.isNaN(window.recovery)),
      'after every termination requests succeed again',
    );
    t.equal(lost, 0, 'every acknowledged load is in the log');
    t.equal(health.status, 200, 'health answers 200 afterwards');
    t.comment(
      `PostgreSQL faults: ${TERMINATIONS} pg_terminate_backend rounds (${terminations.map((termination) => termination.killed).join('+')} backends) under ${samples.length} requests; ` +
        `failed ${failures.length} (${[...statuses].map(([status, n]) => `${n}× ${status}`).join(', ') || 'none'}), failure p99 ${failureLatency.toFixed(0)} ms, slowest request ${maxLatency.toFixed(0)} ms`,
    );
    t.comment(
      `PostgreSQL faults: error window ${windows.map((window) => `${window.window.toFixed(0)} ms`).join(', ')}; recovery ${windows.map((window) => `${(window.recovery / 1000).toFixed(2)} s`).join(', ')}; ` +
        `lost ${lost} of ${acknowledged.length} acknowledged; write p50 ${before.toFixed(0)} ms before, ${after.toFixed(0)} ms after`,
    );
  },
);
