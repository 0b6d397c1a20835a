import { sql } from 'kysely';
import t from 'tap';
import { Role } from '../../domain/permissions.ts';
import { claimsProjection } from '../../projections/claims/claims.projection.ts';
import { detentionFiguresProjection } from '../../projections/detentionFigures/detentionFigures.projection.ts';
import { ProjectionRunner, resetProjection } from '../../projections/runner.ts';
import { member, organization, superadmin } from '../identity/fixtures.ts';
import { pngImage } from '../integrations/pdf/testing.ts';
import { requester } from '../testing/http.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * Reprojecting from the log gives the same claims and detention figures, row for row: a run of
 * shipments produces every kind of claim and answer (detention approved by the shipper, approved by
 * silence, disputed, answered and settled; TONU; a lumper receipt) and the figures of their stops;
 * both read models are then emptied and rebuilt from position 0, in small pages, and every row of
 * `claims_view` and of the figures' tables must come back the same.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);
const admin = await superadmin(app, platform);
const PNG = Buffer.from(pngImage(2, 2, () => [255, 255, 255]));
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
const parties = { shipper, carrier, driver };
const views = [claimsProjection, detentionFiguresProjection];
const names = views.map((projection) => projection.name);

const claimsOf = async (tourId: string, count: number) => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const reply = await as(shipper).get(`/api/tours/${tourId}/claims`);
    if (reply.status !== 200 || reply.body.length >= count) return reply.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return (await as(shipper).get(`/api/tours/${tourId}/claims`)).body;
};

/** A tour on the road whose truck stayed `minutes` at the pickup from its appointment; its claim. */
const detained = async (minutes: number) => {
  const { tourId, loadId } = await steps.tourAt('inTransit', parties, { load: { terms } });
  const load = (await as(shipper).get(`/api/loads/${loadId}`)).body;
  const tour = (await platform.marketplace.loadTour(tourId))!;
  const appointment = Date.parse(load.pickupTimestampStart);
  for (const [type, at] of [
    ['arrived', appointment],
    ['departed', appointment + minutes * MINUTE],
  ] as const)
    await platform.marketplace.addSystemTourEvent(
      tourId,
      { type, message: type, stopId: tour.stops[0]!.id },
      'geofence',
      new Date(at).toISOString(),
    );
  const [claim] = await claimsOf(tourId, 1);
  return { tourId, claim };
};

/** Every row of a table, in a stable order, as plain JSON. */
const rowsOf = async (table: string, order: string) => {
  const { rows } = await sql<
    Record<string, unknown>
  >`SELECT * FROM ${sql.table(table)} ORDER BY ${sql.raw(order)}`.execute(platform.database.db);
  return JSON.parse(JSON.stringify(rows)) as Record<string, unknown>[];
};
const TABLES: [string, string][] = [
  ['claims_view', 'id'],
  ['detention_tours_view', 'tour_id'],
  ['detention_stops_view', 'tour_id, stop_id'],
  ['detention_claims_view', 'claim_id'],
  ['detention_figures_view', 'scope, key'],
];
const snapshot = async () => {
  const tables = new Map<string, Record<string, unknown>[]>();
  for (const [table, order] of TABLES) tables.set(table, await rowsOf(table, order));
  return tables;
};

t.test('claims and figures rebuilt from the log equal the live ones, row for row', async (t) => {
  // Detention approved by the shipper.
  const approvedOne = await detained(180);
  t.equal(
    (
      await as(shipper).post(
        `/api/tours/${approvedOne.tourId}/claims/${approvedOne.claim.id}/approve`,
      )
    ).status,
    200,
  );
  // Detention disputed, answered by the carrier, settled by the Superadmin.
  const disputedOne = await detained(240);
  const base = `/api/tours/${disputedOne.tourId}/claims/${disputedOne.claim.id}`;
  t.equal((await as(shipper).post(`${base}/dispute`, { reason: 'Dock log: 2 h' })).status, 200);
  t.equal((await as(carrier).post(`${base}/answer`, { text: 'Geofence: 4 h' })).status, 200);
  t.equal((await as(admin).post(`${base}/settle`, { amount: 60, note: 'Half' })).status, 200);
  // Detention left unanswered: silence approves it once due.
  const silentOne = await detained(200);
  t.ok((await platform.accessorialClaims.sweep(silentOne.claim.dueAt)) >= 1, 'approved by silence');
  // A stop within the free time: measured, no claim.
  await detained(60);
  // TONU: the shipper cancels after the carrier confirmed; the shipper approves it.
  const { tourId: tonuTour, loadId: tonuLoad } = await steps.tourAt('assigned', parties, {
    load: { terms },
  });
  t.equal(
    (await as(shipper).put(`/api/loads/${tonuLoad}/status`, { status: 7, message: 'Pulled' }))
      .status,
    200,
  );
  const [tonu] = await claimsOf(tonuTour, 1);
  t.equal((await as(shipper).post(`/api/tours/${tonuTour}/claims/${tonu.id}/approve`)).status, 200);
  // Lumper: the driver's receipt.
  const { tourId: lumperTour } = await steps.tourAt('inTransit', parties, { load: { terms } });
  const lumper = await as(driver).upload(`/api/tours/${lumperTour}/lumper`, {
    data: { amount: 95 },
    files: { receipt: { content: PNG, filename: 'receipt.png', type: 'image/png' } },
  });
  t.equal(lumper.status, 201, lumper.text);

  const head = await platform.store.committedHead();
  t.ok(await platform.runner.waitFor(names, head, 20_000), 'the live read models reached the head');
  const live = await snapshot();

  // What the live read models hold: every kind of claim and answer, and measured figures.
  t.same(
    live
      .get('claims_view')!
      .map((row) => `${row.kind}:${row.status}:${row.approved_by ?? '-'}`)
      .sort(),
    [
      'detention:approved:shipper',
      'detention:approved:silence',
      'detention:settled:-',
      'lumper:claimed:-',
      'tonu:approved:shipper',
    ],
    'every kind of claim and answer is in the log',
  );
  t.match(
    live
      .get('detention_figures_view')!
      .find((row) => row.scope === 'shipper' && row.key === shipper.organizationId),
    { stops: 4, median_minutes: 190, detention_stops: 3, claims_decided: 4, claims_on_time: 2 },
    'the shipper’s figures: 4 stops measured, 3 held, 2 of 4 answered claims approved on time',
  );

  // Rebuild both read models from the start of the log, in pages of 7 events, beside a stopped runner.
  await platform.runner.stop();
  try {
    await platform.database.db.transaction().execute(async (trx) => {
      for (const projection of views) await resetProjection(trx, projection);
    });
    t.same((await snapshot()).get('claims_view'), [], 'the claims are gone before the rebuild');
    const runner = new ProjectionRunner(platform.database, platform.store, views, {
      pageSize: 7,
      lockRetryMs: 200,
    });
    await runner.start();
    t.ok(await runner.waitFor(names, head, 60_000), 'the rebuild reached the head');
    await runner.stop();
  } finally {
    await platform.runner.start();
  }
  const rebuilt = await snapshot();
  for (const [table] of TABLES)
    t.same(rebuilt.get(table), live.get(table), `${table}: the same rows after the rebuild`);
});
