import t from 'tap';
import { claimsStream } from '../../domain/claims/claim.types.ts';
import { Role } from '../../domain/permissions.ts';
import { member, organization, superadmin } from '../identity/fixtures.ts';
import { pngImage } from '../integrations/pdf/testing.ts';
import { requester } from '../testing/http.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * Accessorial claims over HTTP: the terms a load is posted with, a detention claim produced from
 * the recorded arrival and departure, the shipper's dispute, the carrier's answer, the Superadmin's
 * settlement, approval by silence, TONU at a cancellation after the carrier confirmed, the driver's
 * lumper receipt; who may do what, 404 for other organizations and 400 naming the field.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);
const admin = await superadmin(app, platform);
const PNG = Buffer.from(pngImage(2, 2, () => [255, 255, 255]));

const HOUR = 3600_000;
const terms = {
  freeTimeHours: { pickup: 2, delivery: 2 },
  detentionPerHour: 75,
  detentionCap: 600,
  tonu: 250,
  layoverPerDay: 300,
  lumper: 'carrier-reimbursed',
  graceMinutes: 30,
  disputeWindowHours: 48,
};

const parties = async () => {
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const driver = await member(app, platform, carrier.organizationId!, Role.Driver);
  const stranger = await organization(app, platform, 'Shipper');
  return { shipper, carrier, driver, stranger };
};

/** Waits for the reactor to produce the tour's claims. */
const claimsOf = async (user: Parameters<typeof as>[0], tourId: string, count: number) => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const reply = await as(user).get(`/api/tours/${tourId}/claims`);
    if (reply.status !== 200 || reply.body.length >= count) return reply;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return as(user).get(`/api/tours/${tourId}/claims`);
};

t.test(
  'a load carries its terms; a missing field comes from the defaults; a wrong one is named',
  async (t) => {
    const { shipper } = await parties();
    const { loadId } = await steps.postLoad(shipper, { terms: { tonu: 300 } });
    const load = (await as(shipper).get(`/api/loads/${loadId}`)).body;
    t.match(load.terms, {
      tonu: 300,
      freeTimeHours: { pickup: 2, delivery: 2 },
      disputeWindowHours: 48,
    });

    const organizationNow = await platform.identity.loadOrganization(shipper.organizationId!);
    const saved = await as(shipper).put('/api/users/organization', {
      name: organizationNow!.name,
      ...organizationNow!.contact,
      defaultTerms: { detentionPerHour: 90, lumper: 'shipper' },
    });
    t.equal(saved.status, 200, saved.text);
    const { loadId: second } = await steps.postLoad(shipper);
    t.match((await as(shipper).get(`/api/loads/${second}`)).body.terms, {
      detentionPerHour: 90,
      lumper: 'shipper',
      tonu: 150,
    });
    const none = await steps.postLoad(shipper, { terms: null });
    t.equal((await as(shipper).get(`/api/loads/${none.loadId}`)).body.terms, null, 'no terms');
  },
);

t.test('terms are validated field by field', async (t) => {
  const { shipper } = await parties();
  const { loadBody } = await import('../testing/loadBodies.ts');
  const refused = await as(shipper).post(
    '/api/loads',
    loadBody({ terms: { detentionPerHour: -5, lumper: 'nobody', graceMinutes: 1.5 } }),
  );
  t.equal(refused.status, 400);
  const paths = (refused.body.errors ?? []).map((error: { path: string }) => error.path);
  t.ok(paths.includes('terms.detentionPerHour'), paths.join(', '));
  t.ok(paths.includes('terms.lumper'), paths.join(', '));
  t.ok(paths.includes('terms.graceMinutes'), paths.join(', '));
});

t.test(
  "the tracking answer carries the detention clock's terms and appointments, to the assigned driver too",
  async (t) => {
    const { shipper, carrier, driver } = await parties();
    const { CHICAGO, GARY, INDIANAPOLIS, stop } = await import('../testing/loadBodies.ts');
    const { tourId, loadId } = await steps.tourAt(
      'inTransit',
      { shipper, carrier, driver },
      {
        load: {
          terms,
          locations: [
            stop(CHICAGO, 1, 'Acme Paper Mill'),
            stop(GARY, 3, 'Gary Cross Dock'),
            stop(INDIANAPOLIS, 4, 'Hoosier Print Works'),
          ],
        },
      },
    );
    const load = (await as(shipper).get(`/api/loads/${loadId}`)).body;
    const tour = await platform.marketplace.loadTour(tourId);
    const [pickup, between, delivery] = tour!.stops.map((entry) => entry.id);
    for (const [who, user] of [
      ['the driver', driver],
      ['the shipper', shipper],
    ] as const) {
      const track = await as(user).get(`/api/tours/track/${tourId}`);
      t.equal(track.status, 200, `${who} reads the tracking answer`);
      t.match(
        track.body.detention,
        {
          terms,
          appointments: [
            { stopId: pickup, at: load.pickupTimestampStart, timezone: load.pickupTimezone },
            { stopId: between, at: null, timezone: null },
            { stopId: delivery, at: load.dropOffTimestampStart, timezone: load.dropoffTimezone },
          ],
        },
        `${who}: the agreed terms, and the appointments of the first and the last stop only`,
      );
    }
    t.equal(
      (await as(driver).get(`/api/loads/${loadId}`)).status,
      403,
      'the driver still reads no load',
    );
  },
);

