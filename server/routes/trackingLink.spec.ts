/**
 * Tracking shared with a receiver, through HTTP and real sockets: only the tour's shipper or carrier
 * makes a link; the public answer carries no price, contact or person's name; another
 * organization's tour, an unknown, expired or revoked link all answer 404; the events are in the
 * tour's stream; a socket opened with a link hears that tour's positions only and closes when the
 * link is revoked or expires.
 */
import { sql } from 'kysely';
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import { tourStream } from '../../domain/tours/tour.types.ts';
import { watchEvents } from '../testing/events.ts';
import { member, organization, superadmin } from '../identity/fixtures.ts';
import { runningTour } from '../testing/runningTour.ts';
import {
  closedByServer,
  connected,
  expectStatus,
  login,
  sleep,
  waitUntil,
  startListeningApp,
} from '../realtime/testing.ts';
import { io, type Socket } from 'socket.io-client';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
t.setTimeout(300_000);
const { app, platform, baseUrl, http } = await startListeningApp(t);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Shipping' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Zeta Hauling' });
const driver = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'Dan Driver',
});
const otherShipper = await organization(app, platform, 'Shipper', { name: 'Other Goods' });
const otherCarrier = await organization(app, platform, 'Carrier', { name: 'Beta Trucking' });
const emails = { shipper: shipper.email, carrier: carrier.email, driver: driver.email };
const tokenOf = async (who: keyof typeof emails) => (await login(http, emails[who])).accessToken;
const { tourId } = await runningTour(http, tokenOf, driver.userId);
const second = await runningTour(http, tokenOf, driver.userId);
/** What the share requests appended to the tours' streams (positions and reactors write elsewhere). */
const events = await watchEvents(platform.store);
const tours = { stream: /^tour-/ };

const share = (token: string, id = tourId, body: unknown = {}) =>
  http('POST', `/api/tours/${id}/share`, token, body);
const publicTrack = (token: string) =>
  http('GET', `/api/shared/track/${encodeURIComponent(token)}`, null);
const position = (id: string, latitude: number, longitude: number) =>
  expectStatus(
    http('POST', `/api/tours/${id}/positions`, driver.token, {
      latitude,
      longitude,
      speed: 55,
      heading: 120,
    }),
    202,
    'position',
  );
const openSockets: Socket[] = [];
t.teardown(() => {
  for (const socket of openSockets) socket.disconnect();
});
const linkSocket = async (shareToken: string) => {
  const socket = io(baseUrl, {
    path: '/socket.io',
    auth: { shareToken },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 5000,
  });
  openSockets.push(socket);
  return connected(socket);
};

t.test(
  'the shipper makes a link; the public page shows where the load is and nothing private',
  async (t) => {
    const before = Date.now();
    const created = await share(shipper.token, tourId, {});
    t.equal(created.status, 201);
    const shared = await events.expect(
      t,
      [
        {
          type: 'TourShared',
          stream: tourStream(tourId),
          data: { tourId, organizationId: shipper.organizationId, sharedBy: shipper.userId },
        },
      ],
      tours,
    );
    t.notMatch(
      JSON.stringify(shared.map((event) => event.data)),
      created.json.token,
      'the token itself is not in the log',
    );
    t.match(created.json.token, /^[A-Za-z0-9_-]{43}$/, '256 random bits, base64url');
    t.equal(created.json.url, `/shared/track/${created.json.token}`);
    const hours = (Date.parse(created.json.expiresAt) - before) / 3_600_000;
    t.ok(hours > 23.99 && hours < 24.01, 'lasts 24 hours by default');

    await position(tourId, 41.7, -87.5);
    // Positions are accepted before their read model has them (202).
    let answer = await publicTrack(created.json.token);
    for (let tries = 0; answer.json?.lastPosition === null && tries < 100; tries++) {
      await sleep(50);
      answer = await publicTrack(created.json.token);
    }
    t.equal(answer.status, 200);
    t.equal(answer.json.statusName, 'Dispatched');
    t.match(answer.json.loadGuid, /\S/);
    t.same(
      answer.json.stops.map((stop: any) => [stop.type, stop.city, stop.state]),
      [
        ['pickup', 'Chicago', 'IL'],
        ['dropoff', 'Indianapolis', 'IN'],
      ],
    );
    t.ok(answer.json.stops[0].scheduledAt, 'the pickup time');
    t.match(answer.json.lastPosition, { latitude: 41.7, longitude: -87.5, speed: 55 });
    t.equal(answer.json.trail.length, 1);
    t.ok(answer.json.eta?.at, 'an ETA');
    const text = JSON.stringify(answer.json);
    for (const secret of [
      'price',
      'Pat Dock',
      '555-0101',
      'PU-1',
      'Acme',
      'Zeta',
      'Dan Driver',
      'Paper',
      'contact',
      shipper.organizationId!,
      carrier.organizationId!,
      driver.userId,
    ]) {
      t.notOk(text.includes(secret), `no ${secret}`);
    }

    const stored = await platform.database.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('type', '=', 'TourShared')
      .execute();
    t.equal(stored.length, 1, 'a TourShared event in the log');
    t.notOk(
      JSON.stringify(stored[0].data).includes(created.json.token),
      'the log keeps only the hash of the token',
    );
  },
);

