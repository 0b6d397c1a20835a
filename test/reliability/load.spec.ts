/**
 * Load and a short soak against the real server process (`server/main.ts`, on PostgreSQL with
 * DATABASE_URL, else the embedded PGlite in a data folder): autocannon on a mixed workload (the
 * shipper's table, the carriers' marketplace, one load, offers posted), first flat out, then at a
 * fixed 80 % of that rate for latency; then two minutes at 50 % watching memory and health.
 * Figures: req/s, read and write p50/p97.5/p99, errors, RSS and the server's event-loop delay.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pino from 'pino';
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import { loadBodySchema } from '../../domain/schemas/load.schema.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { organization } from '../../server/identity/fixtures.ts';
import { startPlatform } from '../../server/platform.ts';
import { loadBody } from '../../server/testing/loadBodies.ts';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import {
  callerOf,
  freePort,
  percentile,
  POSTGRES_URL,
  rssOf,
  scaled,
  sleep,
  spawnServer,
} from './support.ts';

t.setTimeout(900_000);
const LOAD_SECONDS = scaled('LOAD_SECONDS', 20);
const RATE_SECONDS = scaled('RATE_SECONDS', 10);
const SOAK_SECONDS = scaled('SOAK_SECONDS', 120);
const CONNECTIONS = scaled('LOAD_CONNECTIONS', 50);
const WRITE_SHARE = 0.2;

const database = POSTGRES_URL ? await openTestDatabase('postgres') : null;
const dataDir = mkdtempSync(path.join(tmpdir(), 'freight-load-'));
const jwtSecret = randomBytes(48).toString('base64url');
t.teardown(async () => {
  await database?.drop();
});

// The parties and 300 open loads, written in process; then the server takes the database over.
const setup = await (async () => {
  const env = {
    ...process.env,
    DATABASE_URL: database?.url ?? '',
    DATA_DIR: dataDir,
    JWT_SECRET: jwtSecret,
  };
  const config = loadConfig(env, { demo: false, logLevel: 'silent', prettyLogs: false });
  const platform = await startPlatform(config, pino({ level: 'silent' }));
  const app = await buildApp(platform);
  await app.ready();
  try {
    const shipper = await organization(app, platform, 'Shipper', { name: 'Load Test Foods' });
    const carriers = await Promise.all(
      [0, 1, 2, 3].map((index) =>
        organization(app, platform, 'Carrier', { name: `Load Hauler ${index}` }),
      ),
    );
    const loadIds: string[] = [];
    let last = null;
    for (let index = 0; index < 300; index += 1) {
      const now = new Date().toISOString();
      const posted = await platform.marketplace.postLoad(
        callerOf(shipper, Role.Shipper),
        loadBodySchema(now).parse(loadBody({ refNumber: `LOAD-${index}` })),
        now,
      );
      loadIds.push(posted.id);
      last = posted.position;
    }
    await platform.runner.waitFor(['marketplace'], last, 60_000);
    return {
      shipperToken: shipper.token,
      carrierTokens: carriers.map((carrier) => carrier.token),
      loadIds,
    };
  } finally {
    await app.close();
    await platform.close();
  }
})();

const port = await freePort();
const server = await spawnServer({
  port,
  databaseUrl: database?.url ?? null,
  dataDir,
  env: { JWT_SECRET: jwtSecret },
});
t.teardown(() => server.stop());

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
const auth = (token: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
});
const reads = [
  {
    method: 'GET',
    setupRequest: (request: any) => ({
      ...request,
      path: '/api/loads/shipper?page=1&pageSize=25',
      headers: auth(setup.shipperToken),
    }),
  },
  {
    method: 'GET',
    setupRequest: (request: any) => ({
      ...request,
      path: '/api/loads/carrier?page=1&pageSize=25',
      headers: auth(pick(setup.carrierTokens)),
    }),
  },
  {
    method: 'GET',
    setupRequest: (request: any) => ({
      ...request,
      path: `/api/loads/${pick(setup.loadIds)}`,
      headers: auth(setup.shipperToken),
    }),
  },
];
const writes = [
  {
    method: 'POST',
    setupRequest: (request: any) => ({
      ...request,
      path: `/api/proposal/${pick(setup.loadIds)}`,
      headers: auth(pick(setup.carrierTokens)),
      body: JSON.stringify({
        price: 1000 + Math.floor(Math.random() * 500),
        message: 'Load test offer',
      }),
    }),
  },
];

type Figures = {
  rps: number;
  p50: number;
  p975: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
  statuses: Record<string, number>;
};
const figures = (result: any): Figures => ({
  rps: result.requests.average,
  p50: result.latency.p50,
  p975: result.latency.p97_5,
  p99: result.latency.p99,
  errors: result.errors + result.timeouts,
  non2xx: result.non2xx,
  requests: result.requests.total,
  statuses: { '2xx': result['2xx'], '4xx': result['4xx'], '5xx': result['5xx'] },
});

/** Reads and writes at once, from two autocannon instances splitting the connections (and the rate). */
async function mixed(seconds: number, rate: number | null) {
  const writeConnections = Math.max(1, Math.round(CONNECTIONS * WRITE_SHARE));
  const run = (requests: unknown[], connections: number, share: number) =>
    autocannon({
      url: server.url,
      connections,
      duration: seconds,
      requests,
      timeout: 10,
      ...(rate ? { overallRate: Math.max(1, Math.round(rate * share)) } : {}),
    });
  const [read, write] = await Promise.all([
    run(reads, CONNECTIONS - writeConnections, 1 - WRITE_SHARE),
    run(writes, writeConnections, WRITE_SHARE),
  ]);
  const r = figures(read);
  const w = figures(write);
  return {
    read: r,
    write: w,
    rps: r.rps + w.rps,
    failures: r.errors + r.non2xx + w.errors + w.non2xx,
  };
}

