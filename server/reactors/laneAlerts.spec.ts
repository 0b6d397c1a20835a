// @postgres: the alert reactor's lock and checkpoint
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import {
  bearer,
  member,
  organization,
  PASSWORD,
  superadmin,
  type Member,
} from '../identity/fixtures.ts';
import { createUser } from '../commands/users.ts';
import {
  CHICAGO,
  GARY,
  inHours,
  INDIANAPOLIS,
  loadBody,
  LOS_ANGELES,
  stop,
} from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';
import { loadStream } from '../../domain/loads/load.types.ts';
import { listReactorCheckpoints } from '../../storage/checkpoints.ts';
import { openDatabase } from '../db/database.ts';
import { meta } from '../eventstore/eventStore.contract.ts';
import { createPostgresEventStore } from '../eventstore/postgres/postgresEventStore.ts';
import {
  startLaneAlerts,
  type LaneAlertOptions,
  type LaneAlert,
  type LaneAlerts,
  type RealtimeEmitter,
} from './laneAlerts.ts';

/**
 * Lane alerts on the real app: carriers save searches over HTTP, a shipper posts loads over HTTP,
 * and what goes to the socket server (the outside boundary here) is recorded. E-mails land in the outbox.
 */
const { app, platform, close } = await startTestApp();
/** The lane alerts of this process: the platform's, until a test stops them and starts others. */
let alerts: LaneAlerts = platform.laneAlerts!;
t.teardown(async () => {
  await alerts.stop();
  await close();
});

type Emitted = { rooms: string[]; event: string; payload: LaneAlert };
const recorder = (into: Emitted[]): RealtimeEmitter => ({
  emit: (rooms, event, payload) =>
    void (event === 'lane:alert' && into.push({ rooms, event, payload: payload as LaneAlert })),
});
const emitted: Emitted[] = [];
// Record the platform's lane alerts on their way to socket.io (which still sends them on).
const socketEmit = platform.realtime.emit.bind(platform.realtime);
platform.realtime.emit = (rooms, event, payload) => {
  recorder(emitted).emit(rooms, event, payload);
  socketEmit(rooms, event, payload);
};

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Paper' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Lane Hauling' });
const dispatcher = await member(app, platform, carrier.organizationId!, Role.Carrier, {
  name: 'Dee Dispatch',
});
const driver = await member(app, platform, carrier.organizationId!, Role.Driver);
const flatbeds = await organization(app, platform, 'Carrier', { name: 'Flatbed Freight' });
const westCoast = await organization(app, platform, 'Carrier', { name: 'West Coast Lines' });
// Saves its search while Active, then is blocked (a Pending organization cannot save one at all: 403).
const newcomer = await organization(app, platform, 'Carrier', { name: 'Newcomer Trucking' });
const { userId: pendingUserId, position } = await createUser(
  platform,
  {
    email: 'pending-dispatcher@example.com',
    username: 'pending-dispatcher',
    name: 'Pat Pending',
    phone: '555-555-0109',
    roleId: Role.Carrier,
    organizationId: carrier.organizationId,
    password: PASSWORD,
    status: 1,
  },
  null,
  new Date().toISOString(),
);
await platform.runner.waitFor(['users'], position);

const send = (method: 'POST' | 'PUT', url: string, token: string, payload: unknown) =>
  app.inject({ method, url, headers: bearer(token), payload: payload as object });
async function saveSearch(user: Member, body: Record<string, unknown>): Promise<string> {
  const response = await send('POST', '/api/searches', user.token, body);
  if (response.statusCode !== 201)
    throw new Error(`saving ${JSON.stringify(body)}: ${response.statusCode} ${response.body}`);
  return response.json().id;
}
async function postLoad(
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; guid: string }> {
  const response = await send('POST', '/api/loads', shipper.token, loadBody(overrides));
  if (response.statusCode !== 201)
    throw new Error(`posting a load: ${response.statusCode} ${response.body}`);
  return response.json();
}
const emailsTo = async (user: { email: string }) =>
  (
    (
      await app.inject({ method: 'GET', url: '/api/admin/outbox', headers: bearer(admin.token) })
    ).json() as { to: string; subject: string; text: string }[]
  )
    .filter((mail) => mail.to === user.email)
    .reverse();
