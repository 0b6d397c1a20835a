// @postgres: the offers' counts, badges and lists read in SQL
import t from 'tap';
import { loadStream } from '../../domain/loads/load.types.ts';
import { loadOffersStream } from '../../domain/offers/loadOffers.ts';
import { offerStream } from '../../domain/offers/offer.types.ts';
import { organization, superadmin } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * An offer's course (POST and PUT /api/proposal): submitted and revised by its carrier, countered by
 * the shipper and the counter accepted, declined, withdrawn, accepted (which declines the others);
 * the shipper's table and list of offers, each carrier seeing only its own offer.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);

t.test('a carrier submits an offer, then revises it; refusals append nothing', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const { loadId } = await steps.postLoad(shipper);
  const events = await watchEvents(platform.store);

  t.equal(
    (await as(carrier).post(`/api/proposal/${loadId}`, { price: 0, message: 'x' })).status,
    400,
    'price > 0',
  );
  t.equal(
    (await as(shipper).post(`/api/proposal/${loadId}`, { price: 1000 })).status,
    403,
    'shippers do not bid',
  );
  await events.expect(t, [], { message: 'the refusals appended nothing' });

  const first = await as(carrier).post(`/api/proposal/${loadId}`, {
    price: 1500,
    message: 'Ready tomorrow',
    eldTruckName: 'Truck 12',
  });
  t.equal(first.status, 201, first.text);
  const offerId = first.body.id;
  await events.expect(t, [
    {
      type: 'ProposalSubmitted',
      stream: offerStream(offerId),
      data: {
        proposalId: offerId,
        loadId,
        price: 1500,
        carrierOrganizationId: carrier.organizationId,
      },
    },
    {
      type: 'ProposalListed',
      stream: loadOffersStream(loadId),
      data: { loadId, proposalId: offerId },
    },
  ]);

  const revised = await as(carrier).post(`/api/proposal/${loadId}`, {
    price: 1450,
    message: 'Better price',
    eldTruckName: 'Truck 12',
  });
  t.equal(revised.status, 200, 'a second submit revises');
  t.equal(revised.body.id, offerId, 'the same proposal');
  await events.expect(t, [
    { type: 'ProposalRevised', stream: offerStream(offerId), data: { price: 1450 } },
  ]);
});

t.test(
  "the shipper's table counts the offers; each carrier lists only its own; opening them clears the badge",
  async (t) => {
    const shipper = await organization(app, platform, 'Shipper');
    const otherShipper = await organization(app, platform, 'Shipper');
    const carrier = await organization(app, platform, 'Carrier', { name: 'Zeta Hauling' });
    const carrierB = await organization(app, platform, 'Carrier');
    const { loadId } = await steps.postLoad(shipper);
    const offerId = await steps.submitOffer(carrier, loadId, {
      price: 1450,
      message: 'Better price',
      eldTruckName: 'Truck 12',
    });
    const offerB = await steps.submitOffer(carrierB, loadId, { price: 1600 });

    t.match((await as(shipper).get('/api/loads/shipper')).body.data[0], {
      id: loadId,
      statusName: 'Bid Submitted',
      proposals: 2,
      openProposals: 2,
      newProposals: 2,
      bestPrice: 1450,
    });
    const offers = (
      await as(shipper).get(`/api/proposal/${loadId}`, {
        order: { column: 'price', direction: 'ASC' },
      })
    ).body;
    t.equal(offers.total, 2);
    t.match(offers.data[0], {
      id: offerId,
      price: 1450,
      message: 'Better price',
      eldTruckName: 'Truck 12',
      carrier: { name: 'Zeta Hauling' },
      canAccept: true,
    });
    t.equal(offers.data[1].id, offerB, 'cheapest first');
    t.equal(
      (await as(shipper).get('/api/loads/shipper')).body.data[0].newProposals,
      0,
      'opening the offers clears the badge',
    );

    const ownOnly = (await as(carrierB).get(`/api/proposal/${loadId}`)).body;
    t.equal(ownOnly.total, 1, 'a carrier sees only its own offer');
    t.equal(ownOnly.data[0].id, offerB);
    t.equal((await as(otherShipper).get(`/api/proposal/${loadId}`)).status, 404);
    t.equal(
      (await as(carrier).get(`/api/proposal/${loadId}/proposal/${offerB}`)).status,
      404,
      "another carrier's offer on the same load is not found",
    );
  },
);

