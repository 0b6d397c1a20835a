/**
 * Shared pieces of the reliability suite (`npm run test:reliability`): hashes of the read models,
 * the real server as a child process, a marketplace workload through the command handlers, and
 * small statistics. Nothing here mocks a part of the product.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { permissionsFor, type RoleId } from '../../domain/permissions.ts';
import { allProjections } from '../../projections/index.ts';
import type { Caller } from '../../server/commands/marketplace.ts';
import type { Actor } from '../../server/http/auth.ts';
import type { Member } from '../../server/identity/fixtures.ts';
import type { DB } from '../../storage/schema.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** The Node that runs the tests (the project's Node 24 under npm scripts) runs the servers they start too. */
export const NODE = process.execPath;
export const POSTGRES_URL = process.env.DATABASE_URL || null;

/** A number from the environment (for scaling a row up or down), else the default. */
export const scaled = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const callerOf = (user: Member, roleId: RoleId): Caller => {
  const actor: Actor = {
    userId: user.userId,
    organizationId: user.organizationId,
    roleId,
    permissions: permissionsFor(roleId),
    sessionId: randomUUID(),
  };
  return { actor, requestId: randomUUID() };
};

/** Runs `work` over `items` with at most `concurrency` at a time; results in input order. */
export async function pool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
}

export const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
};

// ---------------------------------------------------------------------------------------------
// Read-model hashes

/** Every table a projection owns (emptied and rebuilt by a reset). */
export const readModelTables = (): string[] =>
  [...new Set(allProjections.flatMap((projection) => projection.tables))].sort();

export type TableHash = { rows: number; hash: string };

/**
 * md5 of each read-model table's rows, ordered by their text. Surrogate keys drawn from a sequence
 * (bigserial) are left out: a rebuild draws new numbers for the same rows, and no screen shows them.
 */
export async function hashReadModels(
  db: Kysely<DB>,
  tables = readModelTables(),
): Promise<Map<string, TableHash>> {
  const hashes = new Map<string, TableHash>();
  for (const table of tables) {
    const { rows: columns } = await sql<{ column_name: string }>`
      SELECT column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ${table} AND coalesce(column_default, '') NOT LIKE 'nextval(%'
      ORDER BY ordinal_position`.execute(db);
    const list = sql.join(columns.map((column) => sql.ref(column.column_name)));
    const { rows } = await sql<{ rows: string; hash: string | null }>`
      SELECT count(*)::text AS rows, md5(coalesce(string_agg(r::text, E'\n' ORDER BY r::text), '')) AS hash
      FROM (SELECT ${list} FROM ${sql.table(table)}) r`.execute(db);
    hashes.set(table, { rows: Number(rows[0]!.rows), hash: rows[0]!.hash ?? '' });
  }
  return hashes;
}

/** The tables whose hash differs, with both row counts. */
export const diffHashes = (a: Map<string, TableHash>, b: Map<string, TableHash>): string[] =>
  [...new Set([...a.keys(), ...b.keys()])]
    .filter((table) => a.get(table)?.hash !== b.get(table)?.hash)
    .map((table) => `${table} (${a.get(table)?.rows ?? '-'} rows vs ${b.get(table)?.rows ?? '-'})`);

export const totalRows = (hashes: Map<string, TableHash>) =>
  [...hashes.values()].reduce((sum, entry) => sum + entry.rows, 0);

// ---------------------------------------------------------------------------------------------
// The real server as a child process

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export type ServerProcess = {
  pid: number;
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  kill9(): Promise<void>;
  /** SIGTERM, then SIGKILL after 15 s. */
  stop(): Promise<void>;
  /** The latest event-loop and memory figures of the child (see loopProbe.ts). */
  probe(): { rssBytes: number; loopP50Ms: number; loopP99Ms: number; loopMaxMs: number } | null;
};

export type ServerOptions = {
  port: number;
  databaseUrl: string | null;
  dataDir?: string;
  env?: Record<string, string>;
  logFile?: string;
  readyTimeoutMs?: number;
};

export const SERVER_ADMIN = {
  email: 'reliability-admin@example.com',
  password: 'Reliable-admin-1',
};

/**
 * `server/main.ts` in its own Node process (as `npm start` runs it, without the client build),
 * answered once GET /api/health says 200.
 */
export async function spawnServer(options: ServerOptions): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'freight-reliability-'));
  const probeFile = path.join(dataDir, `loop-probe-${options.port}.json`);
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(options.port),
    HOST: '127.0.0.1',
    DEMO: '0',
    DATA_DIR: dataDir,
    CLIENT_DIR: path.join(dataDir, 'no-client'),
    ADMIN_EMAIL: SERVER_ADMIN.email,
    ADMIN_PASSWORD: SERVER_ADMIN.password,
    LOG_LEVEL: 'warn',
    PRETTY_LOGS: '0',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    LOOP_PROBE_FILE: probeFile,
    ...options.env,
  };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(
    NODE,
    ['--import', path.join(ROOT, 'test/reliability/loopProbe.ts'), 'server/main.ts'],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : null;
  child.stdout!.on('data', (chunk) => log?.write(chunk));
  child.stderr!.on('data', (chunk) => log?.write(chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      log?.end();
      resolve(code);
    }),
  );
  const url = `http://127.0.0.1:${options.port}`;
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  for (;;) {
    if (gone)
      throw new Error(
        `the server exited before it was ready${options.logFile ? ` (log: ${options.logFile})` : ''}`,
      );
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the server did not become ready in time');
    }
    await sleep(100);
  }
  return {
    pid: child.pid!,
    url,
    child,
    exited,
    async kill9() {
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (gone) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
    probe() {
      try {
        return JSON.parse(readFileSync(probeFile, 'utf8'));
      } catch {
        return null;
      }
    },
  };
}

/** Resident memory of a process in bytes, from /proc (Linux). */
export const rssOf = (pid: number): number => {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
};

/** JSON over HTTP with a deadline: status and body, or the network error's message as status 0. */
export async function request(
  url: string,
  options: { method?: string; token?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<{ status: number; body: any; error?: string }> {
  try {
    const response = await fetch(url, {
      method: options.method ?? 'GET',
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: response.status, body };
  } catch (error) {
    return { status: 0, body: null, error: (error as Error).message };
  }
}