const roomsOf = (list: Emitted[]) => list.flatMap((entry) => entry.rooms).sort();
const area = (place: { latitude: number; longitude: number }, radius: number) => ({
  latitude: place.latitude,
  longitude: place.longitude,
  radius,
});

const chicagoVans = await saveSearch(carrier, {
  name: 'Chicago vans',
  origin: area(CHICAGO, 50),
  equipment: [5],
});
// Would take a load out of Indianapolis (within 200 miles of Chicago), but hauls flatbeds only.
await saveSearch(flatbeds, {
  name: 'Chicago flatbeds',
  origin: area(CHICAGO, 200),
  equipment: [1],
});
await saveSearch(westCoast, {
  name: 'LA to Indy',
  origin: area(LOS_ANGELES, 200),
  destination: area(INDIANAPOLIS, 50),
});
await saveSearch(newcomer, { name: 'Any 48 ft van', equipment: [5] });
const blocked = await app.inject({
  method: 'PUT',
  url: `/api/organizations/${newcomer.organizationId}/status`,
  headers: bearer(admin.token),
  payload: { status: 'Blocked' },
});
if (blocked.statusCode !== 200)
  throw new Error(`blocking ${newcomer.organizationId}: ${blocked.statusCode} ${blocked.body}`);

const handled = async () =>
  t.ok(await alerts.waitFor(await platform.store.committedHead()), 'the lane alerts caught up');

t.test(
  'a matching load alerts the Active carrier users of that organization at once, and by e-mail',
  async (t) => {
    const load = await postLoad();
    await handled();
    t.same(
      roomsOf(emitted),
      [`user:${carrier.userId}`, `user:${dispatcher.userId}`].sort(),
      'one alert each to the two carrier users; not the driver, the Pending user, other lanes or a blocked organization',
    );
    t.notOk(
      roomsOf(emitted).includes(`user:${driver.userId}`) ||
        roomsOf(emitted).includes(`user:${pendingUserId}`),
    );
    const { event, payload } = emitted[0]!;
    t.equal(event, 'lane:alert');
    t.same(payload, {
      searchId: chicagoVans,
      searchName: 'Chicago vans',
      load: {
        id: load.id,
        guid: load.guid,
        pickup: {
          address: CHICAGO.address,
          city: 'Chicago',
          state: 'IL',
          latitude: CHICAGO.latitude,
          longitude: CHICAGO.longitude,
        },
        dropoff: {
          address: INDIANAPOLIS.address,
          city: 'Indianapolis',
          state: 'IN',
          latitude: INDIANAPOLIS.latitude,
          longitude: INDIANAPOLIS.longitude,
        },
        pickupTime: payload.load.pickupTime,
        equipment: [5],
        weight: 42000,
      },
    });
    t.ok(
      Math.abs(Date.parse(payload.load.pickupTime) - Date.parse(inHours(48))) < 60_000,
      'the pickup time of the load',
    );

    for (const user of [carrier, dispatcher]) {
      const mails = await emailsTo(user);
      t.equal(mails.length, 1, `one e-mail to ${user.email}`);
      t.equal(
        mails[0]!.subject,
        `New load on your lane: ${load.guid} Chicago, IL to Indianapolis, IN`,
      );
      t.match(mails[0]!.text, `- ${load.guid}: Chicago, IL to Indianapolis, IN, pickup `);
      t.match(mails[0]!.text, '48 Foot Dry Van, 42,000 lbs (saved search "Chicago vans")');
    }
    for (const user of [driver, flatbeds, westCoast, newcomer])
      t.same(await emailsTo(user), [], `no e-mail to ${user.email}`);
  },
);

