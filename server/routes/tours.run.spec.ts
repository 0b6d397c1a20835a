// @postgres: the tour tables, the positions' trail and the ETA read in SQL
import t from 'tap';
import { Role } from '../../domain/permissions.ts';
import { tourPositionsStream, tourStream } from '../../domain/tours/tour.types.ts';
import { member, organization, superadmin } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { CHICAGO } from '../testing/loadBodies.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * A tour on the road: the carrier assigns one of its drivers, the driver dispatches it, the
 * positions it sends record the arrival at the pickup and the departure (which puts the tour In
 * Transit), the trail and the ETA; and what a tour under way no longer allows.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);

/** A shipper, a carrier with its driver Dan Driver, and a second carrier with its own driver. */
const parties = async () => {
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const driver = await member(app, platform, carrier.organizationId!, Role.Driver, {
    name: 'Dan Driver',
  });
  const carrierB = await organization(app, platform, 'Carrier');
  const otherDriver = await member(app, platform, carrierB.organizationId!, Role.Driver);
  return { shipper, carrier, driver, carrierB, otherDriver, rivals: [carrierB] };
};

t.test("the carrier assigns its own driver; the tour is on that driver's list only", async (t) => {
  const { carrier, driver, carrierB, otherDriver, ...rest } = await parties();
  const { tourId } = await steps.tourAt('confirmed', { ...rest, carrier, driver });
  const events = await watchEvents(platform.store);

  t.match((await as(carrier).get('/api/tours/assignees')).body, [
    { id: driver.userId, name: 'Dan Driver' },
  ]);
  t.equal(
    (await as(carrier).post(`/api/tours/${tourId}/assign/${otherDriver.userId}`)).status,
    404,
    "another carrier's driver",
  );
  t.equal(
    (await as(carrierB).post(`/api/tours/${tourId}/assign/${driver.userId}`)).status,
    404,
    'the tour of the carrier that won, for the carrier that lost',
  );
  await events.expect(t, [], { message: 'the refused assignments appended nothing' });

  t.equal((await as(carrier).post(`/api/tours/${tourId}/assign/${driver.userId}`)).status, 200);
  await events.expect(t, [
    {
      type: 'TourAssigned',
      stream: tourStream(tourId),
      data: { tourId, assigneeId: driver.userId },
    },
    { type: 'TourStatusChanged', stream: tourStream(tourId), data: { to: 2 } },
    'TourEventAdded',
  ]);
  t.match((await as(driver).get('/api/tours/assigned')).body.data, [
    { id: tourId, status: 2, statusName: 'Ready for pickup', driver: { name: 'Dan Driver' } },
  ]);
  t.equal((await as(otherDriver).get('/api/tours/assigned')).body.total, 0);
  t.equal((await as(otherDriver).get(`/api/tours/${tourId}`)).status, 404);
});

t.test('the driver dispatches; the shipper does not, and no status is skipped', async (t) => {
  const { shipper, carrier, driver, rivals } = await parties();
  const { tourId } = await steps.tourAt('assigned', { shipper, carrier, driver, rivals });
  const events = await watchEvents(platform.store);

  t.equal(
    (await as(carrier).post(`/api/tours/${tourId}/positions`, { latitude: 41, longitude: -87 }))
      .status,
    403,
    'positions come from the driver',
  );
  t.equal(
    (await as(shipper).put(`/api/tours/${tourId}/status`, { status: 3 })).status,
    403,
    'the shipper does not dispatch',
  );
  t.equal(
    (await as(driver).put(`/api/tours/${tourId}/status`, { status: 9 })).status,
    409,
    'Ready for pickup cannot jump to In Transit',
  );
  await events.expect(t, [], { message: 'the refused changes appended nothing' });

  t.equal(
    (await as(driver).put(`/api/tours/${tourId}/status`, { status: 3, message: 'Rolling' })).status,
    200,
  );
  await events.expect(t, [
    {
      type: 'TourStatusChanged',
      stream: tourStream(tourId),
      data: { to: 3, message: 'Rolling', party: 'driver' },
    },
    'TourEventAdded',
  ]);
  t.match((await as(shipper).get(`/api/tours/${tourId}`)).body, { status: 3 });
});

