/**
 * Scale simulation: `npm run simulate -- --tier A|B [--seconds N]`.
 *
 * Starts the real server in its own process (PGlite, or a fresh PostgreSQL database when
 * DATABASE_URL is set), sets up a marketplace through its HTTP API, then drives a tier's workload
 * open-loop for N seconds while socket.io watchers and dispatchers in this process time the pushes.
 * Prints figures every 5 s and at the end, then a one-line verdict. A measurement, not a test:
 * it exits 0 whatever it finds.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type Meters, printSummary, printWindow, threadShares } from './sim/report.ts';
import { startServer, tcpCounters, type Backend, type SimServer } from './sim/server.ts';
import { apiClient, setUpMarketplace, type Api } from './sim/setup.ts';
import { openBrowsers } from './sim/sockets.ts';
import { num } from './sim/stats.ts';
import { FLUSH_SECONDS, PING_SECONDS, ratesOf, TIERS, type Tier } from './sim/tiers.ts';
import { HealthLog, RECENT_LOADS, startRun, type Rates } from './sim/workload.ts';

const WINDOW_MS = 5_000;

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function options(): { tier: Tier; seconds: number; backend: Backend } {
  const tierId = (argument('tier') ?? 'A').toUpperCase();
  if (tierId !== 'A' && tierId !== 'B') throw new Error(`--tier is A or B, not ${tierId}`);
  const seconds = Number(argument('seconds') ?? 60);
  if (!(seconds >= 5)) throw new Error('--seconds is a number of at least 5');
  const adminUrl = process.env.DATABASE_URL;
  return {
    tier: TIERS[tierId],
    seconds,
    backend: adminUrl ? { kind: 'postgres', adminUrl } : { kind: 'pglite' },
  };
}

const startMeters = (server: SimServer): Meters => ({
  server,
  loopWindow: monitorEventLoopDelay({ resolution: 10 }),
  lastServerCpu: server.cpuSeconds(),
  lastServerThread: server.mainThread(),
  lastClientCpu: process.cpuUsage(),
  lastAt: performance.now(),
});

const IDLE_SECONDS = 3;

/** The server's CPU with nothing asked of it: what the figures under load are to be set against. */
async function idleCpu(server: SimServer): Promise<number> {
  const before = server.cpuSeconds();
  await sleep(IDLE_SECONDS * 1000);
  return (100 * (server.cpuSeconds() - before)) / IDLE_SECONDS;
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/** Waits until no new push has arrived for a second (at most `timeoutMs`). */
async function pushesSettled(count: () => number, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  let last = -1;
  while (count() !== last && performance.now() < deadline) {
    last = count();
    await sleep(1000);
  }
}

/** Seconds until every read model has caught up with the log after the load stopped, or null. */
async function catchUpSeconds(health: HealthLog, timeoutMs: number): Promise<number | null> {
  const start = performance.now();
  while (performance.now() - start < timeoutMs) {
    if ((await health.read().catch(() => null)) === 0) return (performance.now() - start) / 1000;
    await sleep(250);
  }
  return null;
}

async function main() {
  const { tier, seconds, backend } = options();
  const rates = ratesOf(tier);
  console.log(
    `Scale simulation, tier ${tier.id} (${tier.name}): ${num(tier.trucks)} trucks reporting every ${PING_SECONDS} s, ${tier.loadsPerSecond} loads/s, ` +
      `${tier.offersPerSecond} offers/s, ${tier.watchers} watchers on tour rooms, ${tier.dispatchers} dispatchers on the marketplace; ${seconds} s.`,
  );
  const server = await startServer(backend);
  try {
    console.log(
      `Server: server/main.ts in its own process (pid ${server.pid}, demo off) at ${server.url}; database ${server.backendLabel}.`,
    );
    console.log(
      "Load, watchers and dispatchers run in this process (one event loop, apart from the server's).",
    );
    console.log(
      `Trucks are simulated on a pool of ${tier.tours} Dispatched tours, not one tour per truck: each tour's driver posts a batch of ` +
        `${rates.positionsPerBatch} positions every ${FLUSH_SECONDS} s (${tier.trucks / tier.tours} trucks × 1 ping / ${PING_SECONDS} s), ` +
        `${num(rates.batchesPerSecond, 1)} POSTs/s carrying ${num(rates.batchesPerSecond * rates.positionsPerBatch, 1)} positions/s. Offers go to the ${RECENT_LOADS} most recent loads of the run; a carrier's second offer on a load revises it.`,
    );
    await simulate(server, apiClient(server.url), tier, rates, seconds);
  } catch (error) {
    console.error(
      `Server log (level warn), last lines:\n${server.logLines().slice(-20).join('\n')}`,
    );
    throw error;
  } finally {
    await server.stop();
  }
}

async function simulate(server: SimServer, api: Api, tier: Tier, rates: Rates, seconds: number) {
  const setupStart = performance.now();
  const market = await setUpMarketplace(
    api,
    { email: server.adminEmail, password: server.adminPassword },
    { shippers: tier.shippers, carriers: tier.carriers, tours: tier.tours },
  );
  const { browsers, positionPushes, loadPushes } = await openBrowsers(
    server.url,
    market.tours,
    market.carriers,
    tier,
  );
  console.log(
    `Setup through the HTTP API: ${tier.shippers} shippers, ${tier.carriers} carriers, ${tier.tours} drivers and Dispatched tours, ` +
      `${browsers.sockets.length} sockets, in ${num((performance.now() - setupStart) / 1000, 1)} s.` +
      (browsers.retries
        ? ` ${browsers.retries} sockets were closed or refused while opening and opened again (first: ${browsers.firstRetryReason}).`
        : ''),
  );
  const pushes = { positions: positionPushes, loads: loadPushes };

  const idle = await idleCpu(server);
  console.log(
    `Server CPU at rest after the setup (sockets connected, no requests): ${num(idle)} % of a core over ${IDLE_SECONDS} s.`,
  );
  const health = new HealthLog(api);
  const loopRun = monitorEventLoopDelay({ resolution: 10 });
  const meters = startMeters(server);
  loopRun.enable();
  meters.loopWindow.enable();
  const serverCpuAtStart = meters.lastServerCpu;
  const serverThreadAtStart = meters.lastServerThread;
  const tcpAtStart = tcpCounters();
  const startAt = performance.now();
  const endAt = startAt + seconds * 1000;
  health.start();
  const run = startRun(api, market, rates, pushes, startAt, endAt);
  for (let from = startAt; from < endAt; from += WINDOW_MS) {
    const to = Math.min(from + WINDOW_MS, endAt);
    await sleep(to - performance.now());
    printWindow(run, pushes, health, meters, startAt, from, to);
  }
  run.stop();
  const serverCpuRun = server.cpuSeconds() - serverCpuAtStart;
  const serverThreadRun = threadShares(serverThreadAtStart, server.mainThread(), seconds);
  const tcpAtEnd = tcpCounters();
  const tcp = {
    listenOverflows: tcpAtEnd.listenOverflows - tcpAtStart.listenOverflows,
    synRetransmits: tcpAtEnd.synRetransmits - tcpAtStart.synRetransmits,
  };
  loopRun.disable();

  // The projections' catch-up from the moment the load stops, while the answers and pushes still on their way come in.
  health.stop();
  const catchingUp = catchUpSeconds(health, 30_000);
  const drained = await until(
    () => Object.values(run.kinds).every((kind) => kind.inFlight === 0),
    15_000,
  );
  await pushesSettled(
    () => positionPushes.latency.list.length + loadPushes.afterCreated.list.length,
    10_000,
  );
  const caughtUp = await catchingUp;
  browsers.close();

  printSummary({
    tier,
    seconds,
    server,
    run,
    pushes,
    health,
    startAt,
    endAt,
    drained,
    caughtUp,
    serverCpuRun,
    serverThreadRun,
    loopP99: loopRun.percentile(99) / 1e6,
    disconnects: browsers.disconnects,
    tcp,
  });
}

// Sockets and keep-alive connections would hold the process open: exit when done. Whatever the
// verdict the run was a measurement (0); only a run that could not happen is a failure.
try {
  await main();
  process.exit(0);
} catch (error) {
  console.error(
    'The simulation could not run:',
    error instanceof Error ? (error.stack ?? error.message) : error,
  );
  process.exit(1);
}
