/**
 * T9 and T9b: a driver's position POST fanned out to the sockets of the browsers watching the tour.
 *
 * The watchers are socket.io clients in a forked process (watchers.ts) that notes when each
 * position was heard; this process keeps when each was sent, by its `recordedAt`, which is unique
 * per position. Latency is the receipt time minus the send time, both read from the machine's clock.
 * Positions are sent on a fixed schedule whatever the answers take (a driver's phone does not wait
 * for the previous position to fan out), and a position counts as delivered once per socket.
 */
import { bearer } from '../../server/identity/fixtures.ts';
import { compare, fmt, percentile, quick, report, wallClock } from '../lib.ts';
import { type Backend, startBenchApp } from '../setup.ts';
import {
  bareBroadcaster,
  type Position,
  type RoadTour,
  roadTour,
  secondServer,
  startWatchers,
  type Watchers,
} from './fanoutSetup.ts';

/** Full size: the target's 1,000 watchers x 10 positions/s; quick: a fifth of the watchers. */
const WATCHERS = quick ? 200 : 1000;
const RATE = 10;
const SECONDS = quick ? 2 : 5;
const RUNS = quick ? 1 : 3;
/** After the last send, how long deliveries may keep arriving before the rest count as lost... */
const DRAIN_MS = 10_000;
/** ...unless none arrived for this long: a stall of the notifier is latency, not loss, so it is generous. */
const QUIET_MS = 3000;
/** The T9 allowance over the raw broadcast's p99. */
const ALLOWANCE_MS = 60;