t.test(
  "the driver's positions: arrival and departure at the pickup, In Transit, the trail and the ETA",
  async (t) => {
    const { shipper, carrier, driver, rivals } = await parties();
    const otherShipper = await organization(app, platform, 'Shipper');
    const { tourId } = await steps.tourAt('dispatched', { shipper, carrier, driver, rivals });
    const events = await watchEvents(platform.store);

    const badBatch = await as(driver).post(`/api/tours/${tourId}/positions`, [
      { latitude: 200, longitude: 0 },
    ]);
    t.equal(badBatch.status, 400);
    await events.expect(t, [], { message: 'the refused batch appended nothing' });

    const start = Date.now() - 60_000;
    const at = (seconds: number) => new Date(start + seconds * 1000).toISOString();
    // Near the pickup in Chicago: in, jittering about, then away towards Indianapolis.
    const batch = [
      { latitude: 41.95, longitude: -87.7, speed: 30, recordedAt: at(0) },
      {
        latitude: CHICAGO.latitude + 0.001,
        longitude: CHICAGO.longitude,
        speed: 2,
        recordedAt: at(10),
      },
      {
        latitude: CHICAGO.latitude + 0.0012,
        longitude: CHICAGO.longitude + 0.0005,
        speed: 0,
        recordedAt: at(20),
      },
      { latitude: 41.7, longitude: -87.5, speed: 55, heading: 140, recordedAt: at(30) },
    ];
    const posted = await as(driver).post(`/api/tours/${tourId}/positions`, batch);
    t.equal(posted.status, 202, posted.text);
    t.equal(posted.body.accepted, 4);
    await events.expect(t, [
      {
        type: 'PositionsRecorded',
        stream: tourPositionsStream(tourId),
        data: { tourId, source: 'driver' },
      },
      { type: 'TourEventAdded', stream: tourStream(tourId) },
      { type: 'TourEventAdded', stream: tourStream(tourId) },
      { type: 'TourStatusChanged', stream: tourStream(tourId), data: { to: 9 } },
      'TourEventAdded',
    ]);
    t.ok(
      await platform.runner.waitFor(
        ['tourPositions', 'marketplace'],
        await platform.store.committedHead(),
        30_000,
      ),
      'the read models caught up',
    );

    const types = (await as(shipper).get(`/api/tours/${tourId}/events`)).body.map(
      (event: { type: string }) => event.type,
    );
    t.ok(
      types.includes('arrived') && types.includes('departed'),
      `arrival and departure recorded: ${types.join(', ')}`,
    );
    t.equal(
      types.filter((type: string) => type === 'arrived').length,
      1,
      'one arrival despite the jitter',
    );
    t.equal(
      (await as(shipper).get(`/api/tours/${tourId}`)).body.status,
      9,
      'leaving the first pickup moved the tour to In Transit',
    );

    const track = (await as(shipper).get(`/api/tours/track/${tourId}`)).body;
    t.equal(track.trail.length, 4);
    t.match(track.lastPosition, { latitude: 41.7, longitude: -87.5, speed: 55 });
    t.ok(track.eta && Date.parse(track.eta.at) > Date.now(), 'an ETA in the future');
    t.ok(track.eta.remainingMiles > 100, `remaining ${track.eta.remainingMiles} miles`);
    t.equal((await as(otherShipper).get(`/api/tours/track/${tourId}`)).status, 404);
  },
);

t.test(
  'a tour in transit: its load cannot be cancelled, its driver cannot be deleted',
  async (t) => {
    const { shipper, carrier, driver, rivals } = await parties();
    const { loadId } = await steps.tourAt('inTransit', { shipper, carrier, driver, rivals });
    const events = await watchEvents(platform.store);

    t.equal(
      (
        await as(shipper).put(`/api/loads/${loadId}/status`, {
          status: 7,
          message: 'Changed plans',
        })
      ).status,
      409,
      'a load in transit cannot be cancelled',
    );
    t.equal(
      (await as(carrier).delete('/api/users/deleteDriver', { id: driver.userId })).status,
      409,
      'a driver on an open tour cannot be deleted',
    );
    await events.expect(t, [], { message: 'the refusals appended nothing' });
    t.match((await as(shipper).get(`/api/loads/${loadId}`)).body, { status: 6 });
  },
);

t.test('the Superadmin lists every tour; another shipper lists none', async (t) => {
  const admin = await superadmin(app, platform);
  const otherShipper = await organization(app, platform, 'Shipper');
  const { shipper, carrier, driver, rivals } = await parties();
  const { tourId } = await steps.tourAt('confirmed', { shipper, carrier, driver, rivals });
  const all = (await as(admin).get('/api/tours', { pageSize: '100' })).body;
  t.ok(
    all.data.some((tour: { id: string }) => tour.id === tourId),
    "the Superadmin's list holds the tour",
  );
  t.equal((await as(shipper).get('/api/tours')).body.total, 1, 'its shipper lists it');
  t.equal((await as(otherShipper).get('/api/tours')).body.total, 0);
});
