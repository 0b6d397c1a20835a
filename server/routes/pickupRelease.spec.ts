/**
 * Who comes to the dock, through HTTP, real sockets and a real webhook receiver: the carrier names
 * the tractor with the driver; only the assigned driver sees the rotating release code, and only
 * from an hour before the pickup appointment; the shipper's dock link shows the dock who should
 * come and takes the code (no sign-in); the right code releases the pickup, a wrong code, another
 * tractor or an ELD truck far away hold it with the reasons, each try recorded in the tour's stream
 * with its evidence; a hold alerts both sides' dispatchers (socket, e-mail, webhook); a link takes
 * 10 tries, ends when revoked or expired, and the load's history lists the outcomes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import { tourStream, type TourAssigned } from '../../domain/tours/tour.types.ts';
import { hashShareToken } from '../auth/shareTokens.ts';
import { releaseCodeAt } from '../commands/releaseCode.ts';
import { member, organization } from '../identity/fixtures.ts';
import {
  expectStatus,
  listen,
  postLoad,
  sleep,
  startListeningApp,
  submitOffer,
  uploadContract,
  waitUntil,
} from '../realtime/testing.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { GARY, inHours } from '../testing/loadBodies.ts';
import { defaultWebhookSettings } from '../webhooks/settings.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
t.setTimeout(300_000);

/** A webhook receiver on a loopback port that keeps every event it gets. */
const received: { type: string; data: any }[] = [];
const receiver = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    response.writeHead(200).end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
t.teardown(
  () =>
    new Promise<void>((resolve) => {
      receiver.closeAllConnections();
      receiver.close(() => resolve());
    }),
);

const {
  app,
  platform,
  baseUrl,
  http: call,
} = await startListeningApp(t, {
  webhooks: { ...defaultWebhookSettings(true), firstDelayMs: 40, maxDelayMs: 150, pollMs: 30 },
});
const as = requester(app);

const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Shipping' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Zeta Hauling' });
const driver = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'Dana Brooks',
});
const otherDriver = await member(app, platform, carrier.organizationId!, Role.Driver);
const otherShipper = await organization(app, platform, 'Shipper', { name: 'Other Goods' });
const otherCarrier = await organization(app, platform, 'Carrier', { name: 'Beta Trucking' });

/** A tour booked, signed and assigned (with `truck` as the assignment's body), its pickup `pickupInHours` away. */
async function bookedTour(pickupInHours: number, truck?: unknown) {
  const load = await postLoad(call, shipper.token, {
    pickupTimestampStart: inHours(pickupInHours),
    expiration: inHours(Math.min(pickupInHours / 2, 24)),
    dropOffTimestampStart: inHours(pickupInHours + 10),
  });
  const offerId = await submitOffer(call, carrier.token, load.id, 1500);
  await expectStatus(
    call('PUT', `/api/proposal/${offerId}`, shipper.token, { status: 5 }),
    200,
    'accept',
  );
  const { tourId } = (await as(shipper).get(`/api/loads/${load.id}`)).body;
  await uploadContract(call, carrier.token, load.id);
  const assigned = await as(carrier).post(`/api/tours/${tourId}/assign/${driver.userId}`, truck);
  return { loadId: load.id as string, tourId: tourId as string, assigned };
}

