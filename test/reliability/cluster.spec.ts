/**
 * Three server processes (`server/main.ts`, their own DATA_DIRs, one PostgreSQL database, no
 * JWT_SECRET or SECRETS_KEY) behind a round-robin proxy without sticky sessions; a workload of loads,
 * offers, accepts and positions goes through the proxy while socket.io watchers (WebSocket only,
 * through the proxy) follow the tours; every KILL_EVERY_SECONDS the process that holds the read models
 * is killed (-9) and started again. Then:
 * - every acknowledged (2xx) load, offer, accept and position is in the read models: lost 0;
 * - no load has two accepted offers: double accepts 0;
 * - every watcher has every acknowledged position of its tour (live, or caught up after reconnecting);
 * - a token issued before the first kill works on every process; ELD credentials sealed through one
 *   process are opened by all.
 * Figures: takeover time (projection locks moving), watchers' reconnection time, pushes missed
 * before catch-up. Then SIGTERM: ready answers 503 at once, another process holds the read models
 * within 2 s, and the drained process exits 0.
 *
 * CLUSTER_SECONDS (default 60: three kills), KILL_EVERY_SECONDS (20). Needs DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { io, type Socket } from 'socket.io-client';
import t, { type Test } from 'tap';
import { Role } from '../../domain/catalog.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { member, organization } from '../../server/identity/fixtures.ts';
import { startPlatform } from '../../server/platform.ts';
import {
  expectStatus,
  httpClient,
  postLoad,
  submitOffer,
  uploadContract,
} from '../../server/realtime/testing.ts';
import { loadBody } from '../../server/testing/loadBodies.ts';
import { projectionLockHolders } from '../../server/testing/projectionLocks.ts';
import { startRoundRobinProxy } from './roundRobinProxy.ts';
import {
  freePort,
  POSTGRES_URL,
  scaled,
  sleep,
  spawnServer,
  type ServerProcess,
} from './support.ts';

/** client/src/realtime/socket.ts `CATCH_UP_AGAIN_MS` (that module is the browser's, with its state). */
const CATCH_UP_AGAIN_MS = 3000;

if (!POSTGRES_URL) {
  t.plan(0, 'DATABASE_URL is not set: the cluster test needs a PostgreSQL server');
} else {
  const adminUrl = POSTGRES_URL;
  // One test around it all: its subtests are made while it runs, whatever the waits between them.
  await t.test(
    'three processes behind a round-robin proxy, one killed (-9) every KILL_EVERY_SECONDS',
    { timeout: 900_000 },
    (t) => cluster(t, adminUrl),
  );
}

