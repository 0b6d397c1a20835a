// @postgres: the poller's lock and the tours it reads
import t from 'tap';
import { bearer, member, multipart, organization, PDF } from '../identity/fixtures.ts';
import { CHICAGO, INDIANAPOLIS, loadBody } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';
import { startFakeSamsara } from '../integrations/eld/testing/fakeSamsara.ts';

/**
 * The ELD poller and the pickup truck check on real tours, set up through HTTP as in
 * marketplace.flow.spec.ts: a load, an offer naming an ELD truck, acceptance, contract, driver,
 * Dispatched; the carrier's Samsara fleet answered by a local fake.
 */
// Starting the app (PGlite in WASM) and three tours' worth of HTTP take a while on a busy machine.
t.setTimeout(300_000);
const TOKEN = 'samsara-token-Poll1';
const seconds = (n: number) => new Date(Date.now() + n * 1000).toISOString();
const samsara = await startFakeSamsara({
  token: TOKEN,
  vehicles: [
    // About 20 miles north of the pickup (Chicago), on the way.
    {
      id: '1',
      name: 'T-12',
      latitude: 42.17,
      longitude: -87.8,
      heading: 170,
      speed: 52,
      time: seconds(-20),
    },
    {
      id: '2',
      name: 'T-40',
      latitude: INDIANAPOLIS.latitude,
      longitude: INDIANAPOLIS.longitude,
      heading: 0,
      speed: 0,
      time: seconds(-20),
    },
  ],
});
// The timer is out of the way: the test runs the passes itself.
const { app, platform, close } = await startTestApp({
  samsaraBaseUrl: samsara.url,
  eldPollMs: 3_600_000,
});
t.teardown(async () => {
  await close();
  await samsara.close();
});
const poller = platform.eld.poller!;

const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Shipping' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Zeta Hauling' });
const driver = await member(app, platform, carrier.organizationId!, 4, { name: 'Dan Driver' });

const get = (url: string, token: string) =>
  app.inject({ method: 'GET', url, headers: bearer(token) });
const send = async (method: 'PUT' | 'POST', url: string, token: string, payload?: object) => {
  const response = await app.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload ? { payload } : {}),
  });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response;
};

/**
 * A load from Chicago to Indianapolis, won by the carrier with an offer naming `truckName` (or
 * none), its driver assigned (with `tractorNumber` when given), its tour Dispatched.
 */
async function dispatchedTour(truckName: string | null, tractorNumber?: string): Promise<string> {
  const { id: loadId } = (await send('POST', '/api/loads', shipper.token, loadBody())).json();
  const { id: offerId } = (
    await send('POST', `/api/proposal/${loadId}`, carrier.token, {
      price: 1500,
      message: 'Ready',
      ...(truckName ? { eldTruckName: truckName } : {}),
    })
  ).json();
  await send('PUT', `/api/proposal/${offerId}`, shipper.token, { status: 5 });
  const form = multipart(undefined, { contract: { content: PDF, filename: 'signed.pdf' } });
  form.payload = Buffer.concat([
    Buffer.from(
      `--${form.headers['content-type']!.split('boundary=')[1]}\r\nContent-Disposition: form-data; name="status"\r\n\r\n14\r\n`,
    ),
    form.payload,
  ]);
  const signed = await app.inject({
    method: 'POST',
    url: `/api/proposal/load/${loadId}`,
    headers: { ...form.headers, ...bearer(carrier.token) },
    payload: form.payload,
  });
  if (signed.statusCode !== 200) throw new Error(`contract: ${signed.body}`);
  const tourId = (await platform.marketplace.loadLoad(loadId))!.tourId!;
  await send(
    'POST',
    `/api/tours/${tourId}/assign/${driver.userId}`,
    carrier.token,
    tractorNumber ? { tractorNumber } : undefined,
  );
  await send('PUT', `/api/tours/${tourId}/status`, driver.token, { status: 3, message: 'Rolling' });
  return tourId;
}

const settle = async () =>
  platform.runner.waitFor(
    ['marketplace', 'tourPositions'],
    await platform.store.committedHead(),
    10_000,
  );

