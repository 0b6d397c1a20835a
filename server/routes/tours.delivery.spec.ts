// @postgres: the delivered row's actions and the profiles' rating averages read in SQL
import t from 'tap';
import { loadStream } from '../../domain/loads/load.types.ts';
import { Role } from '../../domain/permissions.ts';
import { tourStream } from '../../domain/tours/tour.types.ts';
import { member, organization } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { shipmentSteps, type TourStage } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * The end of a tour: the driver reports the delivery, only the shipper confirms it, which completes
 * the load; then each side rates the other once (in steps of 0.5), and the ratings show to both and
 * in each organization's profile.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);

const tourAt = async (stage: TourStage) => {
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const driver = await member(app, platform, carrier.organizationId!, Role.Driver);
  const carrierB = await organization(app, platform, 'Carrier');
  const shipment = await steps.tourAt(stage, { shipper, carrier, driver, rivals: [carrierB] });
  return { shipper, carrier, driver, carrierB, ...shipment };
};
const shipperRatings = [
  { criteria: 1, rating: 4.5 },
  { criteria: 2, rating: 5 },
  { criteria: 3, rating: 4 },
  { criteria: 4, rating: 5 },
];
const carrierRatings = [
  { criteria: 5, rating: 3.5 },
  { criteria: 6, rating: 4 },
  { criteria: 7, rating: 4 },
  { criteria: 8, rating: 5 },
];

t.test(
  'the driver reports the delivery; only the shipper confirms it; the load completes',
  async (t) => {
    const { shipper, driver, loadId, tourId } = await tourAt('inTransit');
    const status = `/api/tours/${tourId}/status`;
    const events = await watchEvents(platform.store);

    t.equal(
      (
        await as(shipper).post(`/api/tours/${tourId}/rate`, {
          ratings: [{ criteria: 1, rating: 5 }],
        })
      ).status,
      409,
      'not delivered yet',
    );
    await events.expect(t, [], { message: 'the early rating appended nothing' });

    t.equal((await as(driver).put(status, { status: 10, message: 'Unloaded' })).status, 200);
    await events.expect(t, [
      {
        type: 'TourStatusChanged',
        stream: tourStream(tourId),
        data: { to: 10, party: 'driver', message: 'Unloaded' },
      },
      'TourEventAdded',
    ]);
    t.match((await as(shipper).get('/api/loads/shipper')).body.data[0], {
      id: loadId,
      status: 10,
      actions: [1, 4, 6, 7, 12, 16],
    });

    t.equal(
      (await as(driver).put(status, { status: 4 })).status,
      403,
      'only the shipper confirms delivery',
    );
    await events.expect(t, [], { message: 'the refused confirmation appended nothing' });
    t.equal(
      (await as(shipper).put(status, { status: 4, message: 'Received in good order' })).status,
      200,
    );
    await events.expect(t, [
      { type: 'TourStatusChanged', stream: tourStream(tourId), data: { to: 4, party: 'shipper' } },
      'TourEventAdded',
      { type: 'LoadCompleted', stream: loadStream(loadId) },
    ]);
    const row = (await as(shipper).get('/api/loads/shipper')).body.data[0];
    t.match(row, {
      status: 4,
      statusName: 'Delivered',
      loadStatus: 9,
      loadStatusName: 'Completed',
    });
    t.ok(row.actions.includes(8), 'rate offered');
  },
);

t.test('each side rates the other once, in steps of 0.5; both see both ratings', async (t) => {
  const { shipper, carrier, carrierB, tourId } = await tourAt('delivered');
  const rate = `/api/tours/${tourId}/rate`;
  const events = await watchEvents(platform.store);

  const criteria = (await as(shipper).get(`/api/tours/rating/${tourId}`)).body;
  t.same(
    criteria.criteria.map((entry: { id: number }) => entry.id),
    [1, 2, 3, 4],
    'the shipper rates the carrier criteria',
  );
  t.equal(criteria.mine, null);
  t.equal(
    (
      await as(shipper).post(rate, {
        ratings: shipperRatings.map((entry, index) => (index ? entry : { ...entry, rating: 4.2 })),
      })
    ).status,
    400,
    'steps of 0.5',
  );
  await events.expect(t, [], { message: 'the refused rating appended nothing' });

  const rated = await as(shipper).post(`${rate}/`, { ratings: shipperRatings });
  t.equal(rated.status, 201, rated.text);
  t.equal((await as(shipper).post(rate, { ratings: shipperRatings })).status, 409, 'once per side');
  t.equal((await as(carrier).post(rate, { ratings: carrierRatings })).status, 201);
  t.equal(
    (await as(carrierB).post(rate, { ratings: [{ criteria: 5, rating: 3.5 }] })).status,
    404,
    'the carrier that lost the load',
  );
  await events.expect(
    t,
    [
      {
        type: 'TourRated',
        stream: tourStream(tourId),
        data: { ratings: [{ criteria: 1, rating: 4.5 }] },
      },
      {
        type: 'TourRated',
        stream: tourStream(tourId),
        data: { ratings: [{ criteria: 5, rating: 3.5 }] },
      },
    ],
    { message: 'each side rated once; the refusals appended nothing' },
  );
  t.match((await as(carrier).get(`/api/tours/rating/${tourId}`)).body, {
    mine: [{ criteria: 5, rating: 3.5 }],
    theirs: [{ criteria: 1, rating: 4.5 }],
  });

  t.same(
    (await as(carrier).get('/api/profile')).body.ratings,
    { Punctuality: 4.5, Communication: 5, 'Cargo condition': 4, Professionalism: 5 },
    "the carrier's ratings in its profile",
  );
  t.match((await as(shipper).get('/api/profile')).body.ratings, { 'Loading speed': 3.5 });
});
