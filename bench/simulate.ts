/**
 * Scale simulation: `npm run simulate -- --tier A|B [--seconds N]`.
 *
 * Starts the real server in its own process (PGlite, or a fresh PostgreSQL database when
 * DATABASE_URL is set), sets up a marketplace through its HTTP API, then drives a tier's workload
 * open-loop for N seconds while socket.io watchers and dispatchers in this process time the pushes.
 * Prints figures every 5 s and at the end, then a one-line verdict. A measurement, not a test:
 * it exits 0 whatever it finds.
 */
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  startServer,
  tcpCounters,
  type Backend,
  type SimServer,
  type ThreadTimes,
} from './sim/server.ts';
import { apiClient, setUpMarketplace, type Api } from './sim/setup.ts';
import { openBrowsers, type LoadPushes, type PositionPushes } from './sim/sockets.ts';
import { mean, ms, num, percent, spread, type Samples } from './sim/stats.ts';
import { HealthLog, RECENT_LOADS, startRun, type Kind, type Rates } from './sim/workload.ts';

type Tier = {
  id: 'A' | 'B';
  name: string;
  trucks: number;
  loadsPerSecond: number;
  offersPerSecond: number;
  watchers: number;
  dispatchers: number;
  /** Dispatched tours the trucks are simulated on (one driver each). */
  tours: number;
  shippers: number;
  carriers: number;
};

const TIERS: Record<'A' | 'B', Tier> = {
  A: {
    id: 'A',
    name: 'regional marketplace',
    trucks: 1_000,
    loadsPerSecond: 0.5,
    offersPerSecond: 2,
    watchers: 50,
    dispatchers: 20,
    tours: 50,
    shippers: 5,
    carriers: 10,
  },
  B: {
    id: 'B',
    name: 'national marketplace, DAT-like posting rate',
    trucks: 10_000,
    loadsPerSecond: 3,
    offersPerSecond: 15,
    watchers: 500,
    dispatchers: 100,
    tours: 200,
    shippers: 10,
    carriers: 25,
  },
};
/** Every truck reports once per this many seconds. */
const PING_SECONDS = 30;
/** Each tour's driver posts its trucks' pings due in this period in one batch. */
const FLUSH_SECONDS = 3;
const WINDOW_MS = 5_000;
/** The verdict's bars (T9 of the README's Performance table, for delivery). */
const ACCEPTED_SHARE = 0.95;
const PUSH_P99_MS = 1_000;
const DELIVERED_SHARE = 0.95;
/** Percent of the run the server's event-loop thread may wait for a CPU before the verdict warns of a crowded machine. */
const STARVED_PERCENT = 20;

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