/** Latencies over every delivery; `first99` over each position's first delivery (the path without the fan-out's spread). */
type FanoutFigures = {
  p50: number;
  p99: number;
  first99: number;
  delivered: number;
  deliveries: number;
  expected: number;
  sendFailures: number;
};
/** Where watchers connect and what they watch. */
type Watched = { url: string; token: string | null; tourId: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// An hour back and one millisecond apart: each position's `recordedAt` names it, across runs too.
const firstRecordedAt = Date.now() - 3_600_000;
let positionsMade = 0;
/** Between Chicago and Indianapolis, far from both stops: no arrival is recorded, only the position. */
const nextPosition = (): Position => ({
  latitude: 40.9,
  longitude: -86.9,
  speed: 55,
  heading: 140,
  recordedAt: new Date(firstRecordedAt + positionsMade++).toISOString(),
});

/** T9: a driver's position POST to 1,000 watching browsers, against a raw socket.io broadcast to as many. */
export async function t9(backend: Backend) {
  const bench = await startBenchApp(backend);
  const [watchers, bare, road] = await Promise.allSettled([
    startWatchers(),
    bareBroadcaster(),
    roadTour(bench),
  ]);
  try {
    if (watchers.status === 'rejected') throw watchers.reason;
    if (bare.status === 'rejected') throw bare.reason;
    if (road.status === 'rejected') throw road.reason;
    const tour = road.value;
    const raw = bare.value;
    const result = await compare(
      () =>
        fanout(watchers.value, { url: raw.url, token: null, tourId: tour.tourId }, (position) =>
          raw.broadcast(tour.tourId, position),
        ),
      () =>
        fanout(
          watchers.value,
          { url: bench.url, token: tour.shipperToken, tourId: tour.tourId },
          (position) => postPosition(bench.url, tour, position),
        ),
      RUNS,
    );
    const met =
      result.ours.p99 <= result.baseline.p99 + ALLOWANCE_MS && result.ours.delivered >= 0.95;
    report(
      'T9',
      `position fan-out, ${fmt(WATCHERS)} watchers x ${RATE}/s (${backend})`,
      result.ours.deliveries
        ? (result.baseline.p99 + ALLOWANCE_MS) / Math.max(1, result.ours.p99)
        : 0,
      1,
      `ratio = (raw p99 + ${ALLOWANCE_MS} ms) / ours p99; ours ${figures(result.ours)}; raw socket.io broadcast ${figures(result.baseline)}`,
      met,
    );
  } finally {
    if (bare.status === 'fulfilled') await bare.value.close();
    if (watchers.status === 'fulfilled') await watchers.value.stop();
    await bench.close();
  }
}

/**
 * T9b: watchers on a second server process, positions POSTed to the first, both on one PostgreSQL;
 * against watchers and POSTs on the first process alone (the second stays up, idle).
 */
export async function t9b() {
  const name = `position fan-out across two processes, ${fmt(WATCHERS)} watchers x ${RATE}/s (postgres)`;
  if (!process.env.DATABASE_URL) {
    console.log(`T9b ${name}: skipped, needs DATABASE_URL`);
    return;
  }
  const bench = await startBenchApp('postgres');
  // The second process takes seconds to start: the tour and the watchers are made meanwhile.
  const [second, watchers, tour] = await Promise.allSettled([
    secondServer(bench),
    startWatchers(),
    roadTour(bench),
  ]);
  try {
    if (second.status === 'rejected') throw second.reason;
    if (watchers.status === 'rejected') throw watchers.reason;
    if (tour.status === 'rejected') throw tour.reason;
    const post = (position: Position) => postPosition(bench.url, tour.value, position);
    const watched = { token: tour.value.shipperToken, tourId: tour.value.tourId };
    const result = await compare(
      () => fanout(watchers.value, { url: bench.url, ...watched }, post),
      () => fanout(watchers.value, { url: second.value.url, ...watched }, post),
      RUNS,
    );
    const ratio = result.ours.deliveries
      ? (2 * result.baseline.p99) / Math.max(1, result.ours.p99)
      : 0;
    report(
      'T9b',
      name,
      ratio,
      1,
      `ratio = 2 x one-process p99 / two-process p99; watchers on B, POSTs to A: ${figures(result.ours)}; one process: ${figures(result.baseline)}`,
      ratio >= 1 && result.ours.delivered >= 0.95,
    );
  } finally {
    if (watchers.status === 'fulfilled') await watchers.value.stop();
    if (second.status === 'fulfilled') await second.value.stop();
    await bench.close();
  }
}

const figures = (f: FanoutFigures) =>
  `p50 ${fmt(f.p50, 1)} ms p99 ${fmt(f.p99, 1)} ms (first socket p99 ${fmt(f.first99, 1)} ms), ${fmt(f.deliveries)}/${fmt(f.expected)} delivered (${fmt(f.delivered * 100, 1)} %)${f.sendFailures ? `, ${f.sendFailures} sends failed` : ''}`;

/**
 * One run: connects the watchers, sends RATE positions a second for SECONDS seconds, waits for the
 * deliveries to stop coming, and closes the watchers. `send` resolves false when a send failed.
 */
async function fanout(
  watchers: Watchers,
  watched: Watched,
  send: (position: Position) => Promise<boolean> | boolean,
): Promise<FanoutFigures> {
  const connected = await watchers.ask({ type: 'connect', ...watched, count: WATCHERS });
  if (connected.type !== 'connected')
    throw new Error(`watchers answered ${connected.type} to connect`);
  if (connected.failures.length)
    console.log(
      `    ${WATCHERS - connected.watching} of ${WATCHERS} watchers could not watch: ${connected.failures.slice(0, 3).join('; ')}`,
    );
  const sentAt = new Map<string, number>();
  const sends: (Promise<boolean> | boolean)[] = [];
  await paced(RATE * SECONDS, RATE, () => {
    const position = nextPosition();
    sentAt.set(position.recordedAt, wallClock());
    sends.push(send(position));
  });
  const sendFailures = (await Promise.all(sends)).filter((ok) => !ok).length;
  const expected = WATCHERS * sentAt.size;
  await drained(watchers, expected);
  const collected = await watchers.ask({ type: 'collect' });
  await watchers.ask({ type: 'close' });
  if (collected.type !== 'collected')
    throw new Error(`watchers answered ${collected.type} to collect`);
  const latencies: number[] = [];
  const firsts: number[] = [];
  for (const [recordedAt, times] of Object.entries(collected.heard)) {
    const sent = sentAt.get(recordedAt);
    if (sent === undefined) continue;
    for (const at of times) latencies.push(at - sent);
    firsts.push(Math.min(...times) - sent);
  }
  return {
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    first99: percentile(firsts, 0.99),
    delivered: latencies.length / expected,
    deliveries: latencies.length,
    expected,
    sendFailures,
  };
}

/** Calls `fire` `total` times, `rate` a second, on a fixed schedule. */
async function paced(total: number, rate: number, fire: () => void) {
  const start = performance.now();
  for (let index = 0; index < total; index++) {
    const wait = start + (index * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    fire();
  }
}

/** Waits until every delivery arrived, or none arrived for QUIET_MS, or DRAIN_MS passed. */
async function drained(watchers: Watchers, expected: number) {
  const deadline = Date.now() + DRAIN_MS;
  let last = -1;
  let lastChange = Date.now();
  while (Date.now() < deadline) {
    const counted = await watchers.ask({ type: 'count' });
    const deliveries = counted.type === 'counted' ? counted.deliveries : 0;
    if (deliveries >= expected) return;
    if (deliveries !== last) {
      last = deliveries;
      lastChange = Date.now();
    } else if (Date.now() - lastChange > QUIET_MS) return;
    await sleep(100);
  }
}

/** The driver's POST of one position; true when accepted. */
async function postPosition(url: string, tour: RoadTour, position: Position): Promise<boolean> {
  try {
    const response = await fetch(`${url}/api/tours/${tour.tourId}/positions`, {
      method: 'POST',
      headers: { ...bearer(tour.driverToken), 'content-type': 'application/json' },
      body: JSON.stringify(position),
    });
    await response.arrayBuffer();
    return response.status === 202;
  } catch {
    return false;
  }
}
