/**
 * A socket outlives its access token only by receiving a fresh one (`auth:refresh`): with a short
 * token lifetime (ACCESS_TOKEN_TTL_SECONDS), a socket that sent a fresh token stays open past the
 * old expiry and still hears positions and new loads, one that did not is closed at its expiry,
 * and a bad, expired or foreign token closes the socket at once. Also the catch-up route
 * `GET /api/tours/{id}/positions?since=`.
 */
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import { member, organization } from '../identity/fixtures.ts';
import { runningTour } from '../testing/runningTour.ts';
import {
  closedByServer,
  decodeClaims,
  expectStatus,
  listen,
  login,
  postLoad,
  sleep,
  tokenLike,
  waitUntil,
  watchTour,
  type Listener,
  startListeningApp,
} from './testing.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
t.setTimeout(300_000);
const TTL = 5;
const { app, platform, baseUrl, http, sockets } = await startListeningApp(t, {
  accessTokenTtlSeconds: TTL,
});

const shipper = await organization(app, platform, 'Shipper', { name: 'Short Token Shipping' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Short Token Hauling' });
const driver = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'Tom Token',
});
const otherCarrier = await organization(app, platform, 'Carrier', { name: 'Other Token Hauling' });
const emails = { shipper: shipper.email, carrier: carrier.email, driver: driver.email };
/** A fresh access token: every token of this server lives TTL seconds. */
const tokenOf = async (who: keyof typeof emails) => (await login(http, emails[who])).accessToken;
const { tourId } = await runningTour(http, tokenOf, driver.userId);

const listenAs = async (name: string, token: string) => {
  const listener = await listen(baseUrl, name, token);
  sockets.push(listener);
  return listener;
};
const refresh = (listener: Listener, token: unknown) =>
  listener.socket.timeout(5000).emitWithAck('auth:refresh', { token });

t.test('the access token lives as long as ACCESS_TOKEN_TTL_SECONDS says', async (t) => {
  const session = await login(http, carrier.email);
  const claims = decodeClaims(session.accessToken);
  t.equal(claims.exp - claims.iat, TTL);
  const refreshed = await expectStatus(
    http('POST', '/api/refresh-token', null, { refreshToken: session.refreshToken }),
    200,
    'refresh',
  );
  t.equal(refreshed.expiresIn, TTL, 'the refresh answers the same lifetime');
});

t.test(
  'a socket that received a fresh token outlives the old one and keeps hearing; one that did not is closed at expiry',
  async (t) => {
    const session = await login(http, carrier.email);
    const firstExp = decodeClaims(session.accessToken).exp;
    const kept = await listenAs('kept', session.accessToken);
    const lapsed = await listenAs('lapsed', (await login(http, carrier.email)).accessToken);
    t.same(await watchTour(kept.socket, tourId), { ok: true }, 'kept watches the tour');
    t.same(await watchTour(lapsed.socket, tourId), { ok: true }, 'lapsed watches the tour');
    const lapsedClosed = closedByServer(lapsed.socket);
    let keptClosedAt: number | null = null;
    kept.socket.once('disconnect', () => {
      keptClosedAt = Date.now();
    });

    // Halfway through its life the client refreshes its token (as the browser does) and hands it over.
    await sleep(Math.max(0, firstExp * 1000 - Date.now() - (TTL * 1000) / 2));
    const refreshed = await expectStatus(
      http('POST', '/api/refresh-token', null, { refreshToken: session.refreshToken }),
      200,
      'refresh',
    );
    const secondExp = decodeClaims(refreshed.accessToken).exp;
    t.ok(secondExp > firstExp, 'the fresh token ends later');
    t.same(
      await refresh(kept, refreshed.accessToken),
      { ok: true, expiresAt: secondExp },
      'the server takes the fresh token',
    );

    const closedLapsed = await lapsedClosed;
    t.equal(
      closedLapsed.reason,
      'io server disconnect',
      'the socket without a fresh token is closed by the server',
    );
    await sleep(Math.max(0, firstExp * 1000 - Date.now() + 1000));
    t.ok(
      kept.socket.connected,
      "a second past the first token's expiry the refreshed socket is still open",
    );
    t.equal(keptClosedAt, null);

    kept.clear();
    await expectStatus(
      http('POST', `/api/tours/${tourId}/positions`, await tokenOf('driver'), {
        latitude: 41.2,
        longitude: -87.3,
        speed: 50,
        heading: 90,
      }),
      202,
      'position',
    );
    const posted = await postLoad(http, await tokenOf('shipper'));
    // Generous limits: on a busy machine the broadcast may take seconds; a socket that stopped
    // hearing still fails, only later.
    await waitUntil(
      () => kept.heard.some((entry) => entry.event === 'tour:position'),
      30_000,
      'the position',
    );
    await waitUntil(
      () =>
        kept.heard.some((entry) => entry.event === 'load:posted' && entry.payload.id === posted.id),
      30_000,
      'the posted load',
    );
    t.match(
      kept.heard.find((entry) => entry.event === 'tour:position')!.payload,
      { tourId, latitude: 41.2, longitude: -87.3 },
      'it hears the position',
    );
    t.match(
      kept.heard.find((entry) => entry.event === 'load:posted')!.payload,
      { id: posted.id, open: true },
      'and the new load',
    );

    // With no further token, it too is closed, at the fresh token's expiry.
    const keptClosed = await closedByServer(kept.socket);
    t.equal(keptClosed.reason, 'io server disconnect');
    const delay = Date.now() - secondExp * 1000;
    t.ok(delay >= -50 && delay < 1500, `closed at the fresh token's exp (${delay} ms after it)`);
  },
);

