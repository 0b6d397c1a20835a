// @postgres: parking, replaying and rebuilding read models
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pino from 'pino';
import { allProjections } from '../../projections/index.ts';
import { defineProjection } from '../../projections/projection.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { meta } from '../eventstore/eventStore.contract.ts';
import { bearer, organization, superadmin } from '../identity/fixtures.ts';
import { startPlatform } from '../platform.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { withContractCheck } from '../testing/contract.ts';
import { openTestDatabase, sqlBackends } from '../testing/testDatabase.ts';

/**
 * Read models in trouble, through HTTP against the real app: an event a read model cannot apply is
 * parked and the rest flows on, health says so, the Superadmin lists and retries it; and a read
 * model rebuilt beside the live one while it is read never shows a missing or partial row.
 */

/** A read model that cannot apply a poisoned event until the test cures it. */
let cured = false;
const probeProjection = defineProjection({
  name: 'probe',
  version: 1,
  handles: ['ProbeRecorded'],
  tables: [],
  async apply(trx, events) {
    await sql`CREATE TABLE IF NOT EXISTS probe_view (id text PRIMARY KEY, n int NOT NULL)`.execute(
      trx,
    );
    for (const { data } of events as unknown as {
      data: { id: string; n: number; poison?: boolean };
    }[]) {
      if (data.poison && !cured) throw new Error(`probe cannot apply ${data.id}`);
      await sql`INSERT INTO probe_view (id, n) VALUES (${data.id}, ${data.n}) ON CONFLICT (id) DO NOTHING`.execute(
        trx,
      );
    }
  },
});

async function start(backend: 'pglite' | 'postgres') {
  const database = backend === 'postgres' ? await openTestDatabase('postgres') : null;
  const config = loadConfig(
    { ...process.env, DATABASE_URL: database?.url ?? '' },
    { inMemory: true, demo: false, logLevel: 'silent', prettyLogs: false },
  );
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const platform = await startPlatform(config, pino({ level: 'error' }, sink), {
    projections: [...allProjections, probeProjection],
  });
  // Its answers checked against the published document, as startTestApp's are.
  const { app, contract } = await withContractCheck(() => buildApp(platform));
  await app.ready();
  return {
    app,
    platform,
    logs,
    async close() {
      await app.close();
      await platform.close();
      await database?.drop();
      contract?.assertClean();
    },
  };
}

async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

