// @postgres: facilities joined within 200 m and their figures in SQL, and a rebuild from position 0
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import t from 'tap';
import { Role } from '../../domain/permissions.ts';
import { facilitiesProjection } from '../../projections/facilities/facilities.projection.ts';
import { ProjectionRunner, resetProjection } from '../../projections/runner.ts';
import { member, organization } from '../identity/fixtures.ts';
import { requester } from '../testing/http.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * Facilities over HTTP: three shipments picked up at the same mill with known arrival and departure
 * times give its figures on GET facilities/{id} and beside the load's stop on GET loads/{id}; only a
 * driver whose tour left the facility tags it, only its shipper replies; a rebuild of the read model
 * from the log gives the same rows and the same page.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);
const MINUTE = 60_000;

const shipper = await organization(app, platform, 'Shipper');
const otherShipper = await organization(app, platform, 'Shipper');
const carrier = await organization(app, platform, 'Carrier');
const driver = await member(app, platform, carrier.organizationId!, Role.Driver);
const otherDriver = await member(app, platform, carrier.organizationId!, Role.Driver);
const parties = { shipper, carrier, driver };

/** A shipment whose truck arrived `late` minutes after the pickup appointment and stayed `minutes`. */
const visit = async (late: number, minutes: number | null) => {
  const { tourId, loadId } = await steps.tourAt('inTransit', parties);
  const load = (await as(shipper).get(`/api/loads/${loadId}`)).body;
  const tour = (await platform.marketplace.loadTour(tourId))!;
  const arrived = Date.parse(load.pickupTimestampStart) + late * MINUTE;
  const entries: ['arrived' | 'departed', number][] = [['arrived', arrived]];
  if (minutes !== null) entries.push(['departed', arrived + minutes * MINUTE]);
  for (const [type, at] of entries)
    await platform.marketplace.addSystemTourEvent(
      tourId,
      { type, message: type, stopId: tour.stops[0]!.id },
      'geofence',
      new Date(at).toISOString(),
    );
  await steps.settled();
  return { tourId, loadId };
};

const first = await visit(0, 60);
const firstLoad = (await as(shipper).get(`/api/loads/${first.loadId}`)).body;
const facilityId: string = firstLoad.locations[0].facilityId;

t.test('every stop of a load names its facility; the figures wait for three visits', async (t) => {
  t.match(facilityId, /^[0-9a-f-]{36}$/);
  t.same(firstLoad.locations[0].facility, { timeOnSiteMedian: null, visits: 1 });
  t.not(firstLoad.locations[1].facilityId, facilityId, 'the delivery is another facility');
  const page = await as(carrier).get(`/api/facilities/${facilityId}`);
  t.equal(page.status, 200);
  t.match(page.body, {
    id: facilityId,
    name: 'Acme Paper Mill',
    visits: 1,
    timeOnSite: { median: null, p75: null },
    onTimeShare: null,
    detentionShare: null,
    canTag: false,
    canReply: false,
  });
});

t.test('three visits: median, p75, on-time share, by weekday and hour', async (t) => {
  await visit(10, 120);
  // 50 minutes late: beyond the 30 minutes' grace.
  await visit(50, 180);
  const page = await as(driver).get(`/api/facilities/${facilityId}`);
  t.equal(page.status, 200);
  t.match(page.body, {
    visits: 3,
    timeOnSite: { median: 120, p75: 150 },
    onTimeShare: 0.67,
    onTimeVisits: 3,
    detentionShare: 0,
    canTag: true,
    canReply: false,
  });
  t.equal(
    page.body.byWeekday.reduce((sum: number, cell: { visits: number }) => sum + cell.visits, 0),
    3,
    'each visit in its weekday and hour',
  );
  const load = (await as(carrier).get(`/api/loads/${first.loadId}`)).body;
  t.same(load.locations[0].facility, { timeOnSiteMedian: 120, visits: 3 });
  t.equal((await as(shipper).get(`/api/facilities/${facilityId}`)).body.canReply, true);
});

t.test(
  "a marketplace row carries its pickup's and delivery's facility with the median",
  async (t) => {
    const posted = await steps.postLoad(shipper);
    await steps.settled();
    const rows = await as(carrier).get('/api/loads/carrier?pageSize=50');
    t.equal(rows.status, 200);
    const row = rows.body.data.find((entry: { id: string }) => entry.id === posted.loadId);
    t.ok(row, 'the new load is on the marketplace');
    t.match(row.facilities, {
      pickup: { facilityId, facility: { timeOnSiteMedian: 120, visits: 3 } },
      delivery: { facilityId: firstLoad.locations[1].facilityId, facility: { visits: 0 } },
    });
    t.equal(
      row.facilities.delivery.facility.timeOnSiteMedian,
      null,
      'no figure under three visits',
    );
  },
);

