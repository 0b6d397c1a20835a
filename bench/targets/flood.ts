/**
 * T11: one signed-in socket flooding the server (docs/api.md "Limits"). A driver's socket keeps
 * 2,000 `tour:watch` of random ids unanswered at all times, connecting again at once whenever it is
 * closed, for ten seconds, while a carrier reads the marketplace (`GET /api/loads/carrier`, one
 * request at a time). The reader's p50 and p99 without and with the flood; the target is its p99
 * under 250 ms during the flood. Also what the flood got: events answered, connections, and how and
 * why the server closed them. The flooder runs in a process of its own (flooder.ts).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Role } from '../../domain/catalog.ts';
import { bearer, member, organization } from '../../server/identity/fixtures.ts';
import { loadBody } from '../../server/testing/loadBodies.ts';
import { fmt, http, report, type HttpFigures } from '../lib.ts';
import { startBenchApp, type Backend } from '../setup.ts';
import type { FloodCommand, FloodReport } from './flooder.ts';

const SECONDS = 10;
const OUTSTANDING = 2000;
const P99_TARGET_MS = 250;
/** Loads on the marketplace, so a read does a page's work. */
const LOADS = 50;

function startFlood(command: FloodCommand): Promise<FloodReport> {
  const child = fork(fileURLToPath(new URL('./flooder.ts', import.meta.url)), [], {
    execPath: process.execPath,
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`the flooding process exited (${code}) before reporting`)),
    );
    child.once('message', (answer) => resolve(answer as FloodReport));
    child.send(command);
  });
}

const figures = (read: HttpFigures) =>
  `p50 ${read.p50} ms, p99 ${read.p99} ms, ${fmt(read.rps, 1)} req/s${read.errors + read.non2xx ? `, ${read.errors} errors and ${read.non2xx} non-2xx` : ''}`;

export async function t11(backend: Backend) {
  // The user's own budget as deployed (setup.ts raises it for the thousand sockets of T9).
  const raised = process.env.SOCKET_USER_EVENTS_PER_SECOND;
  delete process.env.SOCKET_USER_EVENTS_PER_SECOND;
  const bench = await startBenchApp(backend).finally(() => {
    if (raised !== undefined) process.env.SOCKET_USER_EVENTS_PER_SECOND = raised;
  });
  const { app, platform } = bench;
  try {
    const shipper = await organization(app, platform, 'Shipper');
    const carrier = await organization(app, platform, 'Carrier');
    const driver = await member(app, platform, carrier.organizationId!, Role.Driver);
    for (let index = 0; index < LOADS; index += 1) {
      await app.inject({
        method: 'POST',
        url: '/api/loads',
        headers: bearer(shipper.token),
        payload: loadBody(),
      });
    }
    const read = () =>
      http({
        url: `${bench.url}/api/loads/carrier`,
        headers: bearer(carrier.token),
        connections: 1,
        duration: SECONDS,
      });
    const quiet = await read();
    const flooding = startFlood({
      url: bench.url,
      token: driver.token,
      seconds: SECONDS,
      outstanding: OUTSTANDING,
    });
    const loud = await read();
    const flood = await flooding;
    const ok = loud.p99 < P99_TARGET_MS && loud.errors + loud.non2xx === 0;
    const kinds = (counts: Record<string, number>) =>
      Object.entries(counts)
        .map(([key, n]) => `${key} ${fmt(n)}`)
        .join(', ') || 'none';
    report(
      'T11',
      `socket flood, ${fmt(OUTSTANDING)} tour:watch unanswered at once (${backend})`,
      P99_TARGET_MS / Math.max(1, loud.p99),
      1,
      `ratio = ${P99_TARGET_MS} ms / the reader's p99 during the flood; reader alone ${figures(quiet)}; during the flood ${figures(loud)}; ` +
        `flood: ${fmt(flood.sent)} sent, ${fmt(flood.answered)} answered over ${fmt(flood.connections)} connections (${fmt(flood.refused)} refused); ` +
        `closed: ${kinds(flood.closes)}; told: ${kinds(flood.limits)}${flood.reasons.length ? ` ('${flood.reasons.join("', '")}')` : ''}`,
      ok,
    );
  } finally {
    await bench.close();
  }
}
