import t from 'tap';
import { bearer, member, multipart, organization, PDF } from '../identity/fixtures.ts';
import { rowPushes, workOf } from '../realtime/notifier.ts';
import { userRoom } from '../realtime/rooms.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * The agreed price is the shipper's and the carrier's business: a driver is refused the contract
 * and the rate confirmation, and the tour answers it reads (its tour, its list of assigned tours,
 * the tracking page) and the tour messages its socket hears carry no price either.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);

const shipper = await organization(app, platform, 'Shipper');
const carrier = await organization(app, platform, 'Carrier');
const driver = await member(app, platform, carrier.organizationId!, 4);
const PRICE = 1873.42;

const get = (url: string, token: string) =>
  app.inject({ method: 'GET', url, headers: bearer(token) });
const send = (method: 'PUT' | 'POST', url: string, token: string, payload: object) =>
  app.inject({ method, url, headers: bearer(token), payload });

let loadId = '';
let offerId = '';
let tourId = '';

t.test('a tour at an agreed price, its driver assigned', async (t) => {
  const posted = await send('POST', '/api/loads', shipper.token, loadBody());
  t.equal(posted.statusCode, 201);
  loadId = posted.json().id;
  const offer = await send('POST', `/api/proposal/${loadId}`, carrier.token, {
    price: PRICE,
    message: 'Ready',
  });
  t.equal(offer.statusCode, 201);
  offerId = offer.json().id;
  t.equal(
    (await send('PUT', `/api/proposal/${offerId}`, shipper.token, { status: 5 })).statusCode,
    200,
  );
  tourId = (await get(`/api/loads/${loadId}`, shipper.token)).json().tourId;
  const form = multipart(undefined, { contract: { content: PDF, filename: 'signed.pdf' } });
  form.payload = Buffer.concat([
    Buffer.from(
      `--${form.headers['content-type']!.split('boundary=')[1]}\r\nContent-Disposition: form-data; name="status"\r\n\r\n14\r\n`,
    ),
    form.payload,
  ]);
  t.equal(
    (
      await app.inject({
        method: 'POST',
        url: `/api/proposal/load/${loadId}`,
        headers: { ...form.headers, ...bearer(carrier.token) },
        payload: form.payload,
      })
    ).statusCode,
    200,
  );
  t.equal(
    (await send('POST', `/api/tours/${tourId}/assign/${driver.userId}`, carrier.token, {}))
      .statusCode,
    200,
  );
});

t.test("the driver's tour answers leave the price out", async (t) => {
  const tour = await get(`/api/tours/${tourId}`, driver.token);
  t.equal(tour.statusCode, 200);
  t.equal(tour.json().price, null, 'GET /api/tours/{id}');
  t.notOk(tour.body.includes(String(PRICE)));
  const assigned = await get(
    `/api/tours/assigned?${new URLSearchParams({ filters: '[]' })}`,
    driver.token,
  );
  t.equal(assigned.statusCode, 200);
  t.match(assigned.json().data, [{ id: tourId, price: null }], 'GET /api/tours/assigned');
  t.notOk(assigned.body.includes(String(PRICE)));
  const track = await get(`/api/tours/track/${tourId}`, driver.token);
  t.equal(track.statusCode, 200);
  t.equal(track.json().price, null, 'GET /api/tours/track/{id}');
  t.notOk(track.body.includes(String(PRICE)));
  t.match(
    track.json(),
    { assignee: { id: driver.userId }, stops: [{ contactName: String }, { contactName: String }] },
    'everything else the driver needs',
  );
  t.equal(
    (await get(`/api/proposal/${offerId}/rate-confirmation`, driver.token)).statusCode,
    403,
    'as the rate confirmation is refused',
  );
  t.equal(
    (await get(`/api/loads/${loadId}/history`, driver.token)).statusCode,
    403,
    'and the load, its history included',
  );
});

t.test('the shipper and the carrier read the agreed price', async (t) => {
  for (const [who, token] of [
    ['shipper', shipper.token],
    ['carrier', carrier.token],
  ] as const) {
    t.equal((await get(`/api/tours/${tourId}`, token)).json().price, PRICE, `${who}: the tour`);
    t.equal(
      (await get(`/api/tours/track/${tourId}`, token)).json().price,
      PRICE,
      `${who}: the tracking`,
    );
    t.match(
      (await get(`/api/tours?${new URLSearchParams({ filters: '[]' })}`, token)).json().data,
      [{ id: tourId, price: PRICE }],
      `${who}: the tours list`,
    );
  }
});

t.test("the tour messages the driver's socket hears carry no price", async (t) => {
  // The tour as committed now has its driver: a push of its opening read now (a page merged with
  // later ones, another process catching up) goes to the driver's room as well.
  const { events } = await platform.store.readStream(`tour-${tourId}`);
  t.equal(events[0].type, 'TourOpened');
  const pushes = await rowPushes(platform.database.db, workOf(events)!);
  const driverHears = pushes.filter((push) => push.rooms.includes(userRoom(driver.userId)));
  t.same(
    driverHears.map((push) => (push.payload as { event: { type: string } }).event.type),
    events.map((event) => event.type),
    'the driver hears each, the opening first',
  );
  t.same(
    driverHears
      .filter((push) => JSON.stringify(push.payload).includes(String(PRICE)))
      .map((push) => push.event),
    [],
    'none with the price',
  );
  t.match(
    driverHears[0].payload,
    {
      tourId,
      loadId,
      event: {
        type: 'TourOpened',
        data: { tourId, carrierOrganizationId: carrier.organizationId },
      },
    },
    'the rest of the opening',
  );
});
