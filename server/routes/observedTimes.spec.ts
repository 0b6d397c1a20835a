// @postgres: times with their zones through both drivers
import t from 'tap';
import { positionsIn, tourPositionsStream } from '../../domain/tours/tour.types.ts';
import { bearer, member, multipart, organization, PDF } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * A client's "when this happened" is taken only from 7 days back to 5 minutes ahead of the server's
 * clock: a driver's phone with a broken clock (or a forged body) gets a 400 naming the field, and
 * nothing reaches the log or the trail.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);

const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Shipping' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Zeta Hauling' });
const driver = await member(app, platform, carrier.organizationId!, 4, { name: 'Dan Driver' });

const send = async (method: 'PUT' | 'POST', url: string, token: string, payload?: unknown) => {
  const response = await app.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response;
};

/** A load won by the carrier, its contract signed and its driver assigned: Ready for pickup, positions count. */
async function assignedTour(): Promise<string> {
  const { id: loadId } = (await send('POST', '/api/loads', shipper.token, loadBody())).json();
  const { id: offerId } = (
    await send('POST', `/api/proposal/${loadId}`, carrier.token, { price: 1500, message: 'Ready' })
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
  await send('POST', `/api/tours/${tourId}/assign/${driver.userId}`, carrier.token);
  return tourId;
}

const tourId = await assignedTour();
const events = await watchEvents(platform.store);
const post = (payload: unknown) =>
  app.inject({
    method: 'POST',
    url: `/api/tours/${tourId}/positions`,
    headers: bearer(driver.token),
    payload: payload as object,
  });
const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();
const days = (n: number) => minutes(n * 24 * 60);
// Far from every stop (Chicago, Indianapolis): no arrival or departure is caused.
const position = (recordedAt: string) => ({
  latitude: 40.5,
  longitude: -89.5,
  speed: 50,
  recordedAt,
});

const settle = async () =>
  platform.runner.waitFor(['tourPositions'], await platform.store.committedHead(), 30_000);
const trail = async () => {
  await settle();
  const answer = await app.inject({
    method: 'GET',
    url: `/api/tours/track/${tourId}`,
    headers: bearer(shipper.token),
  });
  return (answer.json() as { trail: Array<{ recordedAt: string }> }).trail.map(
    (point) => point.recordedAt,
  );
};
/** The positions in the tour's positions stream (a batch is one event). */
const logged = async () =>
  (await platform.store.readStream(tourPositionsStream(tourId))).events.reduce(
    (sum, event) => sum + positionsIn(event).length,
    0,
  );

const WINDOW = 'recordedAt must be within the last 7 days and not in the future';
const FORMAT = 'recordedAt must be an ISO 8601 time';

t.test(
  'a position dated outside the last 7 days or in the future is refused, naming the field, and nothing is recorded',
  async (t) => {
    const cases: Array<[string, string, string]> = [
      ['the year 0', '0000-01-01T00:00:00Z', WINDOW],
      ['8 days back', days(-8), WINDOW],
      ['10 minutes ahead', minutes(10), WINDOW],
      [
        'next year, with an offset',
        new Date(Date.now() + 365 * 86_400_000).toISOString().replace('Z', '+02:00'),
        WINDOW,
      ],
      ['a six-digit year at the end of time', '+275760-09-13T00:00:00Z', FORMAT],
      ['a day February does not have', '2026-02-30T12:00:00Z', FORMAT],
      ['not a time at all', 'yesterday', FORMAT],
    ];
    for (const [name, recordedAt, message] of cases) {
      const refused = await post(position(recordedAt));
      t.equal(refused.statusCode, 400, `${name}: 400`);
      t.equal(refused.json().message, message, `${name}: ${message}`);
      t.same(
        refused.json().errors,
        [{ path: 'recordedAt', message }],
        `${name}: the field is named`,
      );
    }
    t.equal(await logged(), 0, 'nothing appended to the log');
    t.same(await trail(), [], 'the trail is unchanged');
    await events.expect(t, [], { message: 'a refused position appends nothing' });
  },
);

t.test('a batch with one bad time is refused whole', async (t) => {
  const refused = await post([
    position(minutes(-3)),
    position('0000-01-01T00:00:00Z'),
    position(minutes(-1)),
  ]);
  t.equal(refused.statusCode, 400);
  t.same(
    refused.json().errors,
    [{ path: '1.recordedAt', message: WINDOW }],
    'the item and its field are named',
  );
  t.equal(await logged(), 0, 'not even the good positions are appended');
  t.same(await trail(), []);
  await events.expect(t, [], { message: 'a refused batch appends nothing' });
});

t.test('now, a few minutes ahead and 6 days back are recorded', async (t) => {
  const now = new Date().toISOString();
  const sixDaysBack = days(-6);
  const single = await post(position(now));
  t.equal(single.statusCode, 202, single.body);
  t.same(single.json(), { accepted: 1 });
  await events.expect(t, [
    {
      type: 'PositionsRecorded',
      stream: tourPositionsStream(tourId),
      data: { tourId, source: 'driver', positions: [{ recordedAt: now }] },
    },
  ]);
  const batch = await post([position(sixDaysBack), position(minutes(4))]);
  t.equal(batch.statusCode, 202, batch.body);
  t.same(batch.json(), { accepted: 2 });
  await events.expect(
    t,
    [
      {
        type: 'PositionsRecorded',
        stream: tourPositionsStream(tourId),
        data: { tourId, positions: [{ recordedAt: sixDaysBack }, {}] },
      },
    ],
    { message: 'a batch is one event, its positions in time order' },
  );
  t.equal(await logged(), 3);
  const times = await trail();
  t.equal(times.length, 3, 'three points on the trail');
  t.equal(times[0], sixDaysBack, 'dated when the phone took the fix');
  t.ok(times.includes(now));
  const undated = await post({ latitude: 40.6, longitude: -89.4 });
  t.equal(undated.statusCode, 202, 'a position without recordedAt is dated by the server');
  t.equal((await trail()).length, 4);
  await events.expect(t, [{ type: 'PositionsRecorded', stream: tourPositionsStream(tourId) }]);
});
