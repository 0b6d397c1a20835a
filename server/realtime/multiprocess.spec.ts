// @postgres: two processes on one database (LISTEN/NOTIFY and the socket.io adapter)
/**
 * Two real server processes (`server/main.ts`) on one PostgreSQL behave as one: a shipper connected
 * to process B hears of an offer made through process A; an emit made in a third process reaches B's
 * sockets through the PostgreSQL adapter; a driver taken off a tour through A leaves the tour's room on
 * B at once; a socket on B flooding `tour:watch` is told and closed while A answers; and when the
 * process that runs the projections is killed
 * (-9) in the middle of a stream of positions, the other takes them over: every read model ends
 * equal to the log, nothing lost, nothing applied twice.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import pino from 'pino';
import { sql } from 'kysely';
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { member, organization } from '../identity/fixtures.ts';
import { startPlatform } from '../platform.ts';
import { projectionLockHolders } from '../testing/projectionLocks.ts';
import { runningTour } from '../testing/runningTour.ts';
import { openTestDatabase } from '../testing/testDatabase.ts';
import {
  expectStatus,
  httpClient,
  listen,
  postLoad,
  sleep,
  submitOffer,
  uploadContract,
  waitUntil,
  watchTour,
  type Listener,
} from './testing.ts';

if (!process.env.DATABASE_URL) {
  t.comment('two-process test skipped: DATABASE_URL is not set (it needs PostgreSQL; CI sets it)');
  t.plan(0, 'DATABASE_URL is not set: the two-process test needs a PostgreSQL server');
} else {
  await twoProcesses();
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function twoProcesses() {
  // Spawning two servers on a busy machine takes a while.
  t.setTimeout(600_000);
  const root = path.resolve(import.meta.dirname, '../..');
  const database = await openTestDatabase('postgres');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'freight-two-processes-'));
  const jwtSecret = randomBytes(48).toString('base64url');
  const adminEmail = `admin-${randomBytes(4).toString('hex')}@example.com`;
  const servers: { name: string; child: ChildProcess; output: string[]; baseUrl: string }[] = [];
  const sockets: Listener[] = [];

  async function startServer(name: string) {
    const port = await freePort();
    const child = spawn(process.execPath, ['server/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: database.url!,
        DEMO: '0',
        ADMIN_EMAIL: adminEmail,
        ADMIN_PASSWORD: 'admin-password-1',
        // The Superadmin's calls go on with the password alone (no two-factor enrolment asked).
        SUPERADMIN_TWO_FACTOR: '0',
        JWT_SECRET: jwtSecret,
        DATA_DIR: dataDir,
        CLIENT_DIR: path.join(dataDir, 'no-client'),
        LOG_LEVEL: 'warn',
        PRETTY_LOGS: '0',
        RATE_LIMIT_PER_MINUTE: '100000',
        NODE_ENV: 'test',
        // The name each process's connections show in pg_stat_activity: how this test tells who holds the projections.
        PGAPPNAME: `freight-${name}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const keep = (chunk: Buffer) => {
      output.push(String(chunk));
      if (output.length > 200) output.shift();
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const server = { name, child, output, baseUrl: `http://127.0.0.1:${port}` };
    servers.push(server);
    const started = Date.now();
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`process ${name} exited (${child.exitCode}):\n${output.join('')}`);
      const healthy = await fetch(`${server.baseUrl}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) break;
      if (Date.now() - started > 240_000)
        throw new Error(`process ${name} did not start:\n${output.join('')}`);
      await sleep(250);
    }
    t.comment(
      `process ${name} (pid ${child.pid}) listening on ${server.baseUrl} after ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return server;
  }

  // A third process: this test's own platform on the same database, projections off, for the
  // fixtures (organizations and users written through the commands) and for an emit from elsewhere.
  const config = loadConfig(
    { ...process.env, DATABASE_URL: database.url!, JWT_SECRET: jwtSecret },
    { inMemory: true, demo: false, logLevel: 'silent', prettyLogs: false, runProjections: false },
  );
  const local = await startPlatform(config, pino({ level: 'silent' }));
  const localApp = await buildApp(local);

  t.teardown(async () => {
    for (const socket of sockets) socket.close();
    for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await localApp.close();
    await local.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const a = await startServer('A');
  const b = await startServer('B');
  const httpA = httpClient(a.baseUrl);
  const httpB = httpClient(b.baseUrl);
  await localApp.listen({ port: 0, host: '127.0.0.1' });

  const shipper = await organization(localApp, local, 'Shipper', { name: 'Acme Shipping' });
  const carrier = await organization(localApp, local, 'Carrier', { name: 'Zeta Hauling' });
  const driver = await member(localApp, local, carrier.organizationId!, Role.Driver, {
    name: 'Dan Driver',
  });
  const relief = await member(localApp, local, carrier.organizationId!, Role.Driver, {
    name: 'Rita Relief',
  });
  const db = local.database.db;

  const holders = () => projectionLockHolders(db);
  const projectionCount = local.runner.projections.length;

  await t.test(
    'an offer made through process A reaches a shipper connected to process B',
    async (t) => {
      const locks = await holders();
      t.equal(
        locks['freight-A'],
        projectionCount,
        `A, started first, runs all ${projectionCount} projections`,
      );
      t.notOk(locks['freight-B'], 'B runs none while A lives');

      const shipperOnB = await listen(b.baseUrl, 'shipper on B', shipper.token);
      const carrierOnB = await listen(b.baseUrl, 'carrier on B', carrier.token);
      sockets.push(shipperOnB, carrierOnB);
      const { id: loadId } = await postLoad(httpA, shipper.token);
      await waitUntil(
        () =>
          carrierOnB.heard.some(
            (entry) => entry.event === 'load:posted' && entry.payload.id === loadId,
          ),
        15_000,
        'load:posted on B',
      );
      t.pass('a load posted through A is announced to a carrier on B');
      const offerId = await submitOffer(httpA, carrier.token, loadId, 1500);
      await waitUntil(
        () =>
          shipperOnB.heard.some(
            (entry) => entry.event === 'proposal:new' && entry.payload.proposalId === offerId,
          ),
        5000,
        'proposal:new on B',
      );
      t.match(shipperOnB.heard.find((entry) => entry.event === 'proposal:new')!.payload, {
        loadId,
        proposalId: offerId,
        carrier: { name: 'Zeta Hauling' },
        price: 1500,
      });
      t.equal(
        shipperOnB.heard.filter((entry) => entry.event === 'proposal:new').length,
        1,
        'heard once, not once per process',
      );

      // An emit made in a third process (lane alerts use this) crosses to B through the PostgreSQL adapter.
      local.realtime.emit([`user:${shipper.userId}`], 'lane:alert', { through: 'the adapter' });
      await waitUntil(
        () => shipperOnB.heard.some((entry) => entry.event === 'lane:alert'),
        5000,
        'lane:alert on B',
      );
      t.same(
        shipperOnB.heard.find((entry) => entry.event === 'lane:alert')!.payload,
        { through: 'the adapter' },
        'an emit of another process reaches a socket on B',
      );
      t.notOk(
        carrierOnB.heard.some((entry) => entry.event === 'lane:alert'),
        'and nobody else',
      );
    },
  );

  await t.test(
    "blocking an organization through process A closes its members' sockets on B at once; B refuses its tokens within seconds",
    async (t) => {
      const admin = await expectStatus(
        httpA('POST', '/api/login', null, { email: adminEmail, password: 'admin-password-1' }),
        200,
        'admin sign-in',
      );
      const rogue = await organization(localApp, local, 'Carrier', { name: 'Rogue Rigs' });
      const rogueOnB = await listen(b.baseUrl, 'blocked carrier on B', rogue.token);
      sockets.push(rogueOnB);
      t.equal(
        (await httpB('GET', '/api/profile', rogue.token)).status,
        200,
        'works on B before the block (B has its status cached)',
      );
      t.ok(rogueOnB.socket.connected, 'its socket on B is open before the block');
      const closed = new Promise<{ at: number; reason: string }>((resolve) =>
        rogueOnB.socket.once('disconnect', (reason) => resolve({ at: Date.now(), reason })),
      );
      const blockedAt = Date.now();
      await expectStatus(
        httpA('PUT', `/api/organizations/${rogue.organizationId}/status`, admin.accessToken, {
          status: 'Blocked',
        }),
        200,
        'block through A',
      );
      // The socket's close and B's refusal of the token are awaited side by side, each timed from the block.
      const refusal = (async () => {
        while (Date.now() - blockedAt < 10_000) {
          const answer = await httpB('GET', '/api/profile', rogue.token);
          if (answer.status !== 200) return { ...answer, at: Date.now() };
          await sleep(100);
        }
        return null;
      })();
      const closedAfter = await Promise.race([closed, sleep(5000).then(() => null)]);
      t.ok(
        closedAfter !== null,
        `its socket on B is closed (${closedAfter ? `${closedAfter.at - blockedAt} ms after the block was asked of A: ${closedAfter.reason}` : 'not within 5 s'})`,
      );
      const refused = await refusal;
      t.equal(refused?.status, 401, 'B refuses the access token issued before the block');
      t.equal(refused?.json.message, 'Your organization is blocked');
      t.ok(
        refused && refused.at - blockedAt < 5000,
        `within the status cache's few seconds (${refused ? refused.at - blockedAt : 'never'} ms)`,
      );
    },
  );

  await t.test(
    'a driver taken off a tour through process A leaves its room on B at once, also after auth:refresh',
    async (t) => {
      const { tourId } = await runningTour(
        httpA,
        async (who) =>
          ({ shipper: shipper.token, carrier: carrier.token, driver: driver.token })[who],
        driver.userId,
      );
      const removedOnB = await listen(b.baseUrl, 'removed driver on B', driver.token);
      const shipperOnB = await listen(b.baseUrl, 'shipper on B', shipper.token);
      sockets.push(removedOnB, shipperOnB);
      t.same(
        await watchTour(removedOnB.socket, tourId),
        { ok: true },
        'the assigned driver watches the tour on B',
      );
      t.same(
        await watchTour(shipperOnB.socket, tourId),
        { ok: true },
        'the shipper watches the tour on B',
      );
      const ofTour = (listener: Listener) =>
        listener.heard
          .filter((entry) => entry.payload?.tourId === tourId)
          .map((entry) => entry.event);
      const positionsAndChat = (listener: Listener) =>
        ofTour(listener)
          .filter((event) => event === 'tour:position' || event === 'chat:message')
          .sort();
      /** A position of `driverToken` and a chat message, through A; resolves once the shipper on B heard both. */
      const activity = async (driverToken: string, label: string) => {
        const recordedAt = new Date().toISOString();
        await expectStatus(
          httpA('POST', `/api/tours/${tourId}/positions`, driverToken, {
            latitude: 40.9,
            longitude: -86.9,
            recordedAt,
          }),
          202,
          `${label}: position`,
        );
        await expectStatus(
          httpA('POST', `/api/tours/${tourId}/chat`, shipper.token, { message: label }),
          201,
          `${label}: chat`,
        );
        await waitUntil(
          () =>
            shipperOnB.heard.some(
              (entry) => entry.event === 'tour:position' && entry.payload.recordedAt === recordedAt,
            ) &&
            shipperOnB.heard.some(
              (entry) => entry.event === 'chat:message' && entry.payload.message.text === label,
            ),
          10_000,
          `${label} heard on B`,
        );
        await sleep(200); // time for a stray delivery to show up
      };
      await activity(driver.token, 'before');
      t.same(
        positionsAndChat(removedOnB),
        ['chat:message', 'tour:position'],
        'while assigned, the driver on B hears the tour',
      );

      removedOnB.clear();
      await expectStatus(
        httpA('POST', `/api/tours/${tourId}/assign/${relief.userId}`, carrier.token),
        200,
        'reassign through A',
      );
      t.equal(
        (await httpB('GET', `/api/tours/${tourId}`, driver.token)).status,
        404,
        'B answers 404 to the removed driver',
      );
      await activity(relief.token, 'after');
      t.same(
        ofTour(removedOnB),
        [],
        'the removed driver on B hears no position, message or change of the tour',
      );

      // A token of the socket's own session (the one it connected with will do: same user and session).
      const refreshed = await removedOnB.socket
        .timeout(5000)
        .emitWithAck('auth:refresh', { token: driver.token });
      t.match(refreshed, { ok: true }, 'auth:refresh is accepted on B');
      await activity(relief.token, 'after the refresh');
      t.same(ofTour(removedOnB), [], 'after auth:refresh it still hears nothing of the tour');
      t.same(
        await watchTour(removedOnB.socket, tourId),
        { ok: false, error: 'Tour not found' },
        'and may not watch it again',
      );
    },
  );

  await t.test(
    'a socket on B emitting 2,000 tour:watch at once is told and closed; the marketplace answers on A meanwhile',
    async (t) => {
      const flooder = await listen(b.baseUrl, 'flooding driver on B', driver.token);
      sockets.push(flooder);
      const closed = new Promise<string>((resolve) =>
        flooder.socket.once('disconnect', (reason) => resolve(reason)),
      );
      let answered = 0;
      for (let index = 0; index < 2000; index += 1)
        flooder.socket.emit('tour:watch', { tourId: randomUUID() }, () => {
          answered += 1;
        });
      const reads = Promise.all(
        Array.from({ length: 20 }, () => httpA('GET', '/api/loads/carrier', carrier.token)),
      );
      t.equal(
        await Promise.race([closed, sleep(10_000).then(() => 'still open')]),
        'io server disconnect',
        'B closed the flooding socket',
      );
      const told = flooder.heard
        .filter((entry) => entry.event === 'limit:exceeded')
        .map((entry) => entry.payload);
      t.match(
        told,
        [{ limit: /^(events|inFlight)$/, reason: /^Too many/ }],
        'after telling it why',
      );
      t.ok(answered <= 8, `at most 8 of the 2,000 were answered (${answered})`);
      t.same(
        (await reads).map((answer) => answer.status),
        Array.from({ length: 20 }, () => 200),
        'a carrier reads the marketplace through A meanwhile',
      );
      t.comment(`flood on B: told '${told[0]?.limit}', ${answered} answered`);
    },
  );

  await t.test(
    'killing the process that runs the projections: the other takes over, nothing lost or applied twice',
    async (t) => {
      // A tour on the road, through A.
      const { id: loadId } = await postLoad(httpA, shipper.token);
      const offerId = await submitOffer(httpA, carrier.token, loadId, 1800);
      await expectStatus(
        httpA('PUT', `/api/proposal/${offerId}`, shipper.token, { status: 5 }),
        200,
        'accept',
      );
      await uploadContract(httpA, carrier.token, loadId);
      const tourId = (
        await db
          .selectFrom('tours_view')
          .select('id')
          .where('load_id', '=', loadId)
          .executeTakeFirstOrThrow()
      ).id as string;
      await expectStatus(
        httpA('POST', `/api/tours/${tourId}/assign/${driver.userId}`, carrier.token),
        200,
        'assign',
      );
      await expectStatus(
        httpA('PUT', `/api/tours/${tourId}/status`, driver.token, {
          status: 3,
          message: 'Rolling',
        }),
        200,
        'dispatch',
      );

      const shipperOnB = await listen(b.baseUrl, 'watcher on B', shipper.token);
      const shipperOnA = await listen(a.baseUrl, 'watcher on A', shipper.token);
      sockets.push(shipperOnB, shipperOnA);
      t.same(await watchTour(shipperOnB.socket, tourId), { ok: true });

      // Positions keep coming through B while A, which projects them, is killed.
      let sent = 0;
      let sending = true;
      const stream = (async () => {
        while (sending) {
          const batch = Array.from({ length: 5 }, (_, index) => ({
            latitude: 40.5 + (sent + index) / 100_000,
            longitude: -86.5,
            speed: 50,
            recordedAt: new Date(Date.now() - 600_000 + sent + index).toISOString(),
          }));
          await expectStatus(
            httpB('POST', `/api/tours/${tourId}/positions`, driver.token, batch),
            202,
            'positions',
          );
          sent += batch.length;
          await sleep(20);
        }
      })();
      await waitUntil(() => sent >= 100, 60_000, 'positions before the kill');
      const aClosed = new Promise<void>((resolve) =>
        shipperOnA.socket.once('disconnect', () => resolve()),
      );
      a.child.kill('SIGKILL');
      const killedAt = Date.now();
      await new Promise((resolve) => a.child.once('exit', resolve));
      await aClosed;
      t.pass(`process A killed (-9) after ${sent} positions; its socket dropped`);

      // More of everything through B while it takes over.
      const offers: string[] = [];
      for (let index = 0; index < 3; index += 1) {
        const { id } = await postLoad(httpB, shipper.token);
        offers.push(await submitOffer(httpB, carrier.token, id, 1000 + index));
      }
      await waitUntil(
        () =>
          offers.every((id) =>
            shipperOnB.heard.some(
              (entry) => entry.event === 'proposal:new' && entry.payload.proposalId === id,
            ),
          ),
        10_000,
        'offers after the kill',
      );
      t.pass('offers made through B after the kill reach the shipper on B');

      let tookOver = 0;
      for (let waited = 0; waited < 240 && tookOver !== projectionCount; waited += 1) {
        tookOver = (await holders())['freight-B'] ?? 0;
        if (tookOver !== projectionCount) await sleep(250);
      }
      t.equal(
        tookOver,
        projectionCount,
        `B runs all ${projectionCount} projections, ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`,
      );
      await sleep(1000);
      sending = false;
      await stream;

      // Every projection reaches the head of the log, and each read model equals the log.
      const head = await local.store.head();
      t.ok(
        await local.runner.waitFor(
          local.runner.projections.map((projection) => projection.name),
          head,
          60_000,
        ),
        'every projection caught up with the log',
      );
      const countOf = async (type: string) =>
        Number(
          (
            await sql<{
              n: string;
            }>`SELECT count(*)::text AS n FROM events WHERE type = ${type}`.execute(db)
          ).rows[0]!.n,
        );
      const rowsOf = async (table: string, where = sql`true`) =>
        Number(
          (
            await sql<{
              n: string;
            }>`SELECT count(*)::text AS n FROM ${sql.table(table)} WHERE ${where}`.execute(db)
          ).rows[0]!.n,
        );
      // A batch is one PositionsRecorded event: the log's positions are the ones its events carry (of
      // this tour: the earlier tests recorded positions on theirs).
      const positionsInLog = Number(
        (
          await sql<{
            n: string;
          }>`SELECT coalesce(sum(CASE WHEN type = 'PositionsRecorded' THEN jsonb_array_length(data->'positions') ELSE 1 END), 0)::text AS n
      FROM events WHERE type IN ('PositionRecorded', 'PositionsRecorded') AND data->>'tourId' = ${tourId}`.execute(
            db,
          )
        ).rows[0]!.n,
      );
      const positions = {
        log: positionsInLog,
        view: await rowsOf('tour_positions_view', sql`tour_id = ${tourId}`),
      };
      const loads = { log: await countOf('LoadPosted'), view: await rowsOf('loads_view') };
      const proposals = {
        log: await countOf('ProposalSubmitted'),
        view: await rowsOf('proposals_view'),
      };
      const users = { log: await countOf('UserRegistered'), view: await rowsOf('users_view') };
      t.equal(positions.log, sent, 'every position sent is in the log');
      t.equal(
        positions.view,
        positions.log,
        'positions: read model rows = events (a position applied twice would be a second row)',
      );
      t.equal(loads.view, loads.log, 'loads: read model = log');
      t.equal(proposals.view, proposals.log, 'proposals: read model = log');
      t.equal(users.view, users.log, 'users: read model = log');
      const positionsHeard = shipperOnB.heard.filter(
        (entry) => entry.event === 'tour:position',
      ).length;
      t.equal(
        positionsHeard,
        sent,
        'the watcher on B heard every position, before, during and after the take-over',
      );
      t.comment(
        `take-over: ${positions.log} positions (${positions.view} rows), ${loads.log} loads (${loads.view}), ${proposals.log} offers (${proposals.view}), ` +
          `${users.log} users (${users.view}); lost ${positions.log - Math.min(positions.view, positions.log)}, applied twice ${Math.max(0, positions.view - positions.log)}; ` +
          `watcher heard ${positionsHeard}/${sent} positions`,
      );
    },
  );
}