t.test(
  'three hours at a delivery with two free: a detention claim with its evidence; disputed, answered, settled',
  async (t) => {
    const { shipper, carrier, driver, stranger } = await parties();
    const { tourId, loadId } = await steps.tourAt(
      'inTransit',
      { shipper, carrier, driver },
      { load: { terms } },
    );
    const load = (await as(shipper).get(`/api/loads/${loadId}`)).body;
    t.match(load.agreedTerms, { detentionPerHour: 75 }, 'the accepted terms are the load’s');
    const tour = await platform.marketplace.loadTour(tourId);
    const delivery = tour!.stops.at(-1)!;
    const appointment = Date.parse(load.dropOffTimestampStart);
    const arrivedAt = new Date(appointment - 10 * 60_000).toISOString();
    const leftAt = new Date(appointment + 3 * HOUR).toISOString();
    await platform.marketplace.addSystemTourEvent(
      tourId,
      { type: 'arrived', message: `Arrived at ${delivery.name}`, stopId: delivery.id },
      'geofence',
      arrivedAt,
    );
    await platform.marketplace.addSystemTourEvent(
      tourId,
      { type: 'departed', message: `Departed ${delivery.name}`, stopId: delivery.id },
      'geofence',
      leftAt,
    );

    const listed = await claimsOf(shipper, tourId, 1);
    t.equal(listed.status, 200);
    t.equal(listed.body.length, 1);
    const claim = listed.body[0];
    t.match(claim, {
      kind: 'detention',
      stopIndex: tour!.stops.length - 1,
      minutes: 60,
      amount: 75,
      status: 'claimed',
      evidence: { arrivedAt, leftAt, appointmentAt: new Date(appointment).toISOString() },
      note: null,
      dueAt: new Date(Date.parse(leftAt) + 48 * HOUR).toISOString(),
    });
    t.equal(
      (await as(carrier).get(`/api/tours/${tourId}/claims`)).status,
      200,
      'the carrier sees it',
    );
    t.equal((await as(driver).get(`/api/tours/${tourId}/claims`)).status, 200, 'the driver too');
    t.equal((await as(admin).get(`/api/tours/${tourId}/claims`)).status, 200, 'and a Superadmin');
    t.equal(
      (await as(stranger).get(`/api/tours/${tourId}/claims`)).status,
      404,
      'others: not found',
    );

    const base = `/api/tours/${tourId}/claims/${claim.id}`;
    t.equal((await as(stranger).post(`${base}/dispute`, { reason: 'No' })).status, 404);
    t.equal((await as(carrier).post(`${base}/dispute`, { reason: 'No' })).status, 403);
    const blank = await as(shipper).post(`${base}/dispute`, { reason: '  ' });
    t.equal(blank.status, 400);
    t.match(blank.body.errors, [{ path: 'reason' }]);
    t.equal(
      (await as(carrier).post(`${base}/answer`, { text: 'Early' })).status,
      409,
      'nothing to answer yet',
    );

    const disputed = await as(shipper).post(`${base}/dispute`, {
      reason: 'Our dock log says 2 hours',
    });
    t.equal(disputed.status, 200, disputed.text);
    t.match(disputed.body, {
      id: claim.id,
      status: 'disputed',
      disputeReason: 'Our dock log says 2 hours',
    });
    t.equal(
      (await as(shipper).post(`${base}/answer`, { text: 'x' })).status,
      403,
      'the carrier answers',
    );
    const answered = await as(carrier).post(`${base}/answer`, {
      text: 'The geofence shows 3 hours',
    });
    t.equal(answered.status, 200);
    t.match(answered.body, { status: 'answered', note: 'The geofence shows 3 hours' });

    t.equal((await as(shipper).post(`${base}/settle`, { amount: 50, note: 'Split' })).status, 403);
    const tooMuch = await as(admin).post(`${base}/settle`, { amount: 80, note: 'More' });
    t.equal(tooMuch.status, 400);
    t.match(tooMuch.body.errors, [{ path: 'amount' }]);
    const settled = await as(admin).post(`${base}/settle`, { amount: 50, note: 'Split' });
    t.equal(settled.status, 200);
    t.match(settled.body, {
      status: 'settled',
      settledAmount: 50,
      settlementNote: 'Split',
      amount: 75,
    });

    const history = await platform.store.readStream(claimsStream(tourId));
    t.same(
      history.events.map((event) => event.type),
      ['AccessorialClaimed', 'AccessorialDisputed', 'AccessorialAnswered', 'AccessorialSettled'],
      'the log keeps every step',
    );
  },
);