t.test(
  'the carrier shares too; the driver, a Superadmin and other organizations cannot',
  async (t) => {
    const byCarrier = await share(carrier.token, tourId, { expiresInHours: 168 });
    t.equal(byCarrier.status, 201);
    await events.expect(
      t,
      [{ type: 'TourShared', data: { tourId, organizationId: carrier.organizationId } }],
      tours,
    );
    t.equal((await share(driver.token, tourId)).status, 403, 'a driver holds no share permission');
    t.equal((await share(admin.token, tourId)).status, 403, 'a Superadmin belongs to neither side');
    t.equal(
      (await share(otherShipper.token, tourId)).status,
      404,
      "another shipper's tour does not exist for it",
    );
    t.equal(
      (await share(otherCarrier.token, tourId)).status,
      404,
      "another carrier's tour does not exist for it",
    );
    t.equal(
      (await share(shipper.token, '00000000-0000-4000-8000-000000000000')).status,
      404,
      'an unknown tour',
    );
    t.equal((await http('POST', `/api/tours/${tourId}/share`, null, {})).status, 401, 'signed out');
    await events.expect(t, [], { ...tours, message: 'a refused link appends nothing' });
  },
);

t.test('bad input answers 400 naming the field, and nothing is written', async (t) => {
  const count = async () =>
    Number(
      (
        await platform.database.db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('type', '=', 'TourShared')
          .executeTakeFirstOrThrow()
      ).n,
    );
  const before = await count();
  for (const expiresInHours of [0, 169, 1.5, 'soon', -3]) {
    const answer = await share(shipper.token, tourId, { expiresInHours });
    t.equal(answer.status, 400, `expiresInHours ${JSON.stringify(expiresInHours)}`);
    t.match(JSON.stringify(answer.json), /expiresInHours/);
  }
  t.equal((await http('POST', '/api/tours/not-a-uuid/share', shipper.token, {})).status, 400);
  t.equal(await count(), before);
  await events.expect(t, [], { ...tours, message: 'bad input appends nothing' });
});

t.test('an unknown, expired or revoked link answers 404, the same for all', async (t) => {
  const unknown = await publicTrack('x'.repeat(43));
  t.equal(unknown.status, 404);
  const created = await share(shipper.token, tourId, { expiresInHours: 1 });
  t.equal((await publicTrack(created.json.token)).status, 200);
  // An hour passes: the link's expiry is moved to the past in its read model.
  await sql`UPDATE tour_shares_view SET expires_at = now() - interval '1 second' WHERE token_hash = ${await hashOf(created.json.token)}`.execute(
    platform.database.db,
  );
  const expired = await publicTrack(created.json.token);
  t.equal(expired.status, 404);
  t.same(expired.json.message, unknown.json.message, 'expired reads like unknown');

  const revoked = await share(shipper.token, tourId);
  t.equal(
    (await http('DELETE', `/api/tours/${tourId}/share/${revoked.json.token}`, otherShipper.token))
      .status,
    404,
    'another organization cannot revoke it',
  );
  t.equal(
    (await http('DELETE', `/api/tours/${tourId}/share/${revoked.json.token}`, carrier.token))
      .status,
    404,
    "the other side's link is not the carrier's to revoke",
  );
  t.equal(
    (await http('DELETE', `/api/tours/${tourId}/share/${revoked.json.token}`, shipper.token))
      .status,
    204,
  );
  await events.expect(
    t,
    [
      { type: 'TourShared', data: { tourId } },
      { type: 'TourShared', data: { tourId } },
      {
        type: 'TourShareRevoked',
        stream: tourStream(tourId),
        data: { tourId, revokedBy: shipper.userId },
      },
    ],
    { ...tours, message: 'two links, the second revoked; refused revocations append nothing' },
  );
  const gone = await publicTrack(revoked.json.token);
  t.equal(gone.status, 404, 'stops at once');
  t.same(gone.json.message, unknown.json.message);
  t.equal(
    (await http('DELETE', `/api/tours/${tourId}/share/${revoked.json.token}`, shipper.token))
      .status,
    404,
    'revoked once',
  );
  t.equal(
    (await http('DELETE', `/api/tours/${second.tourId}/share/${revoked.json.token}`, shipper.token))
      .status,
    404,
    'named with another tour',
  );
  const revocations = await platform.database.db
    .selectFrom('events')
    .select('type')
    .where('type', '=', 'TourShareRevoked')
    .execute();
  t.equal(revocations.length, 1, 'a TourShareRevoked event in the log');
  await events.expect(t, [], { ...tours, message: 'a second revocation appends nothing' });
});

