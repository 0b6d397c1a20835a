// @postgres: the expiry sweep finds the open loads past their expiration in SQL
import t from 'tap';
import { loadStream } from '../../domain/loads/load.types.ts';
import { offerStream } from '../../domain/offers/offer.types.ts';
import { organization } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { inHours, loadBody } from '../testing/loadBodies.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * A shipper's changes to its open load (PUT /api/loads, PUT /api/loads/{id}/status): editing the
 * details, extending the offer's expiration, cancelling it (which declines the open offers); and
 * the expiry sweep, which pauses a load whose expiration passed until the shipper extends it.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);

t.test('the shipper edits the details of its open load', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const { loadId } = await steps.postLoad(shipper);
  const events = await watchEvents(platform.store);

  const edited = await as(shipper).put('/api/loads', {
    ...loadBody({ weight: 30000, commodity: 'Steel coils' }),
    loadId,
  });
  t.equal(edited.status, 200, edited.text);
  await events.expect(t, [
    {
      type: 'LoadUpdated',
      stream: loadStream(loadId),
      data: { loadId, details: { weight: 30000, commodity: 'Steel coils' } },
    },
  ]);
  t.match((await as(shipper).get(`/api/loads/${loadId}`)).body, {
    weight: 30000,
    commodity: 'Steel coils',
  });
});

t.test('the expiration is extended up to the pickup start, not after', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const { loadId } = await steps.postLoad(shipper);
  const events = await watchEvents(platform.store);

  const late = await as(shipper).put('/api/loads', { loadId, newExpiration: inHours(60) });
  t.equal(late.status, 400, 'expiration after pickup start');
  t.match(late.body.message, /Expiration can't be after pickup start date/);
  await events.expect(t, [], { message: 'the refused extension appended nothing' });

  const newExpiration = inHours(30);
  t.equal((await as(shipper).put('/api/loads', { loadId, newExpiration })).status, 200);
  await events.expect(t, [
    {
      type: 'LoadExpirationExtended',
      stream: loadStream(loadId),
      data: { loadId, expiration: newExpiration },
    },
  ]);
});

t.test(
  'cancelling with a message declines the open offers; a cancelled load is not edited',
  async (t) => {
    const shipper = await organization(app, platform, 'Shipper');
    const otherShipper = await organization(app, platform, 'Shipper');
    const carrier = await organization(app, platform, 'Carrier');
    const { loadId, offerId } = await steps.offered({ shipper, carrier }, { price: 900 });
    const status = `/api/loads/${loadId}/status`;
    const events = await watchEvents(platform.store);

    t.equal((await as(shipper).put(status, { status: 7 })).status, 400, 'a message is required');
    t.equal((await as(otherShipper).put(status, { status: 7, message: 'x' })).status, 404);
    await events.expect(t, [], { message: 'the refused cancels appended nothing' });

    const canceled = await as(shipper).put(status, {
      status: 7,
      message: 'Order withdrawn by the customer',
    });
    t.equal(canceled.status, 200, canceled.text);
    await events.expect(t, [
      {
        type: 'LoadCanceled',
        stream: loadStream(loadId),
        data: { loadId, message: 'Order withdrawn by the customer' },
      },
      {
        type: 'ProposalDeclined',
        stream: offerStream(offerId),
        data: { reason: 'loadCanceled', message: 'Order withdrawn by the customer' },
      },
    ]);
    t.match((await as(shipper).get('/api/loads/shipper')).body.data[0], {
      id: loadId,
      statusName: 'Canceled',
      loadStatus: 7,
    });
    t.ok(
      (
        await as(carrier).get('/api/proposals/carrier', {
          filters: [{ name: 'status', value: [12] }],
        })
      ).body.data.some((offer: { loadId: string }) => offer.loadId === loadId),
      "the carrier's open offer was declined",
    );

    t.equal(
      (await as(shipper).put('/api/loads', { ...loadBody(), loadId })).status,
      409,
      'a cancelled load cannot be edited',
    );
    await events.expect(t, [], { message: 'the refused edit appended nothing' });
  },
);

t.test('expiry pauses an open load; extending reopens it', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  // Its offer closes in 6 hours; every other load of this file stays open for a day or more.
  const { loadId } = await steps.postLoad(shipper, { expiration: inHours(6) });
  const events = await watchEvents(platform.store);

  t.equal(await platform.loadExpiry!.sweep(inHours(7)), 1, 'the sweep paused the load');
  await events.expect(t, [{ type: 'LoadExpired', stream: loadStream(loadId), data: { loadId } }]);
  await steps.settled();
  t.match((await as(shipper).get(`/api/loads/${loadId}`)).body, {
    status: 8,
    statusName: 'Paused',
  });
  t.equal(
    (await as(carrier).post(`/api/proposal/${loadId}`, { price: 900 })).status,
    404,
    'no longer on the marketplace',
  );
  await events.expect(t, [], { message: 'the refused offer appended nothing' });

  t.equal(
    (await as(shipper).put('/api/loads', { loadId, newExpiration: inHours(40) })).status,
    200,
  );
  await events.expect(t, [{ type: 'LoadExpirationExtended', stream: loadStream(loadId) }]);
  t.match((await as(shipper).get(`/api/loads/${loadId}`)).body, { status: 4 });
  t.equal(
    await platform.loadExpiry!.sweep(inHours(7)),
    0,
    'running the sweep again changes nothing new before the new expiration',
  );
  await events.expect(t, [], { message: 'the second sweep appended nothing' });
});
