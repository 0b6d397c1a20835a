import t from 'tap';
import { Role } from '../../domain/permissions.ts';
import { tourChatStream } from '../../domain/tours/tour.types.ts';
import { member, organization } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * A tour's chat (POST and GET /api/tours/{id}/chat): the driver and the shipper write each other,
 * every party reads the messages in order with their authors; a blank message and a carrier that
 * lost the load are refused.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);

t.test('chat each way; blank messages and outsiders are refused', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const driver = await member(app, platform, carrier.organizationId!, Role.Driver, {
    name: 'Dan Driver',
  });
  const carrierB = await organization(app, platform, 'Carrier');
  const { tourId } = await steps.tourAt('dispatched', {
    shipper,
    carrier,
    driver,
    rivals: [carrierB],
  });
  const chat = `/api/tours/${tourId}/chat`;
  const events = await watchEvents(platform.store);

  t.equal((await as(driver).post(chat, { message: 'Loaded, on my way' })).status, 201);
  t.equal((await as(shipper).post(chat, { message: 'Thanks, dock 4 at arrival' })).status, 201);
  t.equal((await as(shipper).post(chat, { message: '   ' })).status, 400, 'a blank message');
  t.equal(
    (await as(carrierB).post(chat, { message: 'hi' })).status,
    404,
    'the carrier that lost the load',
  );
  await events.expect(
    t,
    [
      {
        type: 'MessagePosted',
        stream: tourChatStream(tourId),
        data: { text: 'Loaded, on my way', userId: driver.userId },
      },
      {
        type: 'MessagePosted',
        stream: tourChatStream(tourId),
        data: { text: 'Thanks, dock 4 at arrival', userId: shipper.userId },
      },
    ],
    { message: 'the two messages; the refusals appended nothing' },
  );

  t.match((await as(carrier).get(chat)).body, [
    { user: { name: 'Dan Driver' }, text: 'Loaded, on my way' },
    { text: 'Thanks, dock 4 at arrival' },
  ]);
  t.equal((await as(carrierB).get(chat)).status, 404, 'nor does it read them');
});