t.test(
  'a socket opened with a link hears its tour only, nothing private, and closes when the link is revoked',
  async (t) => {
    const created = await share(shipper.token, tourId);
    const socket = await linkSocket(created.json.token);
    const heard: { event: string; payload: any }[] = [];
    socket.onAny((event, payload) => heard.push({ event, payload }));
    t.same(
      await socket.timeout(5000).emitWithAck('tour:watch', { shareToken: 'x'.repeat(43) }),
      { ok: false, error: 'This tracking link does not exist or has ended' },
      'another token',
    );
    t.same(
      await socket.timeout(5000).emitWithAck('tour:watch', { tourId: second.tourId }),
      { ok: false, error: 'This tracking link does not exist or has ended' },
      'a tour by its id',
    );
    t.same(
      await socket.timeout(5000).emitWithAck('tour:watch', { shareToken: created.json.token }),
      { ok: true, tourId },
    );

    await position(second.tourId, 40.1, -86.9);
    await position(tourId, 41.2, -87.1);
    await expectStatus(
      http('POST', `/api/tours/${tourId}/chat`, shipper.token, { message: 'Call me at the gate' }),
      201,
      'chat',
    );
    await expectStatus(
      http('POST', `/api/tours/${tourId}/events`, driver.token, {
        type: 'note',
        message: 'Fuel stop by Dan',
      }),
      201,
      'note',
    );
    await waitUntil(
      () =>
        heard.some((entry) => entry.event === 'tour:position') &&
        heard.some((entry) => entry.event === 'tour:event'),
      5000,
      'the position and the note',
    );
    await sleep(300);
    const positions = heard.filter((entry) => entry.event === 'tour:position');
    t.same(
      positions.map((entry) => [entry.payload.tourId, entry.payload.latitude]),
      [[tourId, 41.2]],
      "only the shared tour's position",
    );
    t.notOk(
      heard.some((entry) => entry.event === 'chat:message'),
      'no chat',
    );
    t.notOk(JSON.stringify(heard).includes('Fuel stop'), "no timeline entry's text");
    t.notOk(
      heard.some((entry) =>
        ['load:posted', 'proposal:new', 'proposal:updated', 'lane:alert'].includes(entry.event),
      ),
      'no other room',
    );

    const closed = closedByServer(socket);
    await expectStatus(
      http('DELETE', `/api/tours/${tourId}/share/${created.json.token}`, shipper.token),
      204,
      'revoke',
    );
    const { reason } = await Promise.race([
      closed,
      sleep(3000).then(() => ({ reason: 'still open' })),
    ]);
    t.equal(reason, 'io server disconnect', 'closed by the server');
    await t.rejects(
      linkSocket(created.json.token),
      { message: 'This tracking link does not exist or has ended' },
      'and cannot connect again',
    );
  },
);

t.test(
  'a socket closes when its link expires, and the handshake refuses an unknown link',
  async (t) => {
    await t.rejects(linkSocket('y'.repeat(43)), {
      message: 'This tracking link does not exist or has ended',
    });
    const created = await share(carrier.token, tourId, { expiresInHours: 1 });
    const socket = await linkSocket(created.json.token);
    const closed = closedByServer(socket);
    await sql`UPDATE tour_shares_view SET expires_at = now() - interval '1 second' WHERE token_hash = ${await hashOf(created.json.token)}`.execute(
      platform.database.db,
    );
    const { reason } = await Promise.race([
      closed,
      sleep(3000).then(() => ({ reason: 'still open' })),
    ]);
    t.equal(reason, 'io server disconnect');
  },
);

async function hashOf(token: string) {
  const { hashShareToken } = await import('../auth/shareTokens.ts');
  return hashShareToken(token);
}