t.test('a load outside every lane alerts nobody', async (t) => {
  emitted.length = 0;
  // Out of Indianapolis: 165 miles from Chicago, outside the 50-mile origin; inside the flatbed
  // carrier's 200 miles, but a reefer; and not out of Los Angeles.
  await postLoad({
    loadEquipment: [3],
    locations: [stop(INDIANAPOLIS, 1, 'Hoosier Print Works'), stop(CHICAGO, 4, 'Acme Paper Mill')],
  });
  await handled();
  t.same(emitted, [], 'no socket alert');
  for (const user of [carrier, dispatcher])
    t.equal((await emailsTo(user)).length, 1, `no new e-mail to ${user.email}`);
  for (const user of [flatbeds, westCoast, newcomer]) t.same(await emailsTo(user), []);
});

t.test('a paused load that reopens alerts again', async (t) => {
  const load = await postLoad({
    locations: [stop(GARY, 1, 'Gary Steel'), stop(INDIANAPOLIS, 4, 'Hoosier Print Works')],
  });
  await handled();
  emitted.length = 0;
  t.ok(await platform.marketplace.expireLoad(load.id, inHours(25)), 'the offer expired: paused');
  await handled();
  t.same(emitted, [], 'pausing alerts nobody');
  const extended = await send('PUT', '/api/loads', shipper.token, {
    loadId: load.id,
    newExpiration: inHours(30),
    expirationTimezone: 'America/Chicago',
  });
  t.equal(extended.statusCode, 200, extended.body);
  await handled();
  t.same(
    emitted.map((entry) => [entry.rooms[0], entry.payload.load.guid]).sort(),
    [
      [`user:${carrier.userId}`, load.guid],
      [`user:${dispatcher.userId}`, load.guid],
    ].sort(),
    'back on the market: Gary is 25 miles from Chicago',
  );
});