for (const backend of sqlBackends()) {
  await t.test(
    `an event a read model cannot apply is parked, and retried by the Superadmin (${backend})`,
    async (t) => {
      cured = false;
      const { app, platform, logs, close } = await start(backend);
      t.teardown(close);
      const { store, runner } = platform;
      const admin = await superadmin(app, platform);
      const carrier = await organization(app, platform, 'Carrier');
      const get = (url: string, token: string | null = admin.token) =>
        app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
      const post = (url: string, token: string | null = admin.token) =>
        app.inject({ method: 'POST', url, headers: token ? bearer(token) : {} });

      const stream = `probe-${randomUUID()}`;
      const probe = (id: string, n: number, poison = false) => ({
        type: 'ProbeRecorded',
        data: { id, n, ...(poison ? { poison } : {}) },
      });
      // The poisoned event between good ones of the same page, and more after it.
      const started = Date.now();
      await store.append(stream, [probe('a', 1), probe('poison', 2, true), probe('b', 3)], {
        expectedRevision: 'any',
        metadata: meta(),
      });
      const last = await store.append(stream, [probe('c', 4)], {
        expectedRevision: 'any',
        metadata: meta(),
      });
      t.ok(
        await runner.waitFor(['probe'], last.position, 15_000),
        'the events after the poisoned one are applied',
      );
      t.ok(Date.now() - started < 10_000, `parked within seconds (${Date.now() - started} ms)`);
      const probeRows = async () =>
        (
          await sql<{ id: string }>`SELECT id FROM probe_view ORDER BY id`.execute(
            platform.database.db,
          )
        ).rows.map((row) => row.id);
      t.same(
        await probeRows(),
        ['a', 'b', 'c'],
        'the good events before and after it are in the read model',
      );
      const [poisoned] = (await store.readStream(stream)).events.filter(
        (event) => event.data.poison,
      );

      // The real case: a position whose time PostgreSQL cannot store, appended past the HTTP checks.
      const tourId = randomUUID();
      const position = (recordedAt: string) => ({
        type: 'PositionRecorded',
        data: {
          tourId,
          latitude: 41.9,
          longitude: -87.6,
          speed: 50,
          heading: 90,
          accuracy: 5,
          source: 'driver',
          recordedAt,
        },
      });
      await store.append(`positions-${tourId}`, [position('0000-01-01T00:00:00Z')], {
        expectedRevision: 'any',
        metadata: meta(),
      });
      const goodPosition = await store.append(
        `positions-${tourId}`,
        [position(new Date().toISOString())],
        { expectedRevision: 'any', metadata: meta() },
      );
      t.ok(
        await runner.waitFor(['tourPositions'], goodPosition.position, 15_000),
        'live tracking goes on past a position it cannot store',
      );
      const trail = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM tour_positions_view WHERE tour_id = ${tourId}`.execute(
        platform.database.db,
      );
      t.equal(trail.rows[0].n, 1, 'the good position is on the trail');

      // Every other read model keeps flowing: a new organization is listed.
      const shipper = await organization(app, platform, 'Shipper', { name: 'Flowing Freight' });
      t.ok(shipper.token, 'a new organization signs in: users and organizations are current');

      const logged = logs.find(
        (entry) =>
          entry.msg === 'projection parked an event it cannot apply' &&
          entry.projection === 'probe',
      );
      t.match(
        logged,
        {
          level: 50,
          projection: 'probe',
          eventId: poisoned.id,
          type: 'ProbeRecorded',
          error: 'probe cannot apply poison',
        },
        'logged as an error',
      );

      const degraded = await until(
        async () => (await get('/api/health', null)).json(),
        (body) => body.status === 'degraded',
      );
      t.equal(degraded.status, 'degraded', 'health is degraded');
      t.equal((await get('/api/health', null)).statusCode, 200, 'and still answers 200');
      t.equal(
        degraded.readModels.find((model: { projection: string }) => model.projection === 'probe')
          .parked,
        1,
      );
      t.equal(
        degraded.readModels.find(
          (model: { projection: string }) => model.projection === 'tourPositions',
        ).parked,
        1,
      );
      t.equal(
        degraded.readModels.find(
          (model: { projection: string }) => model.projection === 'marketplace',
        ).parked,
        0,
      );

      t.equal(
        (await get('/api/admin/projections/probe/parked', null)).statusCode,
        401,
        'anonymous: 401',
      );
      t.equal(
        (await get('/api/admin/projections/probe/parked', carrier.token)).statusCode,
        403,
        'a carrier: 403',
      );
      t.equal(
        (await post(`/api/admin/projections/probe/parked/${poisoned.id}/retry`, carrier.token))
          .statusCode,
        403,
      );
      t.equal((await post('/api/admin/projections/probe/rebuild', carrier.token)).statusCode, 403);
      t.equal((await get('/api/admin/projections', carrier.token)).statusCode, 403);
      t.equal(
        (await get('/api/admin/projections/nothing/parked')).statusCode,
        404,
        'an unknown read model: 404',
      );
      t.equal(
        (await post(`/api/admin/projections/nothing/parked/${poisoned.id}/retry`)).statusCode,
        404,
      );
      t.equal((await post('/api/admin/projections/nothing/rebuild')).statusCode, 404);
      t.equal(
        (await post(`/api/admin/projections/probe/parked/${randomUUID()}/retry`)).statusCode,
        404,
        'an event that is not parked: 404',
      );
      const badId = await post('/api/admin/projections/probe/parked/not-a-uuid/retry');
      t.equal(badId.statusCode, 400);
      t.equal(badId.json().errors?.[0]?.path, 'eventId', 'the 400 names the field');

      const list = await get('/api/admin/projections/probe/parked');
      t.equal(list.statusCode, 200);
      t.equal(list.json().length, 1);
      t.match(list.json()[0], {
        eventId: poisoned.id,
        streamId: stream,
        type: 'ProbeRecorded',
        position: poisoned.position.globalPosition,
        error: 'probe cannot apply poison',
      });
      t.ok(!Number.isNaN(Date.parse(list.json()[0].at)), 'with the time it was parked');

      const models = (await get('/api/admin/projections')).json() as {
        projection: string;
        status: string;
        parked: number;
        lag: number;
        rebuild: unknown;
      }[];
      const probeModel = models.find((model) => model.projection === 'probe')!;
      t.match(probeModel, { parked: 1, rebuild: null });
      t.ok(
        ['running', 'catching-up'].includes(probeModel.status),
        `the probe runs on (${probeModel.status})`,
      );
      t.equal(models.length, allProjections.length + 1, 'every read model is listed');

      const stillFailing = await post(`/api/admin/projections/probe/parked/${poisoned.id}/retry`);
      t.equal(stillFailing.statusCode, 409, 'a retry that still fails: 409');
      t.equal(stillFailing.json().message, 'probe cannot apply poison', 'with the error');
      t.equal(
        (await get('/api/admin/projections/probe/parked')).json().length,
        1,
        'and the event stays parked',
      );

      cured = true;
      const retried = await post(`/api/admin/projections/probe/parked/${poisoned.id}/retry`);
      t.equal(retried.statusCode, 200, retried.body);
      t.same(retried.json(), { eventId: poisoned.id, applied: true });
      t.same((await get('/api/admin/projections/probe/parked')).json(), [], 'it left the list');
      t.same(await probeRows(), ['a', 'b', 'c', 'poison'], 'and is in the read model');

      // The position PostgreSQL cannot store stays unfixable: with its parked row gone, health is ok.
      await sql`DELETE FROM projection_parked_events WHERE projection = 'tourPositions'`.execute(
        platform.database.db,
      );
      const healthy = await until(
        async () => (await get('/api/health', null)).json(),
        (body) => body.status === 'ok',
      );
      t.equal(healthy.status, 'ok', 'health is ok again');
      t.ok(healthy.readModels.every((model: { parked: number }) => model.parked === 0));

      t.equal(
        logs.filter(
          (entry) =>
            entry.msg === 'projection parked an event it cannot apply' &&
            entry.projection === 'probe',
        ).length,
        1,
        'parked once',
      );
    },
  );

  await t.test(
    `the marketplace rebuilt beside the live tables while it is read (${backend})`,
    async (t) => {
      const { app, platform, close } = await start(backend);
      t.teardown(close);
      const { store, runner, database } = platform;
      const admin = await superadmin(app, platform);
      const shipper = await organization(app, platform, 'Shipper', { name: 'Steady Shipping' });
      const carrier = await organization(app, platform, 'Carrier', { name: 'Reading Hauling' });
      const get = (url: string, token: string) =>
        app.inject({ method: 'GET', url, headers: bearer(token) });
      const post = (url: string, token: string, payload?: object) =>
        app.inject({
          method: 'POST',
          url,
          headers: bearer(token),
          ...(payload ? { payload } : {}),
        });

      const loadIds: string[] = [];
      for (let i = 0; i < 20; i++) {
        const posted = await post(
          '/api/loads',
          shipper.token,
          loadBody({ refNumber: `RB-${i}`, weight: 20_000 + i }),
        );
        t.equal(posted.statusCode, 201, posted.body);
        loadIds.push(posted.json().id);
      }
      // Events no read model handles, so the rebuild has a log to go through while it is read.
      for (let i = 0; i < 20; i++) {
        await store.append(
          `filler-${randomUUID()}`,
          Array.from({ length: 1000 }, (_, n) => ({ type: 'FillerRecorded', data: { n } })),
          { expectedRevision: 'any', metadata: meta() },
        );
      }
      t.ok(
        await runner.waitFor(
          allProjections.map((projection) => projection.name),
          await store.head(),
          20_000,
        ),
      );

      const tables = allProjections.find((projection) => projection.name === 'marketplace')!.tables;
      const dump = async () => {
        const result: Record<string, string[]> = {};
        for (const table of tables) {
          result[table] = (
            await sql<{
              row: string;
            }>`SELECT row_to_json(t)::text AS row FROM ${sql.table(table)} t ORDER BY 1`.execute(
              database.db,
            )
          ).rows.map((row) => row.row);
        }
        return result;
      };
      const catalogOf = async () => ({
        oid: (
          await sql<{ oid: string }>`SELECT 'loads_view'::regclass::oid::text AS oid`.execute(
            database.db,
          )
        ).rows[0].oid,
        indexes: (
          await sql<{
            name: string;
          }>`SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public' AND tablename = ANY(${tables}::text[]) ORDER BY 1`.execute(
            database.db,
          )
        ).rows.map((row) => row.name),
      });
      const before = await dump();
      const catalogBefore = await catalogOf();
      t.equal(before.loads_view.length, 20);

      const marketplaceUrl = '/api/loads/carrier?pageSize=100';
      const expectedLoads = new Map<string, string>();
      for (const id of loadIds)
        expectedLoads.set(id, (await get(`/api/loads/${id}`, carrier.token)).body);
      const expectedPage = (await get(marketplaceUrl, carrier.token)).json();
      t.equal(expectedPage.total, 20);

      let reading = true;
      let rebuilding = false;
      let reads = 0;
      let readsWhileRebuilding = 0;
      const wrong: string[] = [];
      // Four readers at once, so some are in flight when the tables are swapped.
      const readLoop = Promise.all(
        [0, 1, 2, 3].map(async (reader) => {
          for (let i = reader * 5; reading; i++) {
            const id = loadIds[i % loadIds.length];
            const answer = await get(`/api/loads/${id}`, carrier.token);
            if (answer.statusCode !== 200 || answer.body !== expectedLoads.get(id))
              wrong.push(`GET /api/loads/${id}: ${answer.statusCode} ${answer.body.slice(0, 200)}`);
            if (i % 5 === 0) {
              const page = await get(marketplaceUrl, carrier.token);
              if (
                page.statusCode !== 200 ||
                JSON.stringify(page.json()) !== JSON.stringify(expectedPage)
              )
                wrong.push(`marketplace page: ${page.statusCode} ${page.body.slice(0, 200)}`);
            }
            reads++;
            if (rebuilding) readsWhileRebuilding++;
            await new Promise((resolve) => setImmediate(resolve));
          }
        }),
      );

      const requested = await post('/api/admin/projections/marketplace/rebuild', admin.token);
      t.equal(requested.statusCode, 202, requested.body);
      t.same(requested.json(), { projection: 'marketplace', status: 'rebuilding' });
      rebuilding = true;
      const rebuildStarted = Date.now();
      let progress: number[] = [];
      const finished = await until(
        async () => {
          const model = (await get('/api/admin/projections', admin.token))
            .json()
            .find((entry: { projection: string }) => entry.projection === 'marketplace');
          if (model.rebuild) progress.push(model.rebuild.progress);
          return model;
        },
        (model) => model.status !== 'rebuilding',
        60_000,
      );
      rebuilding = false;
      reading = false;
      t.comment(`rebuilt in ${Date.now() - rebuildStarted} ms`);
      await readLoop;
      t.equal(finished.status, 'running', 'the rebuild finished');
      t.equal(finished.rebuild, null);
      t.ok(
        progress.length > 0 && progress.every((value) => value >= 0 && value <= 1),
        `progress shown while rebuilding: ${progress.map((value) => value.toFixed(2)).join(' ')}`,
      );
      t.ok(
        readsWhileRebuilding > 0,
        `${readsWhileRebuilding} of ${reads} reads during the rebuild`,
      );
      t.same(wrong, [], 'no read saw a missing or partial row');

      const catalogAfter = await catalogOf();
      t.not(catalogAfter.oid, catalogBefore.oid, 'the tables were swapped');
      t.same(catalogAfter.indexes, catalogBefore.indexes, 'with the indexes named as before');
      t.same(await dump(), before, 'the rebuilt tables equal the old ones row for row');
      const leftovers = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM pg_namespace WHERE nspname LIKE 'rebuild_%' OR nspname LIKE 'retired_%'`.execute(
        database.db,
      );
      t.equal(leftovers.rows[0].n, 0, 'no rebuild schema is left');

      // Writes go on during a rebuild and are in the swapped-in tables.
      t.equal(
        (await post('/api/admin/projections/marketplace/rebuild', admin.token)).statusCode,
        202,
      );
      const during: string[] = [];
      for (let i = 0; i < 3; i++) {
        const posted = await post(
          '/api/loads',
          shipper.token,
          loadBody({ refNumber: `RB-late-${i}` }),
        );
        t.equal(posted.statusCode, 201, 'posting answers while the marketplace is rebuilt');
        during.push(posted.json().id);
      }
      progress = [];
      await until(
        async () =>
          (await get('/api/admin/projections', admin.token))
            .json()
            .find((entry: { projection: string }) => entry.projection === 'marketplace'),
        (model) => model.status !== 'rebuilding',
        60_000,
      );
      for (const id of during)
        t.equal(
          (await get(`/api/loads/${id}`, carrier.token)).statusCode,
          200,
          'a load posted during the rebuild is there after it',
        );
      t.equal((await get(marketplaceUrl, carrier.token)).json().total, 23);
    },
  );

  t.test(`${backend}: each reactor's lag beside the read models`, async (t) => {
    const { app, platform, close } = await start(backend);
    t.teardown(close);
    const admin = await superadmin(app, platform);
    const carrier = await organization(app, platform, 'Carrier');
    const get = (token: string) =>
      app.inject({ method: 'GET', url: '/api/admin/reactors', headers: bearer(token) });
    t.equal((await get(carrier.token)).statusCode, 403, 'the Superadmin only');
    const reactors = await until(
      async () => (await get(admin.token)).json() as { reactor: string; status: string }[],
      (list) => list.some((entry) => entry.reactor === 'webhooks' && entry.status === 'running'),
    );
    t.same(
      reactors.map((entry) => entry.reactor),
      ['laneAlerts', 'pickupCheck', 'webhooks', 'accessorialClaims', 'edi', 'invoiceDrafts'],
      'every reactor, by name',
    );
    t.match(
      reactors.find((entry) => entry.reactor === 'webhooks'),
      {
        status: 'running',
        position: { transactionId: String, globalPosition: String },
        lag: Number,
        updatedAt: String,
      },
    );
    const models = (
      await app.inject({
        method: 'GET',
        url: '/api/admin/projections',
        headers: bearer(admin.token),
      })
    ).json() as Record<string, unknown>[];
    t.same(
      Object.keys(models[0]!).sort(),
      ['lag', 'parked', 'position', 'projection', 'rebuild', 'status', 'version'],
      'the read models answer as before',
    );
  });
}