/** Tours × batch ÷ flush period = trucks ÷ ping period. */
function ratesOf(tier: Tier): Rates {
  const positionsPerBatch = (tier.trucks / tier.tours) * (FLUSH_SECONDS / PING_SECONDS);
  if (!Number.isInteger(positionsPerBatch))
    throw new Error(
      `${tier.trucks} trucks do not split into whole batches over ${tier.tours} tours`,
    );
  return {
    batchesPerSecond: tier.tours / FLUSH_SECONDS,
    positionsPerBatch,
    loadsPerSecond: tier.loadsPerSecond,
    offersPerSecond: tier.offersPerSecond,
  };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/**
 * Offered and accepted units per second over [from, to); HTTP p50/p99 of the 2xx answers and the
 * failures received in [from, answeredBy).
 */
function kindFigures(kind: Kind, from: number, to: number, answeredBy = to) {
  const seconds = (to - from) / 1000;
  const failed = kind.failed.between(from, answeredBy);
  const errors = failed.filter((status) => status === 0).length;
  return {
    offered: sum(kind.offered.between(from, to)) / seconds,
    accepted: sum(kind.accepted.between(from, to)) / seconds,
    latency: spread(kind.latency.between(from, answeredBy)),
    errors,
    non2xx: failed.length - errors,
  };
}

function kindLine(kind: Kind, from: number, to: number, answeredBy = to): string {
  const figures = kindFigures(kind, from, to, answeredBy);
  return (
    `${kind.name.padEnd(9)} offered ${num(figures.offered, 1).padStart(6)}/s  accepted ${num(figures.accepted, 1).padStart(6)}/s (${percent(figures.accepted, figures.offered)})` +
    `  http p50 ${ms(figures.latency.p50)} p99 ${ms(figures.latency.p99)} ms  non-2xx ${figures.non2xx}  errors ${figures.errors}  in flight ${kind.inFlight}`
  );
}

const pushLine = (label: string, samples: Samples, from: number, to: number) => {
  const figures = spread(samples.between(from, to));
  return `${label} p50 ${ms(figures.p50)} p95 ${ms(figures.p95)} p99 ${ms(figures.p99)} ms (${num(figures.n)} pushes)`;
};

type Meters = {
  server: SimServer;
  loopWindow: ReturnType<typeof monitorEventLoopDelay>;
  lastServerCpu: number;
  lastServerThread: ThreadTimes;
  lastClientCpu: NodeJS.CpuUsage;
  lastAt: number;
};

const startMeters = (server: SimServer): Meters => ({
  server,
  loopWindow: monitorEventLoopDelay({ resolution: 10 }),
  lastServerCpu: server.cpuSeconds(),
  lastServerThread: server.mainThread(),
  lastClientCpu: process.cpuUsage(),
  lastAt: performance.now(),
});

/** The server's event-loop thread over `seconds`: percent of the time on a CPU, and waiting for one. */
const threadShares = (before: ThreadTimes, after: ThreadTimes, seconds: number): ThreadTimes => ({
  running: (100 * (after.running - before.running)) / seconds,
  waiting: (100 * (after.waiting - before.waiting)) / seconds,
});

const threadLine = (shares: ThreadTimes) =>
  `server event-loop thread on a CPU ${num(shares.running)} % of the time, waiting for a CPU ${num(shares.waiting)} %`;

/** CPU of the server process and of this process over the window, the server's main thread, and this process's event-loop delay. */
function machineLine(meters: Meters): string {
  const now = performance.now();
  const seconds = (now - meters.lastAt) / 1000;
  const serverCpu = meters.server.cpuSeconds();
  const serverThread = meters.server.mainThread();
  const clientCpu = process.cpuUsage(meters.lastClientCpu);
  const line =
    `server CPU ${num((100 * (serverCpu - meters.lastServerCpu)) / seconds)} % of a core (${threadLine(threadShares(meters.lastServerThread, serverThread, seconds))}); ` +
    `this process ${num((clientCpu.user + clientCpu.system) / 1e4 / seconds)} % of a core, event-loop delay p99 ${ms(meters.loopWindow.percentile(99) / 1e6)} ms; ` +
    `machine load ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`;
  Object.assign(meters, {
    lastServerCpu: serverCpu,
    lastServerThread: serverThread,
    lastClientCpu: process.cpuUsage(),
    lastAt: now,
  });
  meters.loopWindow.reset();
  return line;
}

function printWindow(
  run: { kinds: Record<string, Kind> },
  pushes: { positions: PositionPushes; loads: LoadPushes },
  health: HealthLog,
  meters: Meters,
  startAt: number,
  from: number,
  to: number,
) {
  const lag = health.lag.between(from, to);
  // Deliveries are counted for positions accepted at least 2 s ago: the later ones may still be on their way.
  const settled = pushes.positions.delivery(to - 2000);
  console.log(`[${num((to - startAt) / 1000).padStart(3)} s]`);
  for (const kind of Object.values(run.kinds)) console.log(`  ${kindLine(kind, from, to)}`);
  console.log(
    `  ${pushLine('tour:position send→watcher', pushes.positions.latency, from, to)}; delivered so far ${percent(settled.received, settled.expected)}`,
  );
  console.log(`  ${pushLine('load:posted 201→dispatcher', pushes.loads.afterCreated, from, to)}`);
  console.log(
    `  projection lag max ${lag.length ? num(Math.max(...lag)) : '-'} events (last ${lag.length ? num(lag[lag.length - 1]) : '-'})`,
  );
  console.log(`  ${machineLine(meters)}`);
}

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

type LagTrend = { first: number; last: number; growing: boolean | null };

/**
 * Mean lag of the first and last thirds of the run: growing when the last is over twice the first
 * and 100 events more; unknown (null) when health answered fewer than twice in either third.
 */
function lagTrend(health: HealthLog, startAt: number, endAt: number): LagTrend {
  const third = (endAt - startAt) / 3;
  const firstSamples = health.lag.between(startAt, startAt + third);
  const lastSamples = health.lag.between(endAt - third, endAt);
  const first = mean(firstSamples);
  const last = mean(lastSamples);
  return {
    first,
    last,
    growing: firstSamples.length < 2 || lastSamples.length < 2 ? null : last > 2 * first + 100,
  };
}

const trendWord = (trend: LagTrend) =>
  trend.growing === null
    ? 'unknown (too few health answers)'
    : trend.growing
      ? 'growing'
      : 'not growing';

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

type Summary = {
  tier: Tier;
  seconds: number;
  server: SimServer;
  run: ReturnType<typeof startRun>;
  pushes: { positions: PositionPushes; loads: LoadPushes };
  health: HealthLog;
  startAt: number;
  endAt: number;
  drained: boolean;
  caughtUp: number | null;
  serverCpuRun: number;
  serverThreadRun: ThreadTimes;
  loopP99: number;
  disconnects: number;
  tcp: { listenOverflows: number; synRetransmits: number };
};

function printSummary(summary: Summary) {
  const { tier, seconds, server, run, pushes, health, startAt, endAt } = summary;
  console.log(
    `\n== Whole run, ${seconds} s (accepted = 2xx answers received within the run; latency and failures = every answer to a request of the run, the drain included) ==`,
  );
  const statuses = (kind: Kind) =>
    [...kind.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status === 0 ? 'no answer' : status}: ${num(count)}`)
      .join(', ');
  const answeredUnits = (kind: Kind) => sum(kind.accepted.values());
  const offeredUnits = (kind: Kind) => sum(kind.offered.values());
  for (const kind of Object.values(run.kinds)) {
    console.log(`  ${kindLine(kind, startAt, endAt, Number.POSITIVE_INFINITY)}`);
    console.log(
      `  ${''.padEnd(9)} answers by status ${statuses(kind)}; after the drain ${num(answeredUnits(kind))} of ${num(offeredUnits(kind))} accepted${summary.drained ? '' : ' (some were still unanswered 15 s after the run)'}`,
    );
    for (const [status, body] of kind.firstFailure)
      console.log(`  ${''.padEnd(9)} first ${status === 0 ? 'network error' : status}: ${body}`);
  }
  console.log(
    `  positions: HTTP latency is per POST of ${ratesOf(tier).positionsPerBatch}. offers: ${num(run.revisions())} answered 200 (revision of the carrier's earlier offer on that load), ` +
      `${run.offersWithoutLoad()} due before the first load of the run was created (not sent, not counted as offered).`,
  );

  const positions = spread(pushes.positions.latency.values());
  const delivered = pushes.positions.delivery();
  console.log(
    `  tour:position to watchers (POST fired → receipt): p50 ${ms(positions.p50)} p95 ${ms(positions.p95)} p99 ${ms(positions.p99)} max ${ms(positions.max)} ms; ` +
      `delivered ${percent(delivered.received, delivered.expected)} (${num(delivered.received)} of ${num(delivered.expected)} for accepted positions); ${pushes.positions.unmatched} unmatched`,
  );
  const afterCreated = spread(pushes.loads.afterCreated.values());
  const afterSent = spread(pushes.loads.afterSent.values());
  const loadsDelivered = pushes.loads.delivery();
  console.log(
    `  load:posted to dispatchers: 201 → receipt p50 ${ms(afterCreated.p50)} p99 ${ms(afterCreated.p99)} ms (negative: the push came before the 201); ` +
      `POST fired → receipt p50 ${ms(afterSent.p50)} p99 ${ms(afterSent.p99)} ms; delivered ${percent(loadsDelivered.received, loadsDelivered.expected)}; ${pushes.loads.unmatched} for loads never answered 201`,
  );

  const lag = health.lag.between(startAt, endAt);
  const worst = [...health.worst]
    .sort(([, a], [, b]) => b - a)
    .slice(0, 3)
    .map(([name, most]) => `${name} ${num(most)}`)
    .join(', ');
  const trend = lagTrend(health, startAt, endAt);
  console.log(
    `  projection lag (GET /api/health each second, stored checkpoints' events behind the head of the log): max ${lag.length ? num(Math.max(...lag)) : '-'}` +
      ` (largest per read model: ${worst || '-'}), mean of the first third ${num(trend.first, 1)}, of the last third ${num(trend.last, 1)} → ${trendWord(trend)}; ` +
      `${lag.length} samples, ${health.skipped} skipped (previous one unanswered after 1 s), ${health.failed} failed; ` +
      (summary.caughtUp === null
        ? 'not caught up 30 s after the last request was fired'
        : `every read model at the head ${num(summary.caughtUp, 1)} s after the last request was fired`),
  );
  console.log(
    `  server process CPU over the run ${num((100 * summary.serverCpuRun) / seconds)} % of a core (the node process only${server.database === 'PostgreSQL' ? "; PostgreSQL's own processes not counted" : ''}); ${threadLine(summary.serverThreadRun)}; ` +
      `this process's event-loop delay p99 ${ms(summary.loopP99)} ms (adds to the push latencies); ${summary.disconnects} sockets dropped by the server`,
  );
  console.log(
    `  TCP on this machine during the run (every process, not only this one): ${num(summary.tcp.listenOverflows)} accept-queue overflows, ` +
      `${num(summary.tcp.synRetransmits)} SYN retransmissions (each costs a client 1 s, then 2, 4, 8, 16 s more)`,
  );
  const logged = server.logLines();
  console.log(
    `  server log (level warn): ${logged.length} lines${
      logged.length
        ? `, the last: ${logged
            .slice(-3)
            .map((line) => line.slice(0, 300))
            .join(' | ')}`
        : ''
    }`,
  );

  console.log(verdict(summary, positions.p99, delivered, trend));
}

function verdict(
  summary: Summary,
  pushP99: number,
  delivered: { received: number; expected: number },
  trend: LagTrend,
): string {
  const { tier, seconds, server, run, startAt, endAt } = summary;
  const misses: string[] = [];
  for (const kind of Object.values(run.kinds)) {
    const figures = kindFigures(kind, startAt, endAt);
    if (!(figures.accepted >= ACCEPTED_SHARE * figures.offered))
      misses.push(`${kind.name} accepted ${percent(figures.accepted, figures.offered)} of offered`);
  }
  if (!(pushP99 < PUSH_P99_MS)) misses.push(`tour:position push p99 ${ms(pushP99)} ms`);
  if (!(delivered.received >= DELIVERED_SHARE * delivered.expected))
    misses.push(`delivered ${percent(delivered.received, delivered.expected)}`);
  if (trend.growing !== false)
    misses.push(`lag ${trendWord(trend)} (${num(trend.first)} → ${num(trend.last)} events)`);
  // A server kept off the CPU by other work on the machine is not the server at its best: say so beside the verdict.
  const starved =
    summary.serverThreadRun.waiting >= STARVED_PERCENT
      ? ` Caution: the server's event-loop thread waited for a CPU ${num(summary.serverThreadRun.waiting)} % of the run (machine load ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores): other work on this machine held it back.`
      : '';
  return (
    `\nVerdict tier ${tier.id} (${tier.name}) on ${server.database}, ${seconds} s: sustained ${misses.length ? `NO (${misses.join('; ')})` : 'YES'}` +
    ` [bars: accepted >= ${ACCEPTED_SHARE * 100} % of offered per kind, push p99 < ${PUSH_P99_MS} ms, delivered >= ${DELIVERED_SHARE * 100} %, lag not growing].${starved}`
  );
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
