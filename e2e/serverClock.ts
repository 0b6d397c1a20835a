/**
 * A journey's server whose clock the journey moves forward, for what only the passing of hours
 * shows (a truck held at a dock past its free time). Preloaded into the server's process
 * (`serverClockEnv()` in the server's environment): `Date` there reads the real clock plus an
 * offset, 0 until the journey calls `moveServerClock`, which writes the new offset to a file and
 * signals the process (SIGUSR2) to read it. Everything of the server that reads the time (the
 * commands, the tokens, the observed-time window, the schedulers) then lives at the moved time
 * together; the browser is moved alike with Playwright's clock.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const FILE_ENV = 'E2E_SERVER_CLOCK_FILE';

if (process.env[FILE_ENV] && !(globalThis as { __serverClock?: true }).__serverClock) {
  (globalThis as { __serverClock?: true }).__serverClock = true;
  const file = process.env[FILE_ENV];
  const RealDate = Date;
  let offset = 0;
  const now = () => RealDate.now() + offset;
  // `new Date()` is now, moved; `new Date(x)` is x; `Date()` is now's text, as the real one.
  const MovedDate = function (this: unknown, ...args: unknown[]) {
    if (!new.target) return new RealDate(now()).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [now()] : args, new.target);
  } as unknown as DateConstructor;
  Object.setPrototypeOf(MovedDate, RealDate);
  Object.defineProperty(MovedDate, 'prototype', { value: RealDate.prototype });
  Object.defineProperty(MovedDate, 'now', { value: now, writable: true, configurable: true });
  globalThis.Date = MovedDate;
  process.on('SIGUSR2', () => {
    offset = Number(readFileSync(file, 'utf8')) || 0;
  });
}

/** The environment of a server whose clock `moveServerClock` moves. */
export function serverClockEnv(): Record<string, string> {
  const file = join(mkdtempSync(join(tmpdir(), 'freight-e2e-clock-')), 'offset');
  writeFileSync(file, '0');
  const preload = `--import=${new URL('./serverClock.ts', import.meta.url).pathname}`;
  return {
    [FILE_ENV]: file,
    NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(' '),
  };
}

/** Removes what `serverClockEnv` wrote. */
export function removeServerClock(env: Record<string, string>): void {
  if (env[FILE_ENV]) rmSync(dirname(env[FILE_ENV]), { recursive: true, force: true });
}

/**
 * Moves the clock of the server started with `env` (its process id in its data folder's lock
 * file) to `offsetMs` ahead of the real one, and waits until `serverTime` (the server's own
 * reading of the time, e.g. a fresh access token's iat) says it moved.
 */
export async function moveServerClock(
  server: { dataDir: string },
  env: Record<string, string>,
  offsetMs: number,
  serverTime: () => Promise<number>,
): Promise<void> {
  writeFileSync(env[FILE_ENV]!, String(Math.round(offsetMs)));
  const pid = Number(readFileSync(join(server.dataDir, 'server.pid'), 'utf8'));
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const at = await serverTime();
    if (Math.abs(at - (Date.now() + offsetMs)) < 60_000) return;
    if (Date.now() > deadline)
      throw new Error(`the server's clock did not move: it reads ${new Date(at).toISOString()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