t.test('the shipper counters; the carrier accepts the counter', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const otherShipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const { offerId, loadId } = await steps.offered({ shipper, carrier }, { price: 1450 });
  const offerUrl = `/api/proposal/${offerId}`;
  const events = await watchEvents(platform.store);

  t.equal(
    (await as(carrier).put(offerUrl, { status: 5 })).status,
    403,
    'the carrier cannot accept its own offer',
  );
  t.equal((await as(otherShipper).put(offerUrl, { status: 5 })).status, 404);
  await events.expect(t, [], { message: 'the refusals appended nothing' });

  const counter = await as(shipper).put(offerUrl, {
    status: 11,
    price: 1400,
    message: 'Can you do 1400?',
  });
  t.equal(counter.status, 200, counter.text);
  await events.expect(t, [
    { type: 'ProposalCountered', stream: offerStream(offerId), data: { price: 1400 } },
  ]);
  t.equal(
    (await as(shipper).put(offerUrl, { status: 5 })).status,
    409,
    'accepting while the counter is open',
  );
  await events.expect(t, [], { message: 'the refused acceptance appended nothing' });
  t.match((await as(carrier).get(`/api/proposal/${loadId}/proposal/${offerId}`)).body, {
    status: 11,
    statusName: 'Pending Acceptance',
    counterPrice: 1400,
  });

  t.equal(
    (await as(carrier).put(offerUrl, { status: 10 })).status,
    200,
    'the carrier accepts the counter',
  );
  await events.expect(t, [
    { type: 'CounterAccepted', stream: offerStream(offerId), data: { price: 1400 } },
  ]);
  t.match((await as(shipper).get(`/api/proposal/${loadId}/proposal/${offerId}`)).body, {
    status: 10,
    price: 1400,
    counterPrice: null,
  });
});

t.test('accepting one offer declines the others; one acceptance per load', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const carrierB = await organization(app, platform, 'Carrier');
  const { loadId, offerId, rivalOfferIds } = await steps.offered(
    { shipper, carrier, rivals: [carrierB] },
    { price: 1400 },
  );
  const offerB = rivalOfferIds[0]!;
  const events = await watchEvents(platform.store);

  const accepted = await as(shipper).put(`/api/proposal/${offerId}`, { status: 5 });
  t.equal(accepted.status, 200, accepted.text);
  await events.expect(t, [
    {
      type: 'LoadProposalAccepted',
      stream: loadStream(loadId),
      data: { loadId, proposalId: offerId, price: 1400 },
    },
    { type: 'ProposalAccepted', stream: offerStream(offerId) },
    { type: 'ProposalDeclined', stream: offerStream(offerB), data: { reason: 'otherAccepted' } },
    { type: 'TourOpened', data: { loadId, price: 1400 } },
  ]);
  t.equal(
    (await as(shipper).put(`/api/proposal/${offerB}`, { status: 5 })).status,
    409,
    'only one acceptance per load',
  );
  await events.expect(t, [], { message: 'the second acceptance appended nothing' });
  t.match((await as(carrierB).get(`/api/proposal/${loadId}/proposal/${offerB}`)).body, {
    status: 12,
    statusName: 'Declined',
  });
  const row = (await as(shipper).get('/api/loads/shipper')).body.data[0];
  t.match(row, { id: loadId, status: 7, statusName: 'Bid Accepted', loadStatus: 5, price: 1400 });
  t.ok(row.tourId, 'a tour opened');
});

t.test('the shipper declines an offer; a carrier withdraws its own', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const carrierB = await organization(app, platform, 'Carrier');
  const { loadId, offerId, rivalOfferIds } = await steps.offered({
    shipper,
    carrier,
    rivals: [carrierB],
  });
  const offerB = rivalOfferIds[0]!;
  const events = await watchEvents(platform.store);

  const declined = await as(shipper).put(`/api/proposal/${offerId}`, {
    status: 12,
    message: 'No, thank you',
  });
  t.equal(declined.status, 200, declined.text);
  await events.expect(t, [
    {
      type: 'ProposalDeclined',
      stream: offerStream(offerId),
      data: { reason: 'shipper', message: 'No, thank you', declinedBy: shipper.userId },
    },
  ]);
  const withdrawn = await as(carrierB).put(`/api/proposal/${offerB}`, {
    status: 7,
    message: 'Truck unavailable',
  });
  t.equal(withdrawn.status, 200, withdrawn.text);
  await events.expect(t, [
    {
      type: 'ProposalCanceled',
      stream: offerStream(offerB),
      data: { message: 'Truck unavailable', canceledBy: carrierB.userId },
    },
  ]);
  t.match((await as(carrier).get(`/api/proposal/${loadId}/proposal/${offerId}`)).body, {
    status: 12,
    statusName: 'Declined',
  });
  t.match((await as(shipper).get(`/api/proposal/${loadId}/proposal/${offerB}`)).body, {
    status: 7,
    statusName: 'Canceled',
  });
  t.match(
    (await as(shipper).get('/api/loads/shipper')).body.data[0],
    { id: loadId, statusName: 'Created', openProposals: 0 },
    'no open offer left',
  );
});

t.test('the Superadmin lists every offer; a shipper may not list them all', async (t) => {
  const admin = await superadmin(app, platform);
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const carrierB = await organization(app, platform, 'Carrier');
  const { offerId, rivalOfferIds } = await steps.offered({
    shipper,
    carrier,
    rivals: [carrierB],
  });
  const all = (await as(admin).get('/api/proposals', { pageSize: '100' })).body;
  const ids = all.data.map((offer: { id: string }) => offer.id);
  t.ok(
    [offerId, ...rivalOfferIds].every((id) => ids.includes(id)),
    "the Superadmin's list holds both carriers' offers",
  );
  t.equal((await as(shipper).get('/api/proposals')).status, 403);
});
