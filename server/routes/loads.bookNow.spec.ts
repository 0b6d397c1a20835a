import { randomUUID } from 'node:crypto';
import t from 'tap';
import { GenericStatus } from '../../domain/catalog.ts';
import { loadStream } from '../../domain/loads/load.types.ts';
import { offerIdFor } from '../../domain/offers/offer.decide.ts';
import { offerStream } from '../../domain/offers/offer.types.ts';
import { tourStream } from '../../domain/tours/tour.types.ts';
import { organization, type Member } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * Book Now (POST /api/loads/{id}/book): a load posted with a Book Now price is booked by a carrier
 * in one step, as an accepted offer at that price with its tour; the shipper changes or withdraws
 * the price while the load is open; the marketplace shows it and searches for it.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);

const shipper = await organization(app, platform, 'Shipper', { name: 'Book Now Shipping' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Quick Hauling' });
const otherCarrier = await organization(app, platform, 'Carrier', { name: 'Slow Hauling' });
const otherShipper = await organization(app, platform, 'Shipper', { name: 'Other Shipping' });

const post = async (overrides: Record<string, unknown> = {}) => {
  const posted = await as(shipper).post('/api/loads', loadBody(overrides));
  if (posted.status !== 201) throw new Error(`POST loads: ${posted.status} ${posted.text}`);
  return posted.body.id as string;
};
const book = (member: Member, loadId: string) => as(member).post(`/api/loads/${loadId}/book`, {});
const marketplaceRow = async (member: Member, loadId: string) => {
  const rows = await as(member).get('/api/loads/carrier', { pageSize: '100' });
  if (rows.status !== 200) throw new Error(`GET loads/carrier: ${rows.status} ${rows.text}`);
  return (rows.body.data as { id: string; bookNowPrice: number | null }[]).find(
    (row) => row.id === loadId,
  );
};

t.test(
  'a carrier books a load at its Book Now price: an accepted offer and its tour',
  async (t) => {
    const loadId = await post({ bookNowPrice: 2450.5, refNumber: 'BOOK-1' });
    t.match((await as(carrier).get(`/api/loads/${loadId}`)).body, { bookNowPrice: 2450.5 });
    t.match(await marketplaceRow(carrier, loadId), { bookNowPrice: 2450.5 });
    const events = await watchEvents(platform.store);

    const booked = await book(carrier, loadId);
    t.equal(booked.status, 201, booked.text);
    const { proposalId, tourId } = booked.body as { proposalId: string; tourId: string };
    t.ok(proposalId && tourId, 'the answer names the offer and the tour');
    await events.expect(t, [
      {
        type: 'LoadProposalAccepted',
        stream: loadStream(loadId),
        data: { proposalId, price: 2450.5, tourId, bookedNow: true, bookedBy: carrier.userId },
      },
      {
        type: 'ProposalSubmitted',
        stream: offerStream(proposalId),
        data: { price: 2450.5, message: 'Booked now at $2,450.50' },
      },
      {
        type: 'ProposalAccepted',
        stream: offerStream(proposalId),
        data: { tourId, price: 2450.5 },
      },
      { type: 'ProposalListed', data: { loadId, proposalId } },
      { type: 'TourOpened', data: { loadId } },
    ]);

    const tour = await as(carrier).get(`/api/tours/${tourId}`);
    t.equal(tour.status, 200, tour.text);
    t.match(tour.body, { price: 2450.5 }, "the tour's price is the Book Now price");
    const load = await as(shipper).get(`/api/loads/${loadId}`);
    t.match(load.body, {
      status: GenericStatus.Accepted,
      acceptedProposalId: proposalId,
      price: 2450.5,
      tourId,
    });
    const offers = await as(shipper).get(`/api/proposal/${loadId}`);
    t.match(offers.body.data, [{ id: proposalId, status: GenericStatus.Accepted, price: 2450.5 }]);
    const shipperRow = (
      await as(shipper).get('/api/loads/shipper', { pageSize: '100' })
    ).body.data.find((row: { id: string }) => row.id === loadId);
    t.match(shipperRow, { bookNowPrice: 2450.5, price: 2450.5, tourId });
    t.equal(
      await marketplaceRow(otherCarrier, loadId),
      undefined,
      'off the marketplace once booked',
    );

    const history = await as(shipper).get(`/api/loads/${loadId}/history`);
    t.equal(history.status, 200, history.text);
    t.ok(
      JSON.stringify(history.body).includes('"message":"Booked now at $2,450.50"'),
      'the history shows "Booked now at $2,450.50"',
    );

    const second = await book(otherCarrier, loadId);
    t.equal(second.status, 409, 'a second booking is refused');
    t.equal(second.body.message, 'This load has already been booked');
    await events.expect(t, [], { message: 'the refused booking appended nothing' });
  },
);

t.test('no Book Now price: 400 naming bookNowPrice; bad prices refused', async (t) => {
  const loadId = await post();
  t.match((await as(carrier).get(`/api/loads/${loadId}`)).body, { bookNowPrice: null });
  const events = await watchEvents(platform.store);
  const refused = await book(carrier, loadId);
  t.equal(refused.status, 400, refused.text);
  t.match(JSON.stringify(refused.body), /bookNowPrice/);
  await events.expect(t, [], { message: 'nothing appended' });

  for (const bookNowPrice of [0, -5, 'abc', 10.001, 2_000_000]) {
    const bad = await as(shipper).post('/api/loads', loadBody({ bookNowPrice }));
    t.equal(bad.status, 400, `${JSON.stringify(bookNowPrice)} refused`);
    t.match(JSON.stringify(bad.body), /bookNowPrice/);
  }
});

t.test('who may book: 403 for a shipper, 404 for an unknown load', async (t) => {
  const loadId = await post({ bookNowPrice: 1800 });
  t.equal((await book(shipper, loadId)).status, 403, 'the shipper cannot book');
  t.equal((await book(otherShipper, loadId)).status, 403, 'nor another shipper');
  t.equal((await book(carrier, '9b2f8c1e-4d6a-4c3b-8e7f-1a2b3c4d5e6f')).status, 404);
  t.equal((await book(carrier, 'not-an-id')).status, 400);
  const cancelled = await post({ bookNowPrice: 1800 });
  t.equal(
    (await as(shipper).put(`/api/loads/${cancelled}/status`, { status: 7, message: 'Gone' }))
      .status,
    200,
  );
  t.equal((await book(carrier, cancelled)).status, 404, 'a cancelled load is off the marketplace');
});

t.test(
  'the shipper changes and withdraws the Book Now price until the load is booked',
  async (t) => {
    const loadId = await post({ bookNowPrice: 1500 });
    const edit = (extra: Record<string, unknown>) =>
      as(shipper).put('/api/loads', { ...loadBody({ refNumber: 'EDITED' }), ...extra, loadId });

    t.equal((await edit({ bookNowPrice: 1650 })).status, 200);
    t.match((await as(carrier).get(`/api/loads/${loadId}`)).body, { bookNowPrice: 1650 });
    t.equal((await edit({})).status, 200, 'an edit without bookNowPrice keeps it');
    t.match(await marketplaceRow(carrier, loadId), { bookNowPrice: 1650 });
    t.equal(
      (await as(otherShipper).put('/api/loads', { ...loadBody(), bookNowPrice: 1, loadId })).status,
      404,
    );

    t.equal((await edit({ bookNowPrice: null })).status, 200);
    t.match((await as(carrier).get(`/api/loads/${loadId}`)).body, { bookNowPrice: null });
    t.match(await marketplaceRow(carrier, loadId), { bookNowPrice: null });
    t.equal((await book(carrier, loadId)).status, 400, 'withdrawn: no booking');

    t.equal((await edit({ bookNowPrice: 1700 })).status, 200, 'offered again');
    const booked = await book(carrier, loadId);
    t.equal(booked.status, 201, booked.text);
    t.match((await as(carrier).get(`/api/tours/${booked.body.tourId}`)).body, { price: 1700 });
    t.equal((await edit({ bookNowPrice: 1200 })).status, 409, 'a booked load is not edited');
  },
);

t.test('bookNow=true lists only the loads with a Book Now price', async (t) => {
  const withPrice = await post({ bookNowPrice: 999 });
  const without = await post();
  const all = await as(carrier).get('/api/loads/carrier', { pageSize: '100' });
  const ids = (all.body.data as { id: string }[]).map((row) => row.id);
  t.ok(ids.includes(withPrice) && ids.includes(without), 'both on the marketplace');
  const only = await as(carrier).get('/api/loads/carrier', { pageSize: '100', bookNow: 'true' });
  t.equal(only.status, 200, only.text);
  const rows = only.body.data as { id: string; bookNowPrice: number | null }[];
  t.ok(
    rows.some((row) => row.id === withPrice),
    'the load with a price is listed',
  );
  t.notOk(
    rows.some((row) => row.id === without),
    'the load without is not',
  );
  t.ok(
    rows.every((row) => row.bookNowPrice !== null && row.bookNowPrice > 0),
    'every row has a price',
  );
  t.equal(only.body.total, rows.length);
  t.equal(
    (await as(carrier).get('/api/loads/carrier', { bookNow: 'maybe' })).status,
    400,
    'bookNow is true or false',
  );
});

t.test('a Book Now load still takes offers; booking after an acceptance gets 409', async (t) => {
  const loadId = await post({ bookNowPrice: 3000 });
  const offered = await as(otherCarrier).post(`/api/proposal/${loadId}`, { price: 2600 });
  t.equal(offered.status, 201, offered.text);
  const accepted = await as(shipper).put(`/api/proposal/${offered.body.id}`, {
    status: GenericStatus.Accepted,
  });
  t.equal(accepted.status, 200, accepted.text);
  const load = await as(shipper).get(`/api/loads/${loadId}`);
  t.match(load.body, { status: GenericStatus.Accepted, price: 2600 });

  const events = await watchEvents(platform.store);
  const late = await book(carrier, loadId);
  t.equal(late.status, 409, late.text);
  t.equal(late.body.message, 'This load has already been booked');
  await events.expect(t, [], { message: 'the refused booking appended nothing' });
});

t.test("a carrier's open offer is the one booked, and the other offers are declined", async (t) => {
  const loadId = await post({ bookNowPrice: 2100 });
  const mine = await as(carrier).post(`/api/proposal/${loadId}`, { price: 2500 });
  const theirs = await as(otherCarrier).post(`/api/proposal/${loadId}`, { price: 2300 });
  t.equal(mine.status, 201);
  t.equal(theirs.status, 201);
  const booked = await book(carrier, loadId);
  t.equal(booked.status, 201, booked.text);
  t.equal(booked.body.proposalId, mine.body.id, 'the carrier keeps one offer per load');
  const offers = (await as(shipper).get(`/api/proposal/${loadId}`)).body.data as {
    id: string;
    status: number;
    price: number;
  }[];
  t.match(
    offers.find((offer) => offer.id === mine.body.id),
    {
      status: GenericStatus.Accepted,
      price: 2100,
    },
  );
  t.match(
    offers.find((offer) => offer.id === theirs.body.id),
    { status: GenericStatus.Declined },
  );
});

t.test('a booking cut short by a crash is completed by the repair pass', async (t) => {
  const loadId = await post({ bookNowPrice: 1999 });
  const rival = await as(otherCarrier).post(`/api/proposal/${loadId}`, { price: 1700 });
  t.equal(rival.status, 201, rival.text);
  // The handler recorded the booking on the load stream, then the process died.
  const offerId = offerIdFor(loadId, carrier.organizationId!);
  const tourId = randomUUID();
  const now = new Date().toISOString();
  const { revision } = await platform.store.readStream(loadStream(loadId));
  await platform.store.append(
    loadStream(loadId),
    [
      {
        type: 'LoadProposalAccepted',
        data: {
          loadId,
          proposalId: offerId,
          carrierOrganizationId: carrier.organizationId,
          price: 1999,
          tourId,
          acceptedAt: now,
          terms: null,
          bookedNow: true,
          bookedBy: carrier.userId,
        },
      },
    ],
    {
      expectedRevision: revision,
      metadata: {
        userId: carrier.userId,
        organizationId: carrier.organizationId,
        correlationId: loadId,
        causationId: null,
        at: now,
      },
    },
  );
  t.ok(
    await platform.runner.waitFor(['marketplace'], await platform.store.committedHead(), 30_000),
    'the read model has the booking',
  );
  const events = await watchEvents(platform.store);
  const inAMinute = () => new Date(Date.now() + 60_000).toISOString();
  t.equal(await platform.loadExpiry!.repair(inAMinute()), 1, 'the pass repaired the load');
  await events.expect(t, [
    {
      type: 'ProposalSubmitted',
      stream: offerStream(offerId),
      data: { price: 1999, message: 'Booked now at $1,999', submittedBy: carrier.userId },
    },
    { type: 'ProposalAccepted', stream: offerStream(offerId), data: { tourId, price: 1999 } },
    { type: 'ProposalListed', data: { loadId, proposalId: offerId } },
    {
      type: 'ProposalDeclined',
      stream: offerStream(rival.body.id),
      data: { reason: 'otherAccepted' },
    },
    { type: 'TourOpened', stream: tourStream(tourId), data: { loadId, price: 1999 } },
  ]);
  t.equal(await platform.loadExpiry!.repair(inAMinute()), 0, 'a second pass finds nothing to do');
  await events.expect(t, [], { message: 'and appends nothing' });
});