t.test('silence approves an unanswered claim once its window closes, by no person', async (t) => {
  const { shipper, carrier, driver } = await parties();
  const { tourId, loadId } = await steps.tourAt(
    'inTransit',
    { shipper, carrier, driver },
    { load: { terms } },
  );
  const load = (await as(shipper).get(`/api/loads/${loadId}`)).body;
  const pickup = (await platform.marketplace.loadTour(tourId))!.stops[0]!;
  const appointment = Date.parse(load.pickupTimestampStart);
  // An early truck: the clock starts at the appointment, not at its arrival 2 hours before.
  const leftAt = new Date(appointment + 2.5 * HOUR).toISOString();
  await platform.marketplace.addSystemTourEvent(
    tourId,
    { type: 'arrived', message: 'Arrived', stopId: pickup.id },
    'geofence',
    new Date(appointment - 2 * HOUR).toISOString(),
  );
  await platform.marketplace.addSystemTourEvent(
    tourId,
    { type: 'departed', message: 'Departed', stopId: pickup.id },
    'geofence',
    leftAt,
  );
  const [claim] = (await claimsOf(shipper, tourId, 1)).body;
  t.match(claim, { kind: 'detention', minutes: 30, amount: 37.5, status: 'claimed' });

  t.equal(
    await platform.accessorialClaims.sweep(
      new Date(Date.parse(claim.dueAt) - 60_000).toISOString(),
    ),
    0,
  );
  t.ok((await platform.accessorialClaims.sweep(claim.dueAt)) >= 1, 'approved once due');
  await platform.runner.waitFor(['claims'], await platform.store.committedHead(), 10_000);
  const [after] = (await as(carrier).get(`/api/tours/${tourId}/claims`)).body;
  t.match(after, { status: 'approved', approvedBy: 'silence' });
  const history = await platform.store.readStream(claimsStream(tourId));
  const approved = history.events.at(-1)!;
  t.match(approved, { type: 'AccessorialApproved', data: { approvedBy: null, bySilence: true } });
  t.equal(approved.metadata.userId, null, 'the audit trail names no person');
  t.equal((await as(shipper).post(`/api/tours/${tourId}/claims/${claim.id}/approve`)).status, 409);
});

t.test('TONU when the shipper cancels after the carrier confirmed', async (t) => {
  const { shipper, carrier, driver } = await parties();
  const { tourId, loadId } = await steps.tourAt(
    'assigned',
    { shipper, carrier, driver },
    { load: { terms } },
  );
  const canceled = await as(shipper).put(`/api/loads/${loadId}/status`, {
    status: 7,
    message: 'Order pulled',
  });
  t.equal(canceled.status, 200, canceled.text);
  const [claim] = (await claimsOf(carrier, tourId, 1)).body;
  t.match(claim, { kind: 'tonu', amount: 250, status: 'claimed', stopIndex: null });
  const approved = await as(shipper).post(`/api/tours/${tourId}/claims/${claim.id}/approve`);
  t.equal(approved.status, 200);
  t.match(approved.body, { status: 'approved', approvedBy: 'shipper' });
});

t.test('the assigned driver sends a lumper receipt; nobody else may', async (t) => {
  const { shipper, carrier, driver, stranger } = await parties();
  const { tourId } = await steps.tourAt(
    'inTransit',
    { shipper, carrier, driver },
    { load: { terms } },
  );
  const receipt = { receipt: { content: PNG, filename: 'receipt.png', type: 'image/png' } };
  t.equal(
    (
      await as(stranger).upload(`/api/tours/${tourId}/lumper`, {
        data: { amount: 120 },
        files: receipt,
      })
    ).status,
    403,
    'a shipper never sends one, whatever the tour',
  );
  t.equal(
    (
      await as(carrier).upload(`/api/tours/${tourId}/lumper`, {
        data: { amount: 120 },
        files: receipt,
      })
    ).status,
    403,
  );
  const noAmount = await as(driver).upload(`/api/tours/${tourId}/lumper`, {
    data: {},
    files: receipt,
  });
  t.equal(noAmount.status, 400);
  t.match(noAmount.body.errors, [{ path: 'amount' }]);
  const sent = await as(driver).upload(`/api/tours/${tourId}/lumper`, {
    data: { amount: 120.5 },
    files: receipt,
  });
  t.equal(sent.status, 201, sent.text);
  t.match(sent.body, { kind: 'lumper', amount: 120.5, status: 'claimed' });
  t.ok(sent.body.evidence.receiptFileId, 'the receipt is the evidence');
  const file = await as(shipper).get(`/api/files/${sent.body.evidence.receiptFileId}`);
  t.equal(file.status, 200, 'the shipper reads the receipt');
});
