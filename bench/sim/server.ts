/**
 * The server under load: `server/main.ts` in its own process (as `npm start` runs it, demo off) on
 * a fresh data folder and a free port, on PGlite or on a fresh PostgreSQL database that is dropped
 * afterwards. Its CPU time is read from /proc so the figures can be set against it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type Backend = { kind: 'pglite' } | { kind: 'postgres'; adminUrl: string };

export type SimServer = {
  url: string;
  pid: number;
  adminEmail: string;
  adminPassword: string;
  database: 'PGlite' | 'PostgreSQL';
  backendLabel: string;
  /** Warnings and errors the server logged (LOG_LEVEL=warn), most recent last. */
  logLines(): string[];
  /** CPU seconds (user + system) the server process has used so far, every thread. */
  cpuSeconds(): number;
  /** Seconds its main thread (the event loop) has run, and waited runnable for a CPU taken by others. */
  mainThread(): ThreadTimes;
  stop(): Promise<void>;
};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no free port')),
      );
    });
  });

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the PostgreSQL server of `adminUrl`; the server migrates it on start. */
async function createDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `freight_sim_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withClient(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      ).then(() => undefined),
  };
}

const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process, in seconds (fields 14 and 15 of /proc/<pid>/stat). */
function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return Number.NaN;
  }
}

export type ThreadTimes = { running: number; waiting: number };

/**
 * The scheduler's account of a process's main thread (/proc/<pid>/task/<pid>/schedstat: ns on a CPU,
 * ns runnable but waiting for one). Waiting time is the machine's doing, not the server's.
 */
function threadTimes(pid: number): ThreadTimes {
  try {
    const [running, waiting] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8')
      .trim()
      .split(' ')
      .map(Number);
    return { running: running / 1e9, waiting: waiting / 1e9 };
  } catch {
    return { running: Number.NaN, waiting: Number.NaN };
  }
}

export async function startServer(backend: Backend): Promise<SimServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'freight-sim-'));
  const database = backend.kind === 'postgres' ? await createDatabase(backend.adminUrl) : null;
  const adminEmail = 'sim-admin@freight.local';
  const adminPassword = randomBytes(12).toString('base64url');
  const lines: string[] = [];
  let partial = '';
  const child: ChildProcess = spawn(process.execPath, ['server/main.ts'], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: '0',
      LOG_LEVEL: 'warn',
      PRETTY_LOGS: '0',
      DATABASE_URL: database?.url ?? '',
      RATE_LIMIT_PER_MINUTE: '1000000000',
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      // The Superadmin's calls go on with the password alone (no two-factor enrolment asked).
      SUPERADMIN_TWO_FACTOR: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const complete = text.split('\n');
    partial = complete.pop() ?? '';
    lines.push(...complete.filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  // A simulation that dies (Ctrl-C, a crash) takes its server and data folder with it.
  const killOnExit = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);

  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => {
        child.once('exit', resolve);
        setTimeout(resolve, 20_000);
      });
    }
    process.removeListener('exit', killOnExit);
    killOnExit();
    await database?.drop();
  };

  const url = `http://127.0.0.1:${port}`;
  try {
    await untilHealthy(url, child, lines);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    pid: child.pid!,
    adminEmail,
    adminPassword,
    database: database ? 'PostgreSQL' : 'PGlite',
    backendLabel: database
      ? `PostgreSQL (fresh database ${new URL(database.url).pathname.slice(1)} on ${new URL(database.url).host})`
      : 'PGlite (embedded, in DATA_DIR)',
    logLines: () => [...lines],
    cpuSeconds: () => processCpuSeconds(child.pid!),
    mainThread: () => threadTimes(child.pid!),
    stop,
  };
}

/** Waits for GET /api/health to answer 200 (migrations and projections started). */
async function untilHealthy(url: string, child: ChildProcess, lines: string[]) {
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the server exited with ${child.exitCode}:\n${lines.join('\n')}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline)
      throw new Error(`the server did not start in 180 s:\n${lines.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Machine-wide TCP counters (all processes): accept-queue overflows and SYN retransmissions show
 * connections the server was too busy to accept, which cost the client 1, 3, 7, 15, 31 s.
 */
export function tcpCounters(): { listenOverflows: number; synRetransmits: number } {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('TcpExt:'));
    const names = lines[0].split(/\s+/);
    const values = lines[1].split(/\s+/).map(Number);
    const field = (name: string) => values[names.indexOf(name)] ?? Number.NaN;
    return { listenOverflows: field('ListenOverflows'), synRetransmits: field('TCPSynRetrans') };
  } catch {
    return { listenOverflows: Number.NaN, synRetransmits: Number.NaN };
  }
}
