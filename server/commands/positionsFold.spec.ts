// @postgres: a positions batch written only at the tour stream's revision
/**
 * The positions path decides on the tour as this process last folded it, and writes the batch only
 * while the tour's stream still stands at that revision. A tour changed since (a new driver, the
 * tour off the road) is read again before anything is written: a driver taken off the tour is
 * refused from the very next batch, and nothing of theirs reaches the log after it.
 */
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import { tourPositionsStream, tourStream } from '../../domain/tours/tour.types.ts';
import { member, organization } from '../identity/fixtures.ts';
import { runningTour } from '../testing/runningTour.ts';
import { expectStatus, login, startListeningApp } from '../realtime/testing.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
t.setTimeout(300_000);
const { platform, app, http } = await startListeningApp(t);
const shipper = await organization(app, platform, 'Shipper');
const carrier = await organization(app, platform, 'Carrier');
const first = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'First Driver',
});
const second = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'Second Driver',
});
const emails = { shipper: shipper.email, carrier: carrier.email, driver: first.email };
const tokenOf = async (who: keyof typeof emails) => (await login(http, emails[who])).accessToken;
const { tourId } = await runningTour(http, tokenOf, first.userId);

// Away from every stop: no geofence event, only the batch.
const batch = (n: number) =>
  Array.from({ length: 3 }, (_, index) => ({
    latitude: 40.5 + n / 100 + index / 1000,
    longitude: -88.5,
    speed: 50,
    heading: 90,
  }));
const send = (token: string, n: number) =>
  http('POST', `/api/tours/${tourId}/positions`, token, batch(n));
const batchesInLog = async () =>
  (await platform.store.readStream(tourPositionsStream(tourId))).events.map((event) => ({
    by: event.metadata.userId,
    latitude: (event.data as { positions: { latitude: number }[] }).positions[0]!.latitude,
  }));

t.test('a driver taken off the tour is refused from the next batch on', async (t) => {
  t.equal(
    (await send(first.token, 1)).status,
    202,
    'the first driver sends (the tour is folded and kept)',
  );
  t.equal((await send(first.token, 2)).status, 202, 'and again, decided on the kept fold');
  const revisionBefore = (await platform.store.readStream(tourStream(tourId))).revision;

  await expectStatus(
    http('POST', `/api/tours/${tourId}/assign/${second.userId}`, await tokenOf('carrier')),
    200,
    'reassign',
  );
  t.ok(
    (await platform.store.readStream(tourStream(tourId))).revision > revisionBefore,
    'the tour moved on',
  );

  const refused = await send(first.token, 3);
  // A driver who is not on the tour (any more) does not see it at all.
  t.equal(
    refused.status,
    404,
    'the kept fold is stale: read again, and the first driver is refused',
  );
  t.equal(refused.json.message, 'Tour not found');
  t.equal((await send(second.token, 4)).status, 202, 'the new driver sends');
  t.equal((await send(second.token, 5)).status, 202, 'and again, on the new fold');
  t.same(
    (await batchesInLog()).map(({ by, latitude }) => [by, latitude]),
    [
      [first.userId, 40.51],
      [first.userId, 40.52],
      [second.userId, 40.54],
      [second.userId, 40.55],
    ],
    'nothing of the refused batch in the log',
  );
});

t.test('a tour off the road refuses positions at once, however it was folded before', async (t) => {
  t.equal((await send(second.token, 6)).status, 202);
  // The shipper cancels the load while the tour is Dispatched: the tour is Canceled, a change this
  // process's fold does not see until it is read again.
  const loadId = (await platform.marketplace.loadTour(tourId))!.loadId;
  await expectStatus(
    http('PUT', `/api/loads/${loadId}/status`, await tokenOf('shipper'), {
      status: 7,
      message: 'Plans changed',
    }),
    200,
    'cancel',
  );
  const late = await send(second.token, 7);
  t.equal(late.status, 409, 'refused once the tour is off the road');
  t.match(late.json.message, /not while it is Canceled/);
  t.equal((await batchesInLog()).length, 5, 'no batch after it');
});