t.test('a bad, expired, foreign or missing token closes the socket at once', async (t) => {
  const now = Math.floor(Date.now() / 1000);
  const own = await login(http, carrier.email);
  const cases: [string, (token: string) => unknown, string][] = [
    ['no token', () => undefined, 'Please sign in'],
    ['a forged token', () => 'not.a.token', 'Your session has expired. Please sign in again.'],
    [
      'an expired token',
      (token) => tokenLike(platform.config.jwtSecret, token, { iat: now - TTL, exp: now - 1 }),
      'Your session has expired. Please sign in again.',
    ],
    ["another user's token", () => own.accessToken, 'This token belongs to another session'],
  ];
  for (const [label, make, error] of cases) {
    const token = (await login(http, otherCarrier.email)).accessToken;
    const listener = await listenAs(label, token);
    const closed = closedByServer(listener.socket);
    t.same(await refresh(listener, make(token)), { ok: false, error }, `${label}: refused`);
    t.equal((await closed).reason, 'io server disconnect', `${label}: the socket is closed`);
  }
  // Another session of the same user: a stolen token must not keep a socket alive either.
  const first = await login(http, otherCarrier.email);
  const second = await login(http, otherCarrier.email);
  const listener = await listenAs('other session', first.accessToken);
  const closed = closedByServer(listener.socket);
  t.same(await refresh(listener, second.accessToken), {
    ok: false,
    error: 'This token belongs to another session',
  });
  t.equal((await closed).reason, 'io server disconnect');
});

t.test(
  "GET /api/tours/{id}/positions?since= answers what a map missed, to the tour's parties only",
  async (t) => {
    const before = new Date(Date.now() - 1000).toISOString();
    const recorded = [
      {
        latitude: 41.3,
        longitude: -87.4,
        speed: 51,
        heading: 91,
        recordedAt: new Date(Date.now() - 500).toISOString(),
      },
      {
        latitude: 41.4,
        longitude: -87.5,
        speed: 52,
        heading: 92,
        recordedAt: new Date().toISOString(),
      },
    ];
    await expectStatus(
      http('POST', `/api/tours/${tourId}/positions`, await tokenOf('driver'), recorded),
      202,
      'positions',
    );
    let answer: any[] = [];
    for (let attempt = 0; attempt < 50 && answer.length < 2; attempt += 1) {
      answer = await expectStatus(
        http(
          'GET',
          `/api/tours/${tourId}/positions?since=${encodeURIComponent(before)}`,
          await tokenOf('shipper'),
        ),
        200,
        'since',
      );
      if (answer.length < 2) await sleep(100);
    }
    t.same(
      answer,
      recorded.map((position) => ({ tourId, ...position })),
      'the positions after `since`, oldest first',
    );
    const later = await expectStatus(
      http(
        'GET',
        `/api/tours/${tourId}/positions?since=${encodeURIComponent(recorded[0].recordedAt)}`,
        await tokenOf('carrier'),
      ),
      200,
      'since the first',
    );
    t.same(
      later.map((position: { latitude: number }) => position.latitude),
      [41.4],
      'only what came after',
    );
    const missing = await http('GET', `/api/tours/${tourId}/positions`, await tokenOf('shipper'));
    t.equal(missing.status, 400);
    t.match(missing.json, { message: 'since must be an ISO 8601 time' }, 'names the field');
    const bad = await http(
      'GET',
      `/api/tours/${tourId}/positions?since=yesterday`,
      await tokenOf('shipper'),
    );
    t.equal(bad.status, 400);
    const foreign = await http(
      'GET',
      `/api/tours/${tourId}/positions?since=${encodeURIComponent(before)}`,
      (await login(http, otherCarrier.email)).accessToken,
    );
    t.equal(foreign.status, 404, "another organization's tour is not found");
  },
);