/** The tour's timeline note whose message matches, once the pickup check has written it. */
async function noteMatching(tourId: string, pattern: RegExp, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await settle();
    const events = (await get(`/api/tours/${tourId}/events`, shipper.token)).json() as Array<{
      type: string;
      message: string;
      user: unknown;
    }>;
    const note = events.find((event) => event.type === 'note' && pattern.test(event.message));
    if (note || Date.now() > deadline) return note ?? null;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const installed = await send('POST', '/api/organization-services', carrier.token, {
  serviceId: 'samsara',
  clientSecret: TOKEN,
});
const serviceId = installed.json().organizationServiceData.organizationServiceId as string;
const tourId = await dispatchedTour('T-12');

t.test(
  'a Dispatched tour gets its ELD truck position, once per change, through the driver path',
  async (t) => {
    samsara.requests.length = 0;
    const first = await poller.pass();
    t.match(
      first,
      { services: 1, tours: 1, recorded: 1 },
      'one service asked, one position recorded',
    );
    t.equal(samsara.requests.length, 1, 'one provider call');
    await settle();
    const track = (await get(`/api/tours/track/${tourId}`, shipper.token)).json();
    t.match(
      track.lastPosition,
      { latitude: 42.17, longitude: -87.8, speed: 52, heading: 170 },
      'the shipper sees the truck',
    );
    t.equal(track.trail.length, 1);
    const rows = await platform.database.db
      .selectFrom('tour_positions_view')
      .select(['source', 'recorded_at'])
      .where('tour_id', '=', tourId)
      .execute();
    t.same(
      rows.map((row) => row.source),
      ['eld'],
      'recorded as an ELD position',
    );
    t.equal(
      new Date(rows[0]!.recorded_at).toISOString(),
      new Date(samsara.vehicles[0]!.time!).toISOString(),
      'dated when the ELD reported it',
    );

    const again = await poller.pass();
    t.match(again, { recorded: 0, unchanged: 1 }, 'an unchanged position is skipped');
    samsara.vehicles[0]!.time = seconds(-5);
    t.match(
      await poller.pass(),
      { recorded: 0, unchanged: 1 },
      'a newer report of the same place is skipped too',
    );
  },
);

t.test(
  'arriving at the pickup: the geofence arrival, then the pickup check verifies the booked truck',
  async (t) => {
    Object.assign(samsara.vehicles[0]!, {
      latitude: CHICAGO.latitude + 0.001,
      longitude: CHICAGO.longitude,
      speed: 3,
      time: seconds(0),
    });
    t.match(await poller.pass(), { recorded: 1 });
    const note = await noteMatching(tourId, /^Truck (not )?verified at pickup/);
    t.ok(note, 'the check wrote its note in the timeline');
    t.match(
      note?.message,
      /^Truck verified at pickup: the booked carrier's ELD truck T-12 is at the pickup, \d+ m from Acme Paper Mill \(Samsara\)$/,
    );
    t.equal(note?.user, null, 'written by the system, not a person');
    const events = (await get(`/api/tours/${tourId}/events`, shipper.token)).json() as Array<{
      type: string;
    }>;
    t.equal(events.filter((event) => event.type === 'arrived').length, 1, 'one arrival');
    const stored = await platform.database.db
      .selectFrom('eld_pickup_checks')
      .selectAll()
      .where('tour_id', '=', tourId)
      .executeTakeFirstOrThrow();
    t.equal(stored.verified, true);
    const { events: log } = await platform.store.readStream(`tour-${tourId}`);
    const arrival = log.find(
      (event) =>
        event.type === 'TourEventAdded' && (event.data as { type: string }).type === 'arrived',
    )!;
    t.equal(
      await platform.eld.pickupCheck!.check({
        tourId,
        stopId: (arrival.data as { stopId: string }).stopId,
        eventId: arrival.id,
      }),
      null,
      'checked once per tour',
    );
  },
);

t.test('leaving the pickup moves the tour In Transit; the poller follows it there', async (t) => {
  Object.assign(samsara.vehicles[0]!, {
    latitude: 41.75,
    longitude: -87.55,
    speed: 48,
    time: seconds(30),
  });
  t.match(await poller.pass(), { recorded: 1 });
  await settle();
  t.equal((await get(`/api/tours/${tourId}`, shipper.token)).json().status, 9, 'In Transit');
  Object.assign(samsara.vehicles[0]!, {
    latitude: 41.5,
    longitude: -87.3,
    speed: 60,
    time: seconds(60),
  });
  t.match(await poller.pass(), { recorded: 1 }, 'In Transit tours are polled too');
  await settle();
  t.equal((await get(`/api/tours/track/${tourId}`, shipper.token)).json().trail.length, 4);
});

t.test(
  "a truck that is not at the pickup when the driver's phone says it arrived: not verified",
  async (t) => {
    const other = await dispatchedTour('T-40');
    samsara.requests.length = 0;
    const pass = await poller.pass();
    t.equal(
      samsara.requests.length,
      1,
      'one provider call for the organization, whatever the number of its tours',
    );
    t.match(pass, { tours: 2 });
    // The phone of the driver at the dock; the booked truck T-40 is in Indianapolis.
    const atDock = await app.inject({
      method: 'POST',
      url: `/api/tours/${other}/positions`,
      headers: bearer(driver.token),
      payload: [
        {
          latitude: CHICAGO.latitude,
          longitude: CHICAGO.longitude + 0.001,
          speed: 0,
          recordedAt: seconds(1),
        },
      ],
    });
    t.equal(atDock.statusCode, 202, atDock.body);
    const note = await noteMatching(other, /^Truck (not )?verified at pickup/);
    t.match(
      note?.message,
      /^Truck not verified at pickup: the booked carrier's ELD truck T-40 is 1\d\d\.\d miles from Acme Paper Mill \(Samsara\)$/,
    );
    const stored = await platform.database.db
      .selectFrom('eld_pickup_checks')
      .select('verified')
      .where('tour_id', '=', other)
      .executeTakeFirstOrThrow();
    t.equal(stored.verified, false);
  },
);

t.test('a truck the ELD does not know, and a refused token, leave the tours alone', async (t) => {
  const unknown = await dispatchedTour('T-99');
  const pass = await poller.pass();
  t.match(pass, { tours: 3, missing: 1 }, 'no such truck: nothing recorded for it');
  const rows = await platform.database.db
    .selectFrom('tour_positions_view')
    .select('id')
    .where('tour_id', '=', unknown)
    .execute();
  t.equal(rows.length, 0);

  samsara.queue({ status: 401, body: { message: 'Token revoked' } });
  const refused = await poller.pass();
  t.match(refused, { failed: 1, recorded: 0 });
  samsara.requests.length = 0;
  t.match(await poller.pass(), { failed: 1 }, 'the service is left alone for a while');
  t.equal(samsara.requests.length, 0, 'without asking the provider again');
  t.ok(serviceId);
});

t.test(
  'a report dated outside the last 7 days and the next 5 minutes is dropped, not recorded',
  async (t) => {
    // A quarter of an hour on: the refused service's back-off above has run out.
    const later = new Date(Date.now() + 15 * 60_000);
    const at = (minutes: number) => new Date(later.getTime() + minutes * 60_000).toISOString();
    const broken = await dispatchedTour('T-77');
    const truck = {
      id: '77',
      name: 'T-77',
      latitude: 41.2,
      longitude: -87.2,
      heading: 90,
      speed: 40,
      time: '0000-01-01T00:00:00Z',
    };
    samsara.vehicles.push(truck);
    const positions = () =>
      platform.database.db
        .selectFrom('tour_positions_view')
        .select('recorded_at')
        .where('tour_id', '=', broken)
        .execute();
    for (const time of ['0000-01-01T00:00:00Z', at(-8 * 24 * 60), at(10)]) {
      truck.time = time;
      t.match(await poller.pass(later), { outOfRange: 1, recorded: 0 }, `${time}: dropped`);
    }
    await settle();
    t.equal((await positions()).length, 0, 'nothing on the trail');
    truck.time = at(-1);
    t.match(
      await poller.pass(later),
      { outOfRange: 0, recorded: 1 },
      'a sane time again is recorded',
    );
    await settle();
    t.same(
      (await positions()).map((row) => new Date(row.recorded_at).toISOString()),
      [at(-1)],
    );
  },
);

t.test(
  'an offer that names no ELD truck: the poller follows the tractor number the assignment recorded',
  async (t) => {
    const later = new Date(Date.now() + 15 * 60_000);
    const untracked = await dispatchedTour(null);
    const tour = await dispatchedTour(null, 'NS-318');
    samsara.vehicles.push({
      id: '318',
      name: 'ns-318',
      latitude: 39.1,
      longitude: -86.5,
      heading: 0,
      speed: 61,
      time: new Date(later.getTime() - 60_000).toISOString(),
    });
    await platform.runner.waitFor(['trust'], await platform.store.committedHead(), 10_000);
    const pass = await poller.pass(later);
    t.match(pass, { recorded: 1 }, 'the truck named as the tractor is recorded');
    await settle();
    const positionsOf = (tourId: string) =>
      platform.database.db
        .selectFrom('tour_positions_view')
        .select(['latitude', 'longitude', 'source'])
        .where('tour_id', '=', tourId)
        .execute();
    t.match(await positionsOf(tour), [{ latitude: 39.1, longitude: -86.5, source: 'eld' }]);
    t.same(await positionsOf(untracked), [], 'neither an ELD truck nor a tractor: not followed');
  },
);
