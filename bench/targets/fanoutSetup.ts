/**
 * Set-up for T9 and T9b: the forked watchers process, a bare socket.io broadcaster to compare with,
 * a tour on the road with its driver, and a second server process on the same database.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Server } from 'socket.io';
import { bearer, member, organization } from '../../server/identity/fixtures.ts';
import { tourRoom } from '../../server/realtime/rooms.ts';
import { loadBody } from '../../server/testing/loadBodies.ts';
import type { BenchApp } from '../setup.ts';
import type { WatcherCommand, WatcherReply } from './watchers.ts';

const root = path.resolve(import.meta.dirname, '../..');

export type Position = {
  latitude: number;
  longitude: number;
  speed: number;
  heading: number;
  recordedAt: string;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Watchers = {
  ask(command: WatcherCommand): Promise<WatcherReply>;
  stop(): Promise<void>;
};

/** Forks watchers.ts on this Node; commands go one at a time, each answered in order. */
export async function startWatchers(): Promise<Watchers> {
  const child = fork(fileURLToPath(new URL('./watchers.ts', import.meta.url)), [], {
    execPath: process.execPath,
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies = (): Promise<WatcherReply> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`the watchers process exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (reply) => {
        child.off('exit', onExit);
        resolve(reply as WatcherReply);
      });
    });
  const ready = await replies();
  if (ready.type !== 'ready') throw new Error(`the watchers process said ${ready.type} first`);
  let queue: Promise<unknown> = Promise.resolve();
  return {
    ask(command) {
      const answer = queue.then(() => {
        const reply = replies();
        child.send(command);
        return reply;
      });
      queue = answer.catch(() => undefined);
      return answer;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}

/** A bare socket.io server (no auth, no adapter) whose clients join a tour room with `tour:watch`, as ours do. */
export async function bareBroadcaster() {
  const server = createHttpServer();
  const io = new Server(server, { serveClient: false });
  io.on('connection', (socket) => {
    socket.on('tour:watch', async (payload: { tourId: string }, ack: (answer: unknown) => void) => {
      await socket.join(tourRoom(payload.tourId));
      ack({ ok: true });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** The payload the notifier sends for a PositionRecorded. */
    broadcast(tourId: string, position: Position) {
      io.to(tourRoom(tourId)).emit('tour:position', { tourId, ...position });
      return true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        io.close(() => resolve());
      }),
  };
}

export type RoadTour = { tourId: string; shipperToken: string; driverToken: string };

/** A tour Dispatched with its driver through the real API; its shipper watches it. */
export async function roadTour({ app, platform }: BenchApp): Promise<RoadTour> {
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const driver = await member(app, platform, carrier.organizationId!, 4);
  const inject = async (method: 'POST' | 'PUT', url: string, token: string, payload?: object) => {
    const response = await app.inject({
      method,
      url,
      headers: bearer(token),
      ...(payload ? { payload } : {}),
    });
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const { id: loadId } = await inject('POST', '/api/loads', shipper.token, loadBody());
  const { id: offerId } = await inject('POST', `/api/proposal/${loadId}`, carrier.token, {
    price: 1000,
  });
  await inject('PUT', `/api/proposal/${offerId}`, shipper.token, { status: 5 });
  const caller = {
    actor: {
      userId: carrier.userId,
      organizationId: carrier.organizationId,
      roleId: 3 as const,
      permissions: [],
      sessionId: 'bench',
    },
    requestId: 'bench',
  };
  await platform.marketplace.uploadContract(
    caller,
    loadId,
    crypto.randomUUID(),
    new Date().toISOString(),
  );
  const tourId = (await platform.marketplace.loadLoad(loadId))!.tourId!;
  await inject('POST', `/api/tours/${tourId}/assign/${driver.userId}`, carrier.token);
  await inject('PUT', `/api/tours/${tourId}/status`, driver.token, { status: 3 });
  return { tourId, shipperToken: shipper.token, driverToken: driver.token };
}

export type SecondServer = { url: string; stop(): Promise<void> };

/** Another server process (server/main.ts) on the bench app's database, with its JWT secret. */
export async function secondServer(bench: BenchApp): Promise<SecondServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'freight-bench-'));
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: bench.platform.config.databaseUrl!,
      JWT_SECRET: bench.platform.config.jwtSecret,
      DEMO: '0',
      DATA_DIR: dataDir,
      CLIENT_DIR: path.join(dataDir, 'no-client'),
      LOG_LEVEL: 'warn',
      PRETTY_LOGS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(String(chunk));
    if (output.length > 100) output.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await healthy(url, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

export async function healthy(url: string, child: ChildProcess, output: string[]) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the second server exited (${child.exitCode}):\n${output.join('')}`);
    if (
      await fetch(`${url}/api/health`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline)
      throw new Error(`the second server did not start:\n${output.join('')}`);
    await sleep(200);
  }
}

export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
