/**
 * Lighthouse's phone profile (its default: mobile emulation, simulated slow 4G and a 4x slower CPU)
 * on one page, in a Chromium of its own. Used by T10 in `npm run bench` only, never by the tests.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Scores = Record<(typeof CATEGORIES)[number], number | null>;

/** Starts Chromium with a DevTools port for Lighthouse to drive; resolves with the port once it listens. */
function startChromium(executable: string, args: string[]) {
  const profile = mkdtempSync(path.join(tmpdir(), 'lighthouse-'));
  // A process group of its own: Chromium's helpers (zygote, crash handler) go with it at the end.
  const child = spawn(
    executable,
    [...args, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const port = new Promise<number>((resolve, reject) => {
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(output);
      if (listening) resolve(Number(listening[1]));
    });
    child.once('exit', (code) =>
      reject(new Error(`Chromium exited (${code}) before it listened: ${output.slice(-500)}`)),
    );
  });
  const stop = async () => {
    // Still running: neither an exit code nor the signal that ended it (waiting then would never end).
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        child.kill();
      }
      await exited;
    }
    // A helper still writing into the profile as it goes made the removal fail with ENOTEMPTY and
    // end the whole run: try again for a while, and leave the directory behind rather than fail.
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch (error) {
      console.warn(`    (Chromium's profile ${profile} not removed: ${(error as Error).message})`);
    }
  };
  return { port, stop };
}

/**
 * The four category scores (0 to 1) of `url` (a category Lighthouse could not score is null), and
 * Lighthouse's benchmark index of the machine: its CPU slowdown of 4 assumes a fast desktop (about
 * 1,000 and up); on a machine that scores far lower the performance score is pessimistic.
 */
export async function lighthouseScores(
  url: string,
  executable: string,
  args: string[],
  /**
   * A signed-in page: run in the same Chromium before Lighthouse (say, a sign-in through the page);
   * Lighthouse then keeps the origin's storage, and with it the session. The prepare step itself
   * empties the HTTP cache, the cache storage and the service workers so the visit is still a first one.
   */
  prepare?: (port: number) => Promise<void>,
): Promise<{ scores: Scores; benchmarkIndex: number | null }> {
  const chromium = startChromium(executable, args);
  try {
    const port = await chromium.port;
    if (prepare) await prepare(port);
    const result = await lighthouse(url, {
      port,
      logLevel: 'error',
      output: 'json',
      onlyCategories: [...CATEGORIES],
      ...(prepare ? { disableStorageReset: true } : {}),
    });
    const categories = result?.lhr.categories ?? {};
    const scores = Object.fromEntries(
      CATEGORIES.map((id) => [id, categories[id]?.score ?? null]),
    ) as Scores;
    return { scores, benchmarkIndex: result?.lhr.environment.benchmarkIndex ?? null };
  } finally {
    await chromium.stop();
  }
}
