import t from 'tap';
import { Role } from '../../domain/permissions.ts';
import { member, organization } from '../identity/fixtures.ts';
import { requester } from '../testing/http.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * Detention figures as a carrier reads them before it offers: on the marketplace's rows and on one
 * load, the shipper's, the pickup place's and the delivery place's; "new" while fewer than three
 * stops were measured, figures from the third on.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);

const MINUTE = 60_000;
const terms = {
  freeTimeHours: { pickup: 2, delivery: 2 },
  detentionPerHour: 60,
  detentionCap: 600,
  tonu: 200,
  layoverPerDay: 300,
  lumper: 'carrier-reimbursed',
  graceMinutes: 30,
  disputeWindowHours: 48,
};

const shipper = await organization(app, platform, 'Shipper');
const carrier = await organization(app, platform, 'Carrier');
const driver = await member(app, platform, carrier.organizationId!, Role.Driver);
const otherCarrier = await organization(app, platform, 'Carrier');
// The open load another carrier considers: same shipper, same pickup and delivery places.
const { loadId: openLoad } = await steps.postLoad(shipper, { terms });

const claimsOf = async (tourId: string, count: number) => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const reply = await as(shipper).get(`/api/tours/${tourId}/claims`);
    if (reply.status !== 200 || reply.body.length >= count) return reply.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return (await as(shipper).get(`/api/tours/${tourId}/claims`)).body;
};

/** A tour whose truck stayed `minutes` at the pickup, from its appointment. */
const stayAtPickup = async (minutes: number) => {
  const { tourId, loadId } = await steps.tourAt(
    'inTransit',
    { shipper, carrier, driver },
    { load: { terms } },
  );
  const load = (await as(shipper).get(`/api/loads/${loadId}`)).body;
  const pickup = (await platform.marketplace.loadTour(tourId))!.stops[0]!;
  const appointment = Date.parse(load.pickupTimestampStart);
  await platform.marketplace.addSystemTourEvent(
    tourId,
    { type: 'arrived', message: 'Arrived', stopId: pickup.id },
    'geofence',
    new Date(appointment).toISOString(),
  );
  await platform.marketplace.addSystemTourEvent(
    tourId,
    { type: 'departed', message: 'Departed', stopId: pickup.id },
    'geofence',
    new Date(appointment + minutes * MINUTE).toISOString(),
  );
  return tourId;
};

const read = async () => {
  await platform.runner.waitFor(['detentionFigures'], await platform.store.committedHead(), 10_000);
  const board = await as(otherCarrier).get('/api/loads/carrier?pageSize=100');
  const row = board.body.data?.find((entry: { id: string }) => entry.id === openLoad);
  const one = await as(otherCarrier).get(`/api/loads/${openLoad}`);
  return { board, row, one };
};

const NEW = {
  timeOnSiteMedian: null,
  detentionShare: null,
  approvedOnTimeShare: null,
  status: 'new',
};

t.test('a shipper with fewer than three measured stops reads "new"', async (t) => {
  let { board, row, one } = await read();
  t.equal(board.status, 200, board.text);
  t.ok(row, 'the open load is on the marketplace');
  t.same(row.detention, {
    shipper: { stops: 0, ...NEW },
    pickup: { stops: 0, ...NEW },
    delivery: { stops: 0, ...NEW },
  });
  t.equal(one.status, 200, one.text);
  t.same(one.body.detention, row.detention, 'the load reads the same');

  await stayAtPickup(60);
  ({ row, one } = await read());
  t.same(row.detention.shipper, { stops: 1, ...NEW }, 'one stop measured: new');
  t.same(one.body.detention.pickup, { stops: 1, ...NEW });

  // Three hours with two free: detention, claimed; the shipper approves it at once.
  const second = await stayAtPickup(180);
  const [claim] = await claimsOf(second, 1);
  t.match(claim, { kind: 'detention', status: 'claimed' });
  const approved = await as(shipper).post(`/api/tours/${second}/claims/${claim.id}/approve`);
  t.equal(approved.status, 200, approved.text);
  ({ row, one } = await read());
  t.same(row.detention.shipper, { stops: 2, ...NEW }, 'two stops measured: still new');
  t.same(one.body.detention.shipper, { stops: 2, ...NEW });
});

t.test('the third measured stop gives the figures', async (t) => {
  // 200 minutes: detention again, and this time the shipper disputes the claim.
  const third = await stayAtPickup(200);
  const [claim] = await claimsOf(third, 1);
  const disputed = await as(shipper).post(`/api/tours/${third}/claims/${claim.id}/dispute`, {
    reason: 'Our dock log says 2 hours',
  });
  t.equal(disputed.status, 200, disputed.text);
  const { row, one } = await read();
  const measured = {
    stops: 3,
    timeOnSiteMedian: 180,
    detentionShare: 0.67,
    approvedOnTimeShare: 0.5,
    status: 'measured',
  };
  t.same(row.detention.shipper, measured, 'the shipper: median 3 h, 2 of 3 held, 1 of 2 on time');
  t.same(row.detention.pickup, measured, 'the pickup place: the same three stops');
  t.same(row.detention.delivery, { stops: 0, ...NEW }, 'the delivery place: nothing measured yet');
  t.same(one.body.detention, row.detention, 'GET loads/{id} answers the same figures');
});
