import t from 'tap';
import { loadStream } from '../../domain/loads/load.types.ts';
import { loadOffersStream } from '../../domain/offers/loadOffers.ts';
import { offerStream } from '../../domain/offers/offer.types.ts';
import { tourStream } from '../../domain/tours/tour.types.ts';
import { member, organization, PDF } from '../identity/fixtures.ts';
import { rowPushes, workOf } from '../realtime/notifier.ts';
import { userRoom } from '../realtime/rooms.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
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

const as = requester(app);

let loadId = '';
let offerId = '';
let tourId = '';

t.test('a tour at an agreed price, its driver assigned', async (t) => {
  const events = await watchEvents(platform.store);
  const posted = await as(shipper).post('/api/loads', loadBody());
  t.equal(posted.status, 201);
  loadId = posted.body.id;
  await events.expect(t, [
    {
      type: 'LoadPosted',
      stream: loadStream(loadId),
      data: { loadId, shipperOrganizationId: shipper.organizationId },
    },
  ]);
  const offer = await as(carrier).post(`/api/proposal/${loadId}`, {
    price: PRICE,
    message: 'Ready',
  });
  t.equal(offer.status, 201);
  offerId = offer.body.id;
  await events.expect(t, [
    {
      type: 'ProposalSubmitted',
      stream: offerStream(offerId),
      data: { proposalId: offerId, loadId, price: PRICE },
    },
    { type: 'ProposalListed', stream: loadOffersStream(loadId), data: { proposalId: offerId } },
  ]);
  t.equal((await as(shipper).put(`/api/proposal/${offerId}`, { status: 5 })).status, 200);
  tourId = (await as(shipper).get(`/api/loads/${loadId}`)).body.tourId;
  await events.expect(t, [
    { type: 'LoadProposalAccepted', stream: loadStream(loadId), data: { tourId, price: PRICE } },
    { type: 'ProposalAccepted', stream: offerStream(offerId), data: { tourId, price: PRICE } },
    {
      type: 'TourOpened',
      stream: tourStream(tourId),
      data: { tourId, loadId, proposalId: offerId, price: PRICE },
    },
  ]);
  t.equal(
    (
      await as(carrier).upload(`/api/proposal/load/${loadId}`, {
        fields: { status: '14' },
        files: { contract: { content: PDF, filename: 'signed.pdf' } },
      })
    ).status,
    200,
  );
  await events.expect(t, [
    { type: 'ContractUploaded', stream: offerStream(offerId), data: { loadId } },
    { type: 'LoadContractSigned', stream: loadStream(loadId), data: { proposalId: offerId } },
    { type: 'CarrierConfirmed', stream: tourStream(tourId), data: { tourId } },
  ]);
  t.equal((await as(carrier).post(`/api/tours/${tourId}/assign/${driver.userId}`, {})).status, 200);
  await events.expect(t, [
    {
      type: 'TourAssigned',
      stream: tourStream(tourId),
      data: { assigneeId: driver.userId, assignedBy: carrier.userId },
    },
    { type: 'TourStatusChanged', stream: tourStream(tourId), data: { to: 2 } },
    { type: 'TourEventAdded', stream: tourStream(tourId), data: { type: 'status' } },
  ]);
});

t.test("the driver's tour answers leave the price out", async (t) => {
  const tour = await as(driver).get(`/api/tours/${tourId}`);
  t.equal(tour.status, 200);
  t.equal(tour.body.price, null, 'GET /api/tours/{id}');
  t.notOk(tour.text.includes(String(PRICE)));
  const assigned = await as(driver).get('/api/tours/assigned', { filters: [] });
  t.equal(assigned.status, 200);
  t.match(assigned.body.data, [{ id: tourId, price: null }], 'GET /api/tours/assigned');
  t.notOk(assigned.text.includes(String(PRICE)));
  const track = await as(driver).get(`/api/tours/track/${tourId}`);
  t.equal(track.status, 200);
  t.equal(track.body.price, null, 'GET /api/tours/track/{id}');
  t.notOk(track.text.includes(String(PRICE)));
  t.match(
    track.body,
    { assignee: { id: driver.userId }, stops: [{ contactName: String }, { contactName: String }] },
    'everything else the driver needs',
  );
  t.equal(
    (await as(driver).get(`/api/proposal/${offerId}/rate-confirmation`)).status,
    403,
    'as the rate confirmation is refused',
  );
  t.equal(
    (await as(driver).get(`/api/loads/${loadId}/history`)).status,
    403,
    'and the load, its history included',
  );
});

t.test('the shipper and the carrier read the agreed price', async (t) => {
  for (const [who, party] of [
    ['shipper', shipper],
    ['carrier', carrier],
  ] as const) {
    t.equal((await as(party).get(`/api/tours/${tourId}`)).body.price, PRICE, `${who}: the tour`);
    t.equal(
      (await as(party).get(`/api/tours/track/${tourId}`)).body.price,
      PRICE,
      `${who}: the tracking`,
    );
    t.match(
      (await as(party).get('/api/tours', { filters: [] })).body.data,
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