t.test(
  'a search saved, deleted or an organization blocked after earlier loads counts for the next load at once',
  async (t) => {
    // The loads before have been matched already: what the reactor keeps of the searches must follow the log.
    const gary = () =>
      postLoad({
        loadEquipment: [1],
        locations: [stop(GARY, 1, 'Gary Steel'), stop(INDIANAPOLIS, 4, 'Hoosier Print Works')],
      });
    emitted.length = 0;
    await gary();
    await handled();
    t.same(
      roomsOf(emitted),
      [`user:${flatbeds.userId}`],
      'a flatbed out of Gary: the flatbed carrier only',
    );
    emitted.length = 0;
    const garyFlatbeds = await saveSearch(westCoast, {
      name: 'Gary flatbeds',
      origin: area(GARY, 50),
      equipment: [1],
    });
    await gary();
    await handled();
    t.same(
      roomsOf(emitted),
      [`user:${flatbeds.userId}`, `user:${westCoast.userId}`].sort(),
      'the search saved just before alerts the next load',
    );
    emitted.length = 0;
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/searches/${garyFlatbeds}`,
      headers: bearer(westCoast.token),
    });
    t.equal(deleted.statusCode, 204, deleted.body);
    const blocking = await app.inject({
      method: 'PUT',
      url: `/api/organizations/${flatbeds.organizationId}/status`,
      headers: bearer(admin.token),
      payload: { status: 'Blocked' },
    });
    t.equal(blocking.statusCode, 200, blocking.body);
    await gary();
    await handled();
    t.same(emitted, [], 'a deleted search and a blocked organization alert nobody');
    const activating = await app.inject({
      method: 'PUT',
      url: `/api/organizations/${flatbeds.organizationId}/status`,
      headers: bearer(admin.token),
      payload: { status: 'Active' },
    });
    t.equal(activating.statusCode, 200, activating.body);
    await gary();
    await handled();
    t.same(roomsOf(emitted), [`user:${flatbeds.userId}`], 'active again: alerted again');
  },
);

/** Lane alerts as another start of this process would run them, telling the platform's socket server. */
const laneAlertsHere = (): LaneAlertOptions => ({
  database: platform.database,
  store: platform.store,
  mailer: platform.mailer,
  logger: platform.logger,
  projections: platform.runner,
  realtime: () => platform.realtime,
  flushEveryMs: 0,
});
const alertedLoads = (list: Emitted[]) =>
  list.map((entry) => [entry.rooms[0], entry.payload.load.id] as const).sort();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test(
  'stopped, then started again: a load posted meanwhile alerts once; one cancelled meanwhile, or a bad event, alerts nobody',
  async (t) => {
    await handled();
    await alerts.stop();
    emitted.length = 0;
    const meanwhile = await postLoad({ weight: 7000 });
    // An event no alert can be made of (a load without details), between the others: skipped, and
    // the events around it are handled once.
    const badLoadId = randomUUID();
    await platform.store.append(
      loadStream(badLoadId),
      [
        {
          type: 'LoadPosted',
          data: {
            loadId: badLoadId,
            guid: 'L-BAD',
            shipperOrganizationId: shipper.organizationId,
            details: null,
          },
        },
      ],
      { expectedRevision: 'no_stream', metadata: meta() },
    );
    const cancelled = await postLoad({
      locations: [stop(GARY, 1, 'Gary Steel'), stop(INDIANAPOLIS, 4, 'Hoosier Print Works')],
    });
    const cancelling = await send('PUT', `/api/loads/${cancelled.id}/status`, shipper.token, {
      status: 7,
      message: 'Plans changed',
    });
    t.equal(cancelling.statusCode, 200, cancelling.body);
    await sleep(200);
    t.same(emitted, [], 'nobody is alerted while the lane alerts are stopped');

    alerts = await startLaneAlerts(laneAlertsHere());
    await handled();
    t.same(
      alertedLoads(emitted),
      [
        [`user:${carrier.userId}`, meanwhile.id],
        [`user:${dispatcher.userId}`, meanwhile.id],
      ].sort(),
      'back: the load posted meanwhile, once to each carrier user; not the one cancelled meanwhile (Gary would match)',
    );
    t.match(
      (await emailsTo(dispatcher)).at(-1)?.text,
      `- ${meanwhile.guid}: Chicago, IL to Indianapolis, IN`,
      'and e-mailed',
    );

    // Stopped and started again at once: they go on from their checkpoint, nothing alerted twice.
    emitted.length = 0;
    await alerts.stop();
    alerts = await startLaneAlerts(laneAlertsHere());
    const next = await postLoad({ weight: 9000 });
    await handled();
    t.same(
      alertedLoads(emitted),
      [
        [`user:${carrier.userId}`, next.id],
        [`user:${dispatcher.userId}`, next.id],
      ].sort(),
      'the next load only',
    );
  },
);

t.test(
  'their checkpoint is in reactor_checkpoints, and the admin screen shows their lag beside the other reactors',
  async (t) => {
    await postLoad();
    await handled();
    const head = await platform.store.committedHead();
    const reactors = async () =>
      (
        await app.inject({
          method: 'GET',
          url: '/api/admin/reactors',
          headers: bearer(admin.token),
        })
      ).json() as { reactor: string; status: string; lag: number; position: unknown }[];
    let listed = await reactors();
    // A page with nothing to alert moves the checkpoint within about a second.
    for (let waited = 0; waited < 5_000; waited += 100) {
      if (listed.find((entry) => entry.reactor === 'laneAlerts')?.lag === 0) break;
      await sleep(100);
      listed = await reactors();
    }
    t.same(
      listed.map((entry) => entry.reactor),
      ['laneAlerts', 'pickupCheck', 'webhooks', 'accessorialClaims', 'edi', 'invoiceDrafts'],
    );
    t.match(
      listed.find((entry) => entry.reactor === 'laneAlerts'),
      {
        status: 'running',
        lag: 0,
        position: head,
      },
    );
    t.same(
      (await listReactorCheckpoints(platform.database.db)).find((row) => row.name === 'laneAlerts')
        ?.position,
      head,
      'the row laneAlerts in reactor_checkpoints',
    );
  },
);

t.test(
  'two processes on one PostgreSQL: only the leader alerts; the other takes over when it stops',
  { skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL (DATABASE_URL)' },
  async (t) => {
    // Another process: its own connections, event store and socket server.
    const database = await openDatabase({ databaseUrl: platform.config.databaseUrl!, poolSize: 4 });
    const store = await createPostgresEventStore(database);
    const heardThere: Emitted[] = [];
    const there = await startLaneAlerts({
      ...laneAlertsHere(),
      database,
      store,
      realtime: () => recorder(heardThere),
      claimRetryMs: 100,
    });
    t.teardown(async () => {
      await there.stop();
      await store.close();
      await database.close();
    });
    t.equal(there.reactor.position(), null, 'the other process does not lead');
    emitted.length = 0;
    const first = await postLoad();
    t.ok(
      await there.waitFor(await platform.store.committedHead()),
      "waitFor in the other process: the leader's checkpoint passed the load",
    );
    t.same(
      alertedLoads(emitted),
      [
        [`user:${carrier.userId}`, first.id],
        [`user:${dispatcher.userId}`, first.id],
      ].sort(),
      'the leader alerted',
    );
    t.same(heardThere, [], 'the other did not');

    emitted.length = 0;
    await alerts.stop();
    const second = await postLoad();
    t.ok(await there.waitFor(await platform.store.committedHead(), 10_000), 'the other took over');
    t.same(
      alertedLoads(heardThere),
      [
        [`user:${carrier.userId}`, second.id],
        [`user:${dispatcher.userId}`, second.id],
      ].sort(),
      'the next load, once, from the other process',
    );
    t.same(emitted, [], 'nothing from the stopped one');
    await there.stop();
    alerts = await startLaneAlerts(laneAlertsHere());
  },
);

t.test('e-mails: at most one a minute per user, listing every alert since the last', async (t) => {
  // Take the running lane alerts out and drive others with a clock of our own.
  await alerts.stop();
  let now = Date.parse('2026-12-01T10:00:00.000Z');
  const live: Emitted[] = [];
  alerts = await startLaneAlerts({
    ...laneAlertsHere(),
    realtime: () => recorder(live),
    clock: () => new Date(now),
  });
  const caughtUp = async () => t.ok(await alerts.waitFor(await platform.store.committedHead()));
  const before = new Map(
    await Promise.all(
      [carrier, dispatcher].map(
        async (user) => [user.email, (await emailsTo(user)).length] as const,
      ),
    ),
  );
  const newEmails = async (user: Member) => (await emailsTo(user)).slice(before.get(user.email));

  const first = await postLoad();
  await caughtUp();
  t.equal((await newEmails(carrier)).length, 1, 'the first alert is e-mailed at once');

  const second = await postLoad({ weight: 1000 });
  now += 20_000;
  const third = await postLoad({
    locations: [stop(GARY, 1, 'Gary Steel'), stop(INDIANAPOLIS, 4, 'Hoosier Print Works')],
  });
  await caughtUp();
  t.equal(
    live.filter((entry) => entry.rooms[0] === `user:${carrier.userId}`).length,
    3,
    'every alert reached the socket at once',
  );
  t.equal((await newEmails(carrier)).length, 1, 'the next two wait for the minute');

  now += 30_000;
  t.equal(await alerts.flush(), 0, '50 seconds after the last e-mail: nothing is due');
  now += 10_001;
  t.equal(await alerts.flush(), 2, 'a minute after: one e-mail to each carrier user');
  t.equal(await alerts.flush(), 0, 'and nothing more');
  for (const user of [carrier, dispatcher]) {
    const mails = await newEmails(user);
    t.same(
      mails.map((mail) => mail.subject),
      [
        `New load on your lane: ${first.guid} Chicago, IL to Indianapolis, IN`,
        '2 new loads match your saved searches',
      ],
    );
    t.match(mails[1]!.text, `- ${second.guid}: Chicago, IL to Indianapolis, IN`);
    t.match(mails[1]!.text, '1,000 lbs');
    t.match(mails[1]!.text, `- ${third.guid}: Gary, IN to Indianapolis, IN`);
    t.notMatch(mails[1]!.text, first.guid, 'an alert is e-mailed once');
  }

  now += 5 * 60_000;
  const fourth = await postLoad();
  await caughtUp();
  t.same(
    (await newEmails(carrier)).map((mail) => mail.subject).at(-1),
    `New load on your lane: ${fourth.guid} Chicago, IL to Indianapolis, IN`,
    'after a quiet spell the next alert is e-mailed at once again',
  );
});