const hook = await as(shipper).post('/api/webhooks', {
  url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
  events: ['tour.pickup_held', 'tour.pickup_released'],
});
if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${hook.text}`);

const events = await watchEvents(platform.store);
const tours = { stream: /^tour-/ };
const soon = await bookedTour(0.5, { tractorNumber: 'T-481', trailerNumber: 'TR-22' });
const { tourId, loadId } = soon;

const codeNow = async () => (await as(driver).get(`/api/tours/${tourId}/release-code`)).body;
const dockLink = async () => {
  const created = await as(shipper).post(`/api/tours/${tourId}/dock-link`);
  if (created.status !== 201) throw new Error(`dock link: ${created.status} ${created.text}`);
  return created.body as { token: string; url: string; expiresAt: string };
};
const release = (token: string, body: unknown) =>
  as(null).post(`/api/dock/${encodeURIComponent(token)}/release`, body);

t.test('the assignment records the tractor and trailer; older callers send no body', async (t) => {
  t.equal(soon.assigned.status, 200);
  const [assigned] = await events
    .expect(
      t,
      [
        'TourOpened',
        'CarrierConfirmed',
        {
          type: 'TourAssigned',
          stream: tourStream(tourId),
          data: { assigneeId: driver.userId, tractorNumber: 'T-481', trailerNumber: 'TR-22' },
        },
        'TourStatusChanged',
        'TourEventAdded',
      ],
      { ...tours, message: 'the tour of the booked load' },
    )
    .then((all) => all.filter((event) => event.type === 'TourAssigned'));
  t.match(
    (assigned!.data as TourAssigned['data']).sealedReleaseSecret,
    /^v1\./,
    'the release secret is kept sealed',
  );

  const old = await bookedTour(48);
  t.equal(old.assigned.status, 200, 'no body still assigns');
  const [oldAssigned] = (await events.take(tours)).filter((e) => e.type === 'TourAssigned');
  t.equal((oldAssigned!.data as TourAssigned['data']).tractorNumber, undefined);

  const bad = await as(carrier).post(`/api/tours/${old.tourId}/assign/${driver.userId}`, {
    tractorNumber: '',
  });
  t.equal(bad.status, 400, 'an empty tractor number is refused');
  t.match(JSON.stringify(bad.body), /tractor number/);
  await events.expect(t, [], tours);

  t.equal(
    (await as(driver).get(`/api/tours/${old.tourId}/release-code`)).status,
    409,
    'two days before the pickup the code does not show yet',
  );
});

t.test('the release code: the assigned driver only, rotating every 30 seconds', async (t) => {
  const answer = await as(driver).get(`/api/tours/${tourId}/release-code`);
  t.equal(answer.status, 200);
  t.match(answer.body.code, /^\d{6}$/);
  const left = Date.parse(answer.body.validUntil) - Date.now();
  t.ok(left > 0 && left <= 30_000, 'valid until the end of its 30 seconds');
  t.equal(Date.parse(answer.body.validUntil) % 30_000, 0, 'on the 30-second steps');
  t.equal(answer.headers['cache-control'], 'no-store');

  for (const [who, status] of [
    [shipper, 403],
    [carrier, 403],
    [otherDriver, 404],
    [otherShipper, 403],
    [otherCarrier, 403],
  ] as const) {
    const refused = await as(who).get(`/api/tours/${tourId}/release-code`);
    t.equal(refused.status, status, `${who.email}: ${status}`);
    t.notOk(JSON.stringify(refused.body).includes(answer.body.code), 'no code for anyone else');
  }

  const [assigned] = (await platform.store.readStream(tourStream(tourId))).events.filter(
    (event) => event.type === 'TourAssigned',
  );
  const sealed = (assigned!.data as TourAssigned['data']).sealedReleaseSecret!;
  const at = Date.parse(answer.body.validUntil) - 1;
  const codes = [0, 1, 2, 3].map(
    (step) =>
      releaseCodeAt(platform.secrets, sealed, tourId, driver.userId, at + step * 30_000).code,
  );
  t.equal(codes[0], answer.body.code, 'the code of its 30 seconds');
  t.ok(new Set(codes).size >= 3, 'a new code every 30 seconds');
  t.not(
    releaseCodeAt(platform.secrets, sealed, tourId, otherDriver.userId, at).code,
    answer.body.code,
    'another driver has other codes',
  );
});

t.test('a dock link: made by the shipper, read without signing in', async (t) => {
  const before = Date.now();
  t.equal(
    (await as(carrier).post(`/api/tours/${tourId}/dock-link`)).status,
    403,
    'the carrier makes none',
  );
  t.equal(
    (await as(otherShipper).post(`/api/tours/${tourId}/dock-link`)).status,
    404,
    "another shipper's tour does not exist",
  );
  await events.expect(t, [], tours);
  const link = await dockLink();
  t.match(link.token, /^[A-Za-z0-9_-]{43}$/, '256 random bits, base64url');
  t.equal(link.url, `/dock/${link.token}`);
  const hours = (Date.parse(link.expiresAt) - before) / 3_600_000;
  t.ok(hours > 6 && hours < 7, 'works until 6 hours after the pickup window');
  const [created] = await events.expect(
    t,
    [
      {
        type: 'DockLinkCreated',
        stream: tourStream(tourId),
        data: { tourId, organizationId: shipper.organizationId, createdBy: shipper.userId },
      },
    ],
    tours,
  );
  t.notMatch(JSON.stringify(created!.data), link.token, 'the token itself is not in the log');

  const page = await as(null).get(`/api/dock/${link.token}`);
  t.equal(page.status, 200);
  t.match(page.body, {
    loadGuid: /\S/,
    carrier: 'Zeta Hauling',
    driverFirstName: 'Dana',
    tractorNumber: 'T-481',
    trailerNumber: 'TR-22',
    eldDistanceMiles: null,
    pickupWindow: { start: /T/, end: /T/, timezone: 'America/Chicago' },
    state: 'waiting',
    triesLeft: 10,
  });
  t.notMatch(JSON.stringify(page.body), /Brooks|1500|price/, 'no surname, no price');
  t.equal((await as(null).get('/api/dock/not-a-link')).status, 404);
});

t.test('the right code releases the pickup, with the evidence', async (t) => {
  const link = await dockLink();
  await events.take(tours);
  const shipperSocket = await listen(baseUrl, 'shipper', shipper.token);
  t.teardown(shipperSocket.close);
  const { code } = await codeNow();
  const answer = await release(link.token, { code, tractorNumber: 't 481' });
  t.same(answer.body, { state: 'released' });
  t.equal(answer.status, 200);
  await events.expect(
    t,
    [
      {
        type: 'PickupReleased',
        stream: tourStream(tourId),
        data: {
          tourId,
          driverId: driver.userId,
          codeVerified: true,
          tractorNumberEntered: 't 481',
          tractorNumberAssigned: 'T-481',
          eldDistanceMiles: null,
          enteredBy: 'dock_link',
          attempt: 1,
        },
      },
    ],
    tours,
  );
  t.equal((await as(null).get(`/api/dock/${link.token}`)).body.state, 'released');
  await waitUntil(
    () =>
      shipperSocket.heard.some(
        (entry) => entry.event === 'tour:event' && entry.payload.event.type === 'PickupReleased',
      ),
    5000,
    'the shipper hears the release',
  );
  await waitUntil(
    () => received.some((entry) => entry.type === 'tour.pickup_released'),
    10_000,
    'the webhook hears the release',
  );
});

t.test('a wrong code holds the pickup and alerts both sides at once', async (t) => {
  const link = await dockLink();
  await events.take(tours);
  const shipperSocket = await listen(baseUrl, 'shipper', shipper.token);
  const carrierSocket = await listen(baseUrl, 'carrier', carrier.token);
  const outsider = await listen(baseUrl, 'outsider', otherCarrier.token);
  t.teardown(() => {
    for (const socket of [shipperSocket, carrierSocket, outsider]) socket.close();
  });
  const { code } = await codeNow();
  const wrong = code === '000000' ? '111111' : '000000';
  const answer = await release(link.token, { code: wrong });
  t.equal(answer.status, 200);
  t.same(answer.body, {
    state: 'held',
    reasons: [
      { code: 'wrong_code', text: "The code is not the assigned driver's current release code" },
    ],
  });
  await events.expect(
    t,
    [
      {
        type: 'PickupHeld',
        stream: tourStream(tourId),
        data: { codeVerified: false, reasons: ['wrong_code'], attempt: 1, enteredBy: 'dock_link' },
      },
    ],
    tours,
  );
  const page = (await as(null).get(`/api/dock/${link.token}`)).body;
  t.equal(page.state, 'held');
  t.same(
    page.reasons.map((reason: { code: string }) => reason.code),
    ['wrong_code'],
  );
  t.equal(page.triesLeft, 9);

  const heldHeard = (listener: typeof shipperSocket) =>
    listener.heard.some(
      (entry) => entry.event === 'tour:event' && entry.payload.event.type === 'PickupHeld',
    );
  await waitUntil(
    () => heldHeard(shipperSocket) && heldHeard(carrierSocket),
    5000,
    'both sides hear',
  );
  await sleep(200);
  t.notOk(heldHeard(outsider), 'another carrier hears nothing');
  const mails = await platform.mailer.listOutbox(50);
  for (const who of [shipper, carrier])
    t.ok(
      mails.some(
        (mail) =>
          mail.to === who.email &&
          mail.subject.startsWith('Pickup held') &&
          mail.text.includes('release code'),
      ),
      `${who.email} is e-mailed`,
    );
  await waitUntil(
    () => received.some((entry) => entry.type === 'tour.pickup_held'),
    10_000,
    'the webhook hears the hold',
  );
  const webhook = received.find((entry) => entry.type === 'tour.pickup_held')!;
  t.equal(webhook.data.tourId, tourId);
});

t.test('another tractor than the assigned one holds the pickup', async (t) => {
  const link = await dockLink();
  await events.take(tours);
  const { code } = await codeNow();
  const answer = await release(link.token, { code, tractorNumber: 'X-999' });
  t.same(
    answer.body.reasons.map((reason: { code: string }) => reason.code),
    ['tractor_mismatch'],
  );
  await events.expect(
    t,
    [
      {
        type: 'PickupHeld',
        data: {
          codeVerified: true,
          tractorNumberEntered: 'X-999',
          tractorNumberAssigned: 'T-481',
          reasons: ['tractor_mismatch'],
        },
      },
    ],
    tours,
  );
});

t.test('a link takes 10 tries', async (t) => {
  const link = await dockLink();
  await events.take(tours);
  for (let attempt = 1; attempt <= 10; attempt++) {
    const answer = await release(link.token, { code: '12345' });
    t.equal(answer.body.state, 'held', `try ${attempt} is answered`);
  }
  const refused = await release(link.token, { code: '123456' });
  t.equal(refused.status, 429, 'the 11th is refused');
  t.match(refused.body.message, /10 tries/);
  const appended = await events.take(tours);
  t.equal(appended.length, 10, 'ten tries recorded, the refused one not');
  t.equal((await as(null).get(`/api/dock/${link.token}`)).body.triesLeft, 0);
});

t.test('a truck the ELD puts far from the pickup is held', async (t) => {
  await expectStatus(
    call('PUT', `/api/tours/${tourId}/status`, driver.token, { status: 3, message: 'Rolling' }),
    200,
    'dispatch',
  );
  // The ELD poller's own path: no caller, the ELD as the source.
  const recorded = await platform.marketplace.recordPositions(
    null,
    tourId,
    [
      {
        latitude: GARY.latitude,
        longitude: GARY.longitude,
        speed: 0,
        heading: 0,
        accuracy: null,
        recordedAt: new Date().toISOString(),
      },
    ],
    new Date().toISOString(),
  );
  await platform.runner.waitFor(['tourPositions'], recorded.position);
  const link = await dockLink();
  await events.take(tours);
  const page = (await as(null).get(`/api/dock/${link.token}`)).body;
  t.ok(page.eldDistanceMiles > 20 && page.eldDistanceMiles < 30, 'Gary is about 25 miles away');
  const { code } = await codeNow();
  const answer = await release(link.token, { code });
  t.same(
    answer.body.reasons.map((reason: { code: string }) => reason.code),
    ['truck_far_away'],
  );
  const [held] = await events.expect(t, ['PickupHeld'], tours);
  t.match(held!.data, { codeVerified: true, reasons: ['truck_far_away'] });
  t.ok((held!.data as { eldDistanceMiles: number }).eldDistanceMiles > 20, 'the distance is kept');
});

t.test('a dock link ends when revoked or expired', async (t) => {
  const link = await dockLink();
  await events.take(tours);
  t.equal(
    (await as(carrier).delete(`/api/tours/${tourId}/dock-link/${link.token}`)).status,
    403,
    'the carrier revokes none',
  );
  t.equal((await as(shipper).delete(`/api/tours/${tourId}/dock-link/${link.token}`)).status, 204);
  await events.expect(t, [{ type: 'DockLinkRevoked', data: { revokedBy: shipper.userId } }], tours);
  t.equal((await as(null).get(`/api/dock/${link.token}`)).status, 404);
  t.equal((await release(link.token, { code: '123456' })).status, 404);
  t.equal(
    (await as(shipper).delete(`/api/tours/${tourId}/dock-link/${link.token}`)).status,
    404,
    'once',
  );

  const expiring = await dockLink();
  await sql`UPDATE dock_links_view SET expires_at = now() - interval '1 second' WHERE token_hash = ${hashShareToken(expiring.token)}`.execute(
    platform.database.db,
  );
  t.equal((await as(null).get(`/api/dock/${expiring.token}`)).status, 404, 'expired');
  t.equal((await release(expiring.token, { code: '123456' })).status, 404);
  await events.take(tours);
});

t.test("the load's history lists the releases and holds, without secrets", async (t) => {
  const history = await as(shipper).get(`/api/loads/${loadId}/history`);
  t.equal(history.status, 200);
  const types = history.body.events.map((entry: { type: string }) => entry.type);
  t.ok(types.includes('PickupReleased'));
  t.ok(types.includes('PickupHeld'));
  t.ok(types.includes('DockLinkCreated'));
  const text = JSON.stringify(history.body);
  t.notMatch(text, /sealedReleaseSecret|tokenHash/, 'no secret of the log');
  const carrierHistory = await as(carrier).get(`/api/loads/${loadId}/history`);
  t.ok(
    carrierHistory.body.events.some((entry: { type: string }) => entry.type === 'PickupHeld'),
    'the carrier reads the holds too',
  );
});

t.test('a dock link e-mailed to the dock carries the absolute link', async (t) => {
  await events.take(tours);
  const created = await as(shipper).post(`/api/tours/${tourId}/dock-link`, {
    email: 'dock@acme.example',
  });
  t.equal(created.status, 201);
  t.equal(created.body.emailed, true, 'the answer says it went out');
  const mail = (await platform.mailer.listOutbox(100)).find(
    (entry) => entry.to === 'dock@acme.example',
  );
  t.ok(mail, 'the dock gets an e-mail');
  t.match(mail!.subject, /^Pickup release for load L-/);
  t.ok(
    mail!.text.includes(`${platform.config.publicUrl}/dock/${created.body.token}`),
    'with the absolute link',
  );
  t.match(mail!.text, /6-digit release code/);
  await events.expect(t, ['DockLinkCreated'], tours);

  const bad = await as(shipper).post(`/api/tours/${tourId}/dock-link`, { email: 'not-mail' });
  t.equal(bad.status, 400, 'a bad address makes no link');
  await events.expect(t, [], tours);
});

t.test(
  'the same driver with another truck is recorded again; the same truck changes nothing',
  async (t) => {
    await events.take(tours);
    const same = await as(carrier).post(`/api/tours/${tourId}/assign/${driver.userId}`, {
      tractorNumber: 'T-481',
      trailerNumber: 'TR-22',
    });
    t.equal(same.status, 200);
    await events.expect(t, [], tours);
    const other = await as(carrier).post(`/api/tours/${tourId}/assign/${driver.userId}`, {
      tractorNumber: 'T-900',
    });
    t.equal(other.status, 200);
    await events.expect(
      t,
      [{ type: 'TourAssigned', data: { tractorNumber: 'T-900', trailerNumber: null } }],
      tours,
    );
    const link = await dockLink();
    const page = (await as(null).get(`/api/dock/${link.token}`)).body;
    t.equal(page.tractorNumber, 'T-900', 'the dock sees the new tractor');
    t.equal(page.trailerNumber, null);
  },
);
