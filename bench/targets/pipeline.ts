/**
 * T5, T7: the event pipeline behind the HTTP paths. T5 appends with the cross-process NOTIFY, the
 * socket.io PostgreSQL adapter and the notifier on, against the same appends on a store alone on its
 * database; T7 times an append until the read model shows it, at a fixed offered rate.
 */
import { randomUUID } from 'node:crypto';
import { io as connect } from 'socket.io-client';
import { createPostgresEventStore } from '../../server/eventstore/postgres/postgresEventStore.ts';
import { bearer, organization } from '../../server/identity/fixtures.ts';
import { loadBody } from '../../server/testing/loadBodies.ts';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { compare, fmt, pool, quick, report } from '../lib.ts';
import { type Backend, type BenchApp, startBenchApp } from '../setup.ts';

const metadata = () => ({
  userId: null,
  organizationId: null,
  correlationId: null,
  causationId: null,
  at: new Date().toISOString(),
});
const position = (tourId: string, n: number) => ({
  type: 'PositionRecorded',
  data: {
    tourId,
    latitude: 41 + (n % 1000) / 1000,
    longitude: -88 - (n % 1000) / 1000,
    speed: 55,
    heading: 90,
    accuracy: 10,
    source: 'driver',
    recordedAt: new Date().toISOString(),
  },
});

/**
 * T5: appends of positions (each one a `tour:position` emit to its tour room) with everything a
 * production process runs around them: the NOTIFY to other processes, the notifier reading the log
 * and emitting to a connected socket, the socket.io adapter on PostgreSQL. Baseline: the same
 * appends on a store with no NOTIFY, no notifier and no socket server.
 */
export async function t5(backend: Backend) {
  const total = quick ? 1_000 : 4_000;
  const bare = await openTestDatabase(backend);
  const bareStore = await createPostgresEventStore(bare, { notify: false });
  const bench = await startBenchApp(backend, { runProjections: false });
  const shipper = await organization(bench.app, bench.platform, 'Shipper');
  // A signed-in socket: the notifier starts with the first one.
  const socket = connect(bench.url, {
    path: '/socket.io',
    auth: { token: shipper.token },
    transports: ['websocket'],
    extraHeaders: { origin: bench.url },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const tours = Array.from({ length: 64 }, () => randomUUID());
    const { baseline, ours } = await compare(
      async () => ({
        ops: await pool(total, 16, (i) =>
          bareStore.append(`tour-${randomUUID()}`, [position(tours[i % 64]!, i)], {
            expectedRevision: 'no_stream',
            metadata: metadata(),
          }),
        ),
      }),
      async () => ({
        ops: await pool(total, 16, (i) =>
          bench.platform.store.append(`tour-${randomUUID()}`, [position(tours[i % 64]!, i)], {
            expectedRevision: 'no_stream',
            metadata: metadata(),
          }),
        ),
      }),
    );
    report(
      'T5',
      `append with NOTIFY, notifier and socket.io adapter on (${backend})`,
      ours.ops / baseline.ops,
      0.7,
      `ours ${fmt(ours.ops)} appends/s; alone on its database ${fmt(baseline.ops)} appends/s${backend === 'pglite' ? ' (PGlite: one process, so no NOTIFY and no adapter; the notifier runs)' : ''}`,
    );
  } finally {
    socket.close();
    await bench.close();
    await bareStore.close();
    await bare.drop();
  }
}

/**
 * T7: append to visible in the marketplace read model, appends offered at a fixed rate (open loop).
 * At 1k appends/s, the target; at 200/s as well, which a 2-core machine absorbs, to tell the
 * pipeline's own delay from a backlog.
 */
export async function t7(backend: Backend) {
  const bench = await startBenchApp(backend);
  try {
    const template = await loadPostedTemplate(bench);
    const seconds = quick ? 4 : 10;
    const light = await appendsAtRate(bench, template, 200, seconds);
    const target = await appendsAtRate(bench, template, 1_000, seconds);
    const describe = (run: RateRun) =>
      `offered ${fmt(run.offered)}/s: visible ${run.visible} (not in 30 s ${run.lost}, failed ${run.failed}${run.firstError ? `: ${run.firstError}` : ''}), p50 ${fmt(run.p50)} ms p99 ${fmt(run.p99)} ms`;
    report(
      'T7',
      `append to visible in the read model (${backend})`,
      250 / target.p99,
      1,
      `${describe(target)}; ${describe(light)}; ${seconds} s each (target p99 < 250 ms at 1k appends/s)`,
      target.p99 < 250 && target.lost === 0 && target.failed === 0,
    );
  } finally {
    await bench.close();
  }
}

type RateRun = {
  offered: number;
  visible: number;
  lost: number;
  failed: number;
  firstError: string;
  p50: number;
  p99: number;
};

async function appendsAtRate(
  bench: BenchApp,
  template: (loadId: string, n: number) => { type: string; data: unknown },
  rate: number,
  seconds: number,
): Promise<RateRun> {
  const { platform } = bench;
  const latencies: number[] = [];
  const run = { failed: 0, lost: 0, firstError: '' };
  const pending: Promise<void>[] = [];
  const started = performance.now();
  // Every 10 ms the appends due by then are fired, whether or not earlier ones finished.
  let fired = 0;
  while (performance.now() - started < seconds * 1000) {
    const due = Math.floor(((performance.now() - started) / 1000) * rate);
    for (; fired < due; fired++) {
      const t0 = performance.now();
      const loadId = randomUUID();
      pending.push(
        platform.store
          .append(`load-${loadId}`, [template(loadId, fired)], {
            expectedRevision: 'no_stream',
            metadata: metadata(),
          })
          .then(
            async (result) => {
              if (await platform.runner.waitFor(['marketplace'], result.position, 30_000))
                latencies.push(performance.now() - t0);
              else run.lost++;
            },
            (error: unknown) => {
              if (run.failed++ === 0)
                run.firstError = error instanceof Error ? error.message : String(error);
            },
          ),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const offered = fired / ((performance.now() - started) / 1000);
  await Promise.all(pending);
  const sorted = latencies.sort((a, b) => a - b);
  const p = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { offered, visible: latencies.length, ...run, p50: p(0.5), p99: p(0.99) };
}

/** A LoadPosted event of a real load, to be appended again with a new load id and guid. */
async function loadPostedTemplate(
  bench: BenchApp,
): Promise<(loadId: string, n: number) => { type: string; data: unknown }> {
  const shipper = await organization(bench.app, bench.platform, 'Shipper');
  const posted = await bench.app.inject({
    method: 'POST',
    url: '/api/loads',
    headers: bearer(shipper.token),
    payload: loadBody(),
  });
  const { id } = posted.json() as { id: string };
  const { events } = await bench.platform.store.readStream(`load-${id}`);
  const event = events.find((candidate) => candidate.type === 'LoadPosted');
  if (!event) throw new Error(`no LoadPosted in load-${id}`);
  const text = JSON.stringify(event.data);
  const guid = (event.data as { guid: string }).guid;
  return (loadId, n) => ({
    type: 'LoadPosted',
    data: JSON.parse(text.replaceAll(id, loadId).replaceAll(guid, `T7-${n}-${loadId.slice(0, 8)}`)),
  });
}
