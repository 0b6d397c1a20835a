/**
 * Benchmark helpers: every target runs its baseline and our path back to back, three times each,
 * and compares medians. Loopback only; figures are printed, never asserted.
 */
import autocannon from 'autocannon';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

export const quick = process.argv.includes('--quick');
/** Seconds of load per HTTP run. */
export const seconds = quick ? 3 : 8;

export type HttpFigures = { rps: number; p50: number; p99: number; errors: number; non2xx: number };

export async function http(options: {
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string | (() => string);
  connections?: number;
  duration?: number;
}): Promise<HttpFigures> {
  const body = options.body;
  const result = (await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...options.headers },
    connections: options.connections ?? 16,
    duration: options.duration ?? seconds,
    ...(typeof body === 'function'
      ? {
          requests: [
            { setupRequest: (request: Record<string, unknown>) => ({ ...request, body: body() }) },
          ],
        }
      : body
        ? { body }
        : {}),
  } as never)) as unknown as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  };
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Runs baseline and ours alternately `runs` times and returns the medians of each figure. */
export async function compare<F extends Record<string, number>>(
  baseline: () => Promise<F>,
  ours: () => Promise<F>,
  runs = 3,
): Promise<{ baseline: F; ours: F }> {
  const b: F[] = [];
  const o: F[] = [];
  for (let run = 0; run < runs; run++) {
    b.push(await baseline());
    o.push(await ours());
  }
  const med = (list: F[]) =>
    Object.fromEntries(
      Object.keys(list[0]!).map((key) => [key, median(list.map((figures) => figures[key]!))]),
    ) as F;
  return { baseline: med(b), ours: med(o) };
}

export type Line = {
  id: string;
  name: string;
  ratio: number;
  target: number;
  ok: boolean;
  detail: string;
};
export const lines: Line[] = [];

/** Prints `Tn name: ours/baseline = R (target >= X) ok|below` and the absolute figures. */
export function report(
  id: string,
  name: string,
  ratio: number,
  target: number,
  detail: string,
  ok = ratio >= target,
): Line {
  const line = { id, name, ratio, target, ok, detail };
  lines.push(line);
  console.log(
    `${id} ${name}: ours/baseline = ${ratio.toFixed(2)} (target >= ${target}) ${ok ? 'ok' : 'below'}`,
  );
  console.log(`    ${detail}`);
  return line;
}

/**
 * Runs `work`; with BENCH_PROFILE_DIR set, under V8's sampling profiler, written to
 * `<dir>/<name>.cpuprofile` (open it in Chrome's DevTools, Performance, or any .cpuprofile viewer).
 * The server runs in the bench's process, so the profile holds its side of the work.
 */
export async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  }
}

export const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * Milliseconds since the epoch with sub-millisecond resolution, comparable between processes on one
 * machine: each process's time origin is read from the same system clock.
 */
export const wallClock = () => performance.timeOrigin + performance.now();

/** The value below which a fraction `q` of `values` lies (nearest rank); 0 for no values. */
export function percentile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Runs `work(i)` for i < total with `concurrency` in flight; returns operations per second. */
export async function pool(
  total: number,
  concurrency: number,
  work: (index: number) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await work(next++);
    }),
  );
  return (total / (performance.now() - started)) * 1000;
}