t.test("a tour's stops name their facilities, for the tour's parties only", async (t) => {
  const mine = await as(driver).get(`/api/tours/${first.tourId}/facilities`);
  t.equal(mine.status, 200);
  t.match(mine.body, [
    { facilityId, facility: { timeOnSiteMedian: 120, visits: 3 } },
    { facility: { timeOnSiteMedian: null, visits: 0 } },
  ]);
  t.equal((await as(otherShipper).get(`/api/tours/${first.tourId}/facilities`)).status, 404);
});

t.test('tags: only a driver whose tour left the facility; the five tags only', async (t) => {
  const url = `/api/facilities/${facilityId}/tags`;
  const tagged = await as(driver).post(url, { tags: ['parking', 'wait'] });
  t.equal(tagged.status, 201, tagged.text);
  t.same(
    tagged.body.tags.filter((tag: { count: number }) => tag.count > 0),
    [
      { tag: 'parking', count: 1 },
      { tag: 'wait', count: 1 },
    ],
  );
  // Tagging again replaces the driver's tags.
  const again = await as(driver).post(url, { tags: ['staff'] });
  t.equal(again.status, 201);
  t.same(
    again.body.tags.filter((tag: { count: number }) => tag.count > 0),
    [{ tag: 'staff', count: 1 }],
  );
  t.equal((await as(otherDriver).post(url, { tags: ['staff'] })).status, 403, 'never there');
  t.equal((await as(carrier).post(url, { tags: ['staff'] })).status, 403, 'not a driver');
  t.equal((await as(shipper).post(url, { tags: ['staff'] })).status, 403, 'not a driver');
  const wrong = await as(driver).post(url, { tags: ['coffee'] });
  t.equal(wrong.status, 400);
  t.match(wrong.text, /tags/);
  t.equal((await as(driver).post(url, { tags: [] })).status, 400);
  t.equal(
    (await as(driver).post(`/api/facilities/${randomUUID()}/tags`, { tags: ['staff'] })).status,
    404,
  );
  t.equal((await as(driver).post('/api/facilities/nope/tags', { tags: ['staff'] })).status, 400);
});

t.test("replies: only the facility's shipper", async (t) => {
  const url = `/api/facilities/${facilityId}/replies`;
  const replied = await as(shipper).post(url, { text: 'Use gate 3 after 6 pm' });
  t.equal(replied.status, 201, replied.text);
  t.match(replied.body.replies, [{ text: 'Use gate 3 after 6 pm', organization: String }]);
  t.equal((await as(otherShipper).post(url, { text: 'Not ours' })).status, 403);
  t.equal((await as(carrier).post(url, { text: 'Not ours' })).status, 403);
  const empty = await as(shipper).post(url, { text: '  ' });
  t.equal(empty.status, 400);
  t.match(empty.text, /text/);
  t.equal(
    (await as(shipper).post(`/api/facilities/${randomUUID()}/replies`, { text: 'Hi' })).status,
    404,
  );
  t.equal((await as(otherShipper).get(`/api/facilities/${randomUUID()}`)).status, 404);
  const read = await as(otherShipper).get(`/api/facilities/${facilityId}`);
  t.equal(read.status, 200, 'any Active user reads a facility');
  t.equal(read.body.replies.length, 1);
});

t.test('rebuilt from the log, the facilities read model is the same, row for row', async (t) => {
  const tables: [string, string][] = [
    ['facilities_view', 'id'],
    ['facility_stops_view', 'load_id, stop_id'],
    ['facility_visits_view', 'tour_id, stop_id'],
    ['facility_figures_view', 'facility_id'],
    ['facility_tags_view', 'facility_id, user_id'],
    ['facility_replies_view', 'reply_id'],
  ];
  const snapshot = async () => {
    const rows = new Map<string, unknown>();
    for (const [table, order] of tables) {
      const result =
        await sql`SELECT * FROM ${sql.table(table)} ORDER BY ${sql.raw(order)}`.execute(
          platform.database.db,
        );
      rows.set(table, JSON.parse(JSON.stringify(result.rows)));
    }
    return rows;
  };
  const head = await platform.store.committedHead();
  t.ok(await platform.runner.waitFor(['facilities'], head, 20_000));
  const live = await snapshot();
  const livePage = (await as(shipper).get(`/api/facilities/${facilityId}`)).body;
  await platform.runner.stop();
  try {
    await platform.database.db.transaction().execute(async (trx) => {
      await resetProjection(trx, facilitiesProjection);
    });
    const runner = new ProjectionRunner(platform.database, platform.store, [facilitiesProjection], {
      pageSize: 5,
      lockRetryMs: 200,
    });
    await runner.start();
    t.ok(await runner.waitFor(['facilities'], head, 60_000), 'the rebuild reached the head');
    await runner.stop();
  } finally {
    await platform.runner.start();
  }
  const rebuilt = await snapshot();
  for (const [table] of tables) t.same(rebuilt.get(table), live.get(table), `${table} the same`);
  t.same((await as(shipper).get(`/api/facilities/${facilityId}`)).body, livePage);
});