async function cluster(t: Test, adminUrl: string) {
  const seconds = scaled('CLUSTER_SECONDS', 60);
  const killEvery = scaled('KILL_EVERY_SECONDS', 20) * 1000;
  const name = `scale_cluster_${randomBytes(5).toString('hex')}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const root = mkdtempSync(path.join(tmpdir(), 'scale-cluster-'));
  // No keys in the processes' environment: the database is their one source.
  const env = {
    JWT_SECRET: '',
    SECRETS_KEY: '',
    DRAIN_DELAY_MS: '1500',
    SHUTDOWN_GRACE_MS: '5000',
    PROJECTION_LOCK_RETRY_MS: '500',
    ELD_POLL_MS: '600000',
  };

  type Node = {
    index: number;
    name: string;
    port: number;
    dataDir: string;
    server: ServerProcess | null;
  };
  const nodes: Node[] = [];
  for (let index = 0; index < 3; index += 1) {
    nodes.push({
      index,
      name: `freight-${index}`,
      port: await freePort(),
      dataDir: mkdtempSync(path.join(root, `node-${index}-`)),
      server: null,
    });
  }
  const start = async (node: Node) => {
    node.server = await spawnServer({
      port: node.port,
      databaseUrl,
      dataDir: node.dataDir,
      logFile: path.join(root, `${node.name}.log`),
      readyTimeoutMs: 240_000,
      env: { ...env, PGAPPNAME: node.name },
    });
    return node.server;
  };
  // Whatever fails from here on, no server process of this test is left behind.
  t.teardown(async () => {
    for (const node of nodes) await node.server?.kill9();
  });
  // One after the other: the first creates the keys and runs the migrations.
  for (const node of nodes) await start(node);
  const proxy = await startRoundRobinProxy(nodes.map((node) => `http://127.0.0.1:${node.port}`));
  const through = httpClient(proxy.url);
  // A request cut by a kill is an answer like any other failure here (status 0), never a thrown error.
  const http: typeof through = (...args) =>
    through(...args).catch(() => ({ status: 0, json: null }));

  // This test's own platform on the database (projections off, keys from the database): the fixtures.
  const config = loadConfig(
    {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(root, 'local'),
      JWT_SECRET: '',
      SECRETS_KEY: '',
    },
    {
      inMemory: false,
      demo: false,
      logLevel: 'silent',
      prettyLogs: false,
      runProjections: false,
    },
  );
  const local = await startPlatform(config, pino({ level: 'silent' }));
  const localApp = await buildApp(local);
  const db = local.database.db;
  const sockets: Socket[] = [];
  let finished = false;
  t.teardown(async () => {
    finished = true;
    for (const socket of sockets) {
      socket.io.reconnection(false);
      socket.disconnect();
    }
    await proxy.close();
    for (const node of nodes) await node.server?.kill9();
    await localApp.close();
    await local.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(root, { recursive: true, force: true });
  });

  const projectionCount = local.runner.projections.length;
  const holders = () => projectionLockHolders(db);
  /** Ms until every projection is held by a process other than `gone` (polled every 25 ms). */
  const takeover = async (
    gone: string,
    since: number,
    timeoutMs = 20_000,
  ): Promise<number | null> => {
    while (Date.now() - since < timeoutMs) {
      const locks = await holders();
      const held = Object.entries(locks)
        .filter(([holder]) => holder !== gone && holder.startsWith('freight-'))
        .reduce((sum, [, count]) => sum + count, 0);
      if (held >= projectionCount) return Date.now() - since;
      await sleep(25);
    }
    return null;
  };
  const holderNode = async () => {
    const locks = await holders();
    return nodes.find((node) => (locks[node.name] ?? 0) > 0) ?? nodes[0]!;
  };

  // Fixtures: two shippers, two carriers with a driver each.
  const shippers = [
    await organization(localApp, local, 'Shipper'),
    await organization(localApp, local, 'Shipper'),
  ];
  const carriers = [
    await organization(localApp, local, 'Carrier'),
    await organization(localApp, local, 'Carrier'),
  ];
  const drivers = [
    await member(localApp, local, carriers[0]!.organizationId!, Role.Driver),
    await member(localApp, local, carriers[1]!.organizationId!, Role.Driver),
  ];
  const tokenBeforeKills = shippers[0]!.token;

  // ELD credentials sealed through one process (the first), read by all at the end.
  const sealedThrough = httpClient(`http://127.0.0.1:${nodes[0]!.port}`);
  await expectStatus(
    sealedThrough('POST', '/api/organization-services', carriers[0]!.token, {
      serviceId: 'simulator',
      clientId: 'fleet-a',
      clientSecret: 'sealed-by-node-0',
    }),
    201,
    'install through node 0',
  );

  // Tours on the road, each watched by its shipper through the proxy.
  type Tour = {
    id: string;
    shipper: number;
    driver: number;
    acknowledged: Set<string>;
    seq: number;
    base: number;
  };
  const tours: Tour[] = [];
  for (let index = 0; index < 4; index += 1) {
    const shipper = shippers[index % 2]!;
    const carrier = carriers[index % 2]!;
    const { id: loadId } = await postLoad(http, shipper.token);
    const offerId = await submitOffer(http, carrier.token, loadId, 1500 + index);
    await expectStatus(
      http('PUT', `/api/proposal/${offerId}`, shipper.token, { status: 5 }),
      200,
      'accept',
    );
    await uploadContract(http, carrier.token, loadId);
    let tourId: string | undefined;
    for (let i = 0; i < 100 && !tourId; i += 1) {
      tourId = (
        await db
          .selectFrom('tours_view')
          .select('id')
          .where('load_id', '=', loadId)
          .executeTakeFirst()
      )?.id as string | undefined;
      if (!tourId) await sleep(100);
    }
    await expectStatus(
      http('POST', `/api/tours/${tourId}/assign/${drivers[index % 2]!.userId}`, carrier.token),
      200,
      'assign',
    );
    await expectStatus(
      http('PUT', `/api/tours/${tourId}/status`, drivers[index % 2]!.token, {
        status: 3,
        message: 'Rolling',
      }),
      200,
      'dispatch',
    );
    tours.push({
      id: tourId!,
      shipper: index % 2,
      driver: index % 2,
      acknowledged: new Set(),
      seq: 0,
      base: Date.now() - 3_600_000 + index * 600_000,
    });
  }

  /** A watcher as the browser's client behaves (client/src/realtime/socket.ts): reconnects after any disconnection, re-joins, catches up. */
  type Watcher = {
    tour: Tour;
    heard: Set<string>;
    last: string;
    caughtUp: number;
    reconnections: number[];
    disconnectedAt: number | null;
    socket: Socket;
  };
  const watchers: Watcher[] = [];
  for (const tour of tours) {
    for (let copy = 0; copy < 2; copy += 1) {
      const token = shippers[tour.shipper]!.token;
      const socket = io(proxy.url, {
        path: '/socket.io',
        transports: ['websocket'],
        auth: { token },
        forceNew: true,
        reconnectionDelay: 250,
        reconnectionDelayMax: 1000,
        timeout: 5000,
      });
      sockets.push(socket);
      const watcher: Watcher = {
        tour,
        heard: new Set(),
        last: new Date(0).toISOString(),
        caughtUp: 0,
        reconnections: [],
        disconnectedAt: null,
        socket,
      };
      socket.on('tour:position', (position: { tourId: string; recordedAt: string }) => {
        if (position.tourId !== tour.id) return;
        watcher.heard.add(position.recordedAt);
        if (position.recordedAt > watcher.last) watcher.last = position.recordedAt;
      });
      let connectedOnce = false;
      const catchUp = async (since: string) => {
        const missed = await http(
          'GET',
          `/api/tours/${tour.id}/positions?since=${encodeURIComponent(since)}`,
          token,
        );
        if (missed.status !== 200) return;
        for (const position of missed.json as { recordedAt: string }[]) {
          if (!watcher.heard.has(position.recordedAt)) watcher.caughtUp += 1;
          watcher.heard.add(position.recordedAt);
          if (position.recordedAt > watcher.last) watcher.last = position.recordedAt;
        }
      };
      socket.on('connect', () => {
        const resumed = connectedOnce;
        connectedOnce = true;
        if (watcher.disconnectedAt !== null)
          watcher.reconnections.push(Date.now() - watcher.disconnectedAt);
        watcher.disconnectedAt = null;
        // As client/src/realtime/socket.ts: from where it stood before, now and again CATCH_UP_AGAIN_MS later.
        const since = watcher.last;
        void (async () => {
          await socket
            .timeout(5000)
            .emitWithAck('tour:watch', { tourId: tour.id })
            .catch(() => null);
          if (!resumed) return;
          await catchUp(since);
          setTimeout(() => {
            if (socket.connected) void catchUp(since);
          }, CATCH_UP_AGAIN_MS);
        })();
      });
      socket.on('disconnect', (reason) => {
        watcher.disconnectedAt ??= Date.now();
        // socket.io does not reconnect after the server closed the socket: the browser's client does.
        // Not once the test is over: a connect after the teardown would retry a closed proxy for ever.
        if (reason === 'io server disconnect')
          setTimeout(() => {
            if (!finished) socket.connect();
          }, 250);
      });
      await new Promise<void>((resolve) => {
        if (socket.connected) resolve();
        else socket.once('connect', () => resolve());
      });
      watchers.push(watcher);
    }
  }
  await sleep(500);

  // The workload.
  const acknowledged = {
    loads: new Set<string>(),
    offers: new Set<string>(),
    accepts: new Map<string, string>(),
    positions: 0,
  };
  const refused: Record<string, number> = {};
  const refuse = (what: string, status: number) => {
    const key = `${what} ${status}`;
    refused[key] = (refused[key] ?? 0) + 1;
  };
  let running = true;
  const market = async (worker: number) => {
    while (running) {
      const shipper = shippers[worker % 2]!;
      const load = await http('POST', '/api/loads', shipper.token, loadBody()).catch(() => ({
        status: 0,
        json: null,
      }));
      if (load.status !== 201) {
        refuse('load', load.status);
        await sleep(100);
        continue;
      }
      acknowledged.loads.add(load.json.id);
      // Both carriers offer; the shipper accepts both at once: one accept wins at most.
      const offers = await Promise.all(
        carriers.map((carrier, index) =>
          http('POST', `/api/proposal/${load.json.id}`, carrier.token, {
            price: 1000 + index,
            message: 'Ready',
          }).catch(() => ({ status: 0, json: null })),
        ),
      );
      const made: string[] = [];
      for (const offer of offers) {
        if (offer.status === 201) {
          acknowledged.offers.add(offer.json.id);
          made.push(offer.json.id);
        } else refuse('offer', offer.status);
      }
      const accepts = await Promise.all(
        made.map((offerId) =>
          http('PUT', `/api/proposal/${offerId}`, shipper.token, { status: 5 }).catch(() => ({
            status: 0,
            json: null,
          })),
        ),
      );
      accepts.forEach((accept, index) => {
        if (accept.status === 200) acknowledged.accepts.set(made[index]!, load.json.id);
        else refuse('accept', accept.status);
      });
    }
  };
  const positions = async (tour: Tour) => {
    const token = drivers[tour.driver]!.token;
    while (running) {
      const batch = [0, 1, 2].map(() => {
        tour.seq += 1;
        return {
          latitude: 40 + tour.seq / 100_000,
          longitude: -87 - tour.seq / 100_000,
          speed: 55,
          recordedAt: new Date(tour.base + tour.seq * 10).toISOString(),
        };
      });
      const answer = await http('POST', `/api/tours/${tour.id}/positions`, token, batch).catch(
        () => ({ status: 0, json: null }),
      );
      if (answer.status === 202) {
        for (const position of batch) tour.acknowledged.add(position.recordedAt);
        acknowledged.positions += batch.length;
      } else {
        refuse('positions', answer.status);
      }
      await sleep(150);
    }
  };

  const startedAt = Date.now();
  const work = [market(0), market(1), ...tours.map(positions)];

  // The kills: every killEvery, the holder of the read models, started again at once.
  const takeovers: number[] = [];
  const restarts: Promise<void>[] = [];
  let kills = 0;
  // Kills at killEvery, 2 × killEvery, … up to the duration (60 s: three), then the workload stops.
  for (let at = killEvery; at <= seconds * 1000; at += killEvery) {
    await sleep(Math.max(0, startedAt + at - Date.now()));
    const victim = await holderNode();
    if (!victim.server) continue;
    const killedAt = Date.now();
    const killed = victim.server;
    victim.server = null;
    await killed.kill9();
    kills += 1;
    const moved = await takeover(victim.name, killedAt);
    if (moved !== null) takeovers.push(moved);
    t.comment(
      `kill ${kills}: ${victim.name} (held the read models) killed -9; the locks moved in ${moved ?? 'never'} ms; starting it again`,
    );
    // Started again while the workload goes on; the next kill comes on time.
    restarts.push(start(victim).then(() => undefined));
  }
  running = false;
  await Promise.all(work);
  await Promise.all(restarts);
  t.comment(
    `workload: ${((Date.now() - startedAt) / 1000).toFixed(0)} s, ${kills} kills; acknowledged ${acknowledged.loads.size} loads, ${acknowledged.offers.size} offers, ${acknowledged.accepts.size} accepts, ${acknowledged.positions} positions; not acknowledged: ${JSON.stringify(refused)}; proxy: ${JSON.stringify(proxy.stats)}`,
  );
  t.ok(kills >= 1, `${kills} kill(s)`);
  t.ok(
    acknowledged.loads.size > 0 && acknowledged.positions > 0,
    'commands were acknowledged (2xx) throughout',
  );

  // The read models catch up, wherever they run now.
  const caughtUp = async () => {
    const health = await http('GET', '/api/health', null);
    return (
      health.status === 200 &&
      (health.json.readModels as { lag: number }[]).every((model) => model.lag === 0)
    );
  };
  for (let i = 0; i < 300 && !(await caughtUp()); i += 1) await sleep(100);

  await t.test(
    'lost 0: every acknowledged load, offer, accept and position is in the read models',
    async (t) => {
      const loads = new Set(
        (await db.selectFrom('loads_view').select('id').execute()).map((row) => row.id as string),
      );
      t.equal(
        [...acknowledged.loads].filter((id) => !loads.has(id)).length,
        0,
        `loads: ${acknowledged.loads.size} acknowledged, all there`,
      );
      const proposals = new Map(
        (await db.selectFrom('proposals_view').select(['id', 'status', 'load_id']).execute()).map(
          (row) => [row.id as string, row],
        ),
      );
      t.equal(
        [...acknowledged.offers].filter((id) => !proposals.has(id)).length,
        0,
        `offers: ${acknowledged.offers.size} acknowledged, all there`,
      );
      t.equal(
        [...acknowledged.accepts.keys()].filter(
          (id) => proposals.get(id)?.status !== 5 && proposals.get(id)?.status !== 14,
        ).length,
        0,
        `accepts: ${acknowledged.accepts.size} acknowledged, all accepted`,
      );
      const doubles = await sql<{
        load_id: string;
      }>`SELECT load_id FROM proposals_view WHERE status IN (5, 14) GROUP BY load_id HAVING count(*) > 1`.execute(
        db,
      );
      t.equal(doubles.rows.length, 0, 'double accepts: 0');
      let lost = 0;
      for (const tour of tours) {
        const stored = new Set(
          (
            await db
              .selectFrom('tour_positions_view')
              .select('recorded_at')
              .where('tour_id', '=', tour.id)
              .execute()
          ).map((row) => new Date(row.recorded_at as unknown as string).toISOString()),
        );
        lost += [...tour.acknowledged].filter((at) => !stored.has(at)).length;
      }
      t.equal(lost, 0, `positions: ${acknowledged.positions} acknowledged, lost ${lost}`);
    },
  );

  await t.test(
    'every watcher has every acknowledged position of its tour, live or caught up after reconnecting',
    async (t) => {
      const missing = () =>
        watchers.reduce(
          (sum, watcher) =>
            sum + [...watcher.tour.acknowledged].filter((at) => !watcher.heard.has(at)).length,
          0,
        );
      for (let i = 0; i < 150 && missing() > 0; i += 1) await sleep(100);
      t.equal(missing(), 0, `${watchers.length} watchers, positions missing: ${missing()}`);
      const reconnections = watchers
        .flatMap((watcher) => watcher.reconnections)
        .sort((a, b) => a - b);
      const caught = watchers.reduce((sum, watcher) => sum + watcher.caughtUp, 0);
      t.comment(`takeover (projection locks moving after kill -9): ${takeovers.join(', ')} ms`);
      t.comment(
        `watchers' reconnections: ${reconnections.length}; time to reconnect: median ${reconnections[Math.floor(reconnections.length / 2)] ?? '-'} ms, max ${reconnections.at(-1) ?? '-'} ms`,
      );
      t.comment(`pushes missed while disconnected and fetched by the catch-up: ${caught}`);
      t.ok(reconnections.length > 0, 'watchers on the killed processes reconnected');
    },
  );

  await t.test(
    'a token issued before the first kill works on every process; credentials sealed through one are opened by all',
    async (t) => {
      for (const node of nodes) {
        const direct = httpClient(`http://127.0.0.1:${node.port}`);
        t.equal(
          (await direct('GET', '/api/profile', tokenBeforeKills)).status,
          200,
          `${node.name} accepts the token`,
        );
        const fleet = await direct('GET', '/api/services/simulator/trucks', carriers[0]!.token);
        t.equal(fleet.status, 200, `${node.name} opens the ELD credentials sealed through node 0`);
      }
    },
  );

  await t.test(
    'SIGTERM: ready answers 503 at once, another process holds the read models within 2 s, the process exits 0',
    async (t) => {
      const victim = await holderNode();
      const direct = httpClient(`http://127.0.0.1:${victim.port}`);
      t.equal(
        (await direct('GET', '/api/health/ready', null)).status,
        200,
        `${victim.name} is ready before`,
      );
      const sentAt = Date.now();
      victim.server!.child.kill('SIGTERM');
      let ready = await direct('GET', '/api/health/ready', null).catch(() => ({
        status: 0,
        json: null,
      }));
      for (let i = 0; i < 20 && ready.status === 200; i += 1) {
        await sleep(25);
        ready = await direct('GET', '/api/health/ready', null).catch(() => ({
          status: 0,
          json: null,
        }));
      }
      t.equal(ready.status, 503, `ready answers 503 ${Date.now() - sentAt} ms after SIGTERM`);
      t.equal(ready.json?.status, 'draining');
      const moved = await takeover(victim.name, sentAt, 10_000);
      t.ok(
        moved !== null && moved <= 2000,
        `another process holds the read models ${moved} ms after SIGTERM`,
      );
      const code = await victim.server!.exited;
      t.equal(code, 0, `the drained process exits 0 (${Date.now() - sentAt} ms after SIGTERM)`);
      victim.server = null;
      const through = await http('GET', '/api/profile', tokenBeforeKills);
      t.equal(through.status, 200, 'the proxy goes on with the others');
    },
  );
}