const line = (f: Figures) =>
  `${f.rps.toFixed(0)} req/s, p50 ${f.p50} ms, p97.5 ${f.p975} ms, p99 ${f.p99} ms, errors ${f.errors}, non-2xx ${f.non2xx}`;
let maxRps = 0;

t.test(
  `load: ${CONNECTIONS} connections for ${LOAD_SECONDS} s, then a fixed rate at 80 % of the maximum`,
  async (t) => {
    await mixed(3, null); // warm-up
    process.kill(server.pid, 'SIGUSR2');
    const flat = await mixed(LOAD_SECONDS, null);
    const flatProbe = server.probe();
    maxRps = flat.rps;
    t.equal(
      flat.failures,
      0,
      `no errors flat out (${flat.read.requests + flat.write.requests} requests)`,
    );
    t.comment(
      `load -c ${CONNECTIONS} -d ${LOAD_SECONDS}: ${flat.rps.toFixed(0)} req/s in all; reads ${line(flat.read)}; writes ${line(flat.write)}; ` +
        `RSS ${((flatProbe?.rssBytes ?? rssOf(server.pid)) / 2 ** 20).toFixed(0)} MiB, event-loop delay p50 ${flatProbe?.loopP50Ms} ms p99 ${flatProbe?.loopP99Ms} ms max ${flatProbe?.loopMaxMs} ms`,
    );

    process.kill(server.pid, 'SIGUSR2');
    const rate = Math.max(1, Math.round(flat.rps * 0.8));
    const fixed = await mixed(RATE_SECONDS, rate);
    const fixedProbe = server.probe();
    t.equal(fixed.failures, 0, 'no errors at 80 %');
    // The plan's targets (read p99 < 250 ms, write p99 < 500 ms) are to be confirmed on an idle machine: reported, not asserted.
    t.comment(
      `latency targets at 80 %: read p99 ${fixed.read.p99} ms (target < 250: ${fixed.read.p99 < 250 ? 'met' : 'missed'}), write p99 ${fixed.write.p99} ms (target < 500: ${fixed.write.p99 < 500 ? 'met' : 'missed'})`,
    );
    t.comment(
      `load at 80 % (${rate} req/s for ${RATE_SECONDS} s): ${fixed.rps.toFixed(0)} req/s; reads ${line(fixed.read)}; writes ${line(fixed.write)}; ` +
        `RSS ${((fixedProbe?.rssBytes ?? 0) / 2 ** 20).toFixed(0)} MiB, event-loop delay p50 ${fixedProbe?.loopP50Ms} ms p99 ${fixedProbe?.loopP99Ms} ms max ${fixedProbe?.loopMaxMs} ms`,
    );
  },
);

t.test(`short soak: ${SOAK_SECONDS} s at 50 % of the maximum`, async (t) => {
  const rate = Math.max(1, Math.round(maxRps * 0.5));
  const rssStart = rssOf(server.pid);
  const health: number[] = [];
  const rss: number[] = [];
  let soaking = true;
  const watcher = (async () => {
    while (soaking) {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/health`, {
        signal: AbortSignal.timeout(10_000),
      }).catch(() => null);
      await response?.arrayBuffer();
      health.push(response?.status === 200 ? performance.now() - started : 10_000);
      rss.push(rssOf(server.pid));
      await sleep(250);
    }
  })();
  const soak = await mixed(SOAK_SECONDS, rate);
  soaking = false;
  await watcher;
  // Growth once warmed up: the mean of the last quarter against the mean of the second quarter (the
  // first quarter fills caches, the JIT and the heap's young generation), not one sample's noise.
  const mean = (list: number[]) =>
    list.reduce((sum, value) => sum + value, 0) / Math.max(1, list.length);
  const quarter = Math.max(1, Math.floor(rss.length / 4));
  const rssWarm = mean(rss.slice(quarter, 2 * quarter)) || rssStart;
  const rssEnd = mean(rss.slice(-quarter));
  const growth = (rssEnd - rssWarm) / rssWarm;
  t.equal(
    soak.failures,
    0,
    `no errors over the soak (${soak.read.requests + soak.write.requests} requests)`,
  );
  // A few tens of seconds cannot tell a leak from a heap still settling: growth is judged on soaks of 5 minutes or more.
  if (SOAK_SECONDS >= 300) t.ok(growth < 0.1, `RSS grew ${(growth * 100).toFixed(1)} % (< 10 %)`);
  else
    t.comment(
      `RSS grew ${(growth * 100).toFixed(1)} % after warm-up (judged only on soaks of 5 minutes or more)`,
    );
  t.ok(
    health.every((ms) => ms < 10_000),
    'health answered every time',
  );
  t.comment(
    `short soak: ${SOAK_SECONDS} s at ${rate} req/s (${soak.rps.toFixed(0)} served); reads ${line(soak.read)}; writes ${line(soak.write)}; ` +
      `health p50 ${percentile(health, 50).toFixed(0)} ms p99 ${percentile(health, 99).toFixed(0)} ms over ${health.length} checks; ` +
      `RSS ${(rssStart / 2 ** 20).toFixed(0)} at the start, ${(rssWarm / 2 ** 20).toFixed(0)} warmed up → ${(rssEnd / 2 ** 20).toFixed(0)} MiB, delta ${(growth * 100).toFixed(1)} %`,
  );
});
