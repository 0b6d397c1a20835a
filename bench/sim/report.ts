/** What the scale simulation prints: figures per window, the whole run's summary, and the verdict. */
import { availableParallelism, loadavg } from 'node:os';
import type { monitorEventLoopDelay } from 'node:perf_hooks';
import type { SimServer, ThreadTimes } from './server.ts';
import type { LoadPushes, PositionPushes } from './sockets.ts';
import { mean, ms, num, percent, spread, type Samples } from './stats.ts';
import { ratesOf, type Tier } from './tiers.ts';
import type { HealthLog, Kind, startRun } from './workload.ts';

/** The verdict's bars (T9 of the README's Performance table, for delivery). */
const ACCEPTED_SHARE = 0.95;
const PUSH_P99_MS = 1_000;
const DELIVERED_SHARE = 0.95;
/** Percent of the run the server's event-loop thread may wait for a CPU before the verdict warns of a crowded machine. */
const STARVED_PERCENT = 20;

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

export type Meters = {
  server: SimServer;
  loopWindow: ReturnType<typeof monitorEventLoopDelay>;
  lastServerCpu: number;
  lastServerThread: ThreadTimes;
  lastClientCpu: NodeJS.CpuUsage;
  lastAt: number;
};

/** The server's event-loop thread over `seconds`: percent of the time on a CPU, and waiting for one. */
export const threadShares = (
  before: ThreadTimes,
  after: ThreadTimes,
  seconds: number,
): ThreadTimes => ({
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

export function printWindow(
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

export function printSummary(summary: Summary) {
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
