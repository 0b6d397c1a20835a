// @postgres: events reach the sockets from the log the notifier follows (LISTEN/NOTIFY on PostgreSQL)
/**
 * socket.io with real clients on a real port: the handshake, the rooms (who hears what, and that
 * nobody else does), tour:watch for the tour's parties only, sockets closed on expiry, logout and
 * block, and how fast a driver's position reaches a watcher.
 */
import t from 'tap';
import { Role, TourStatus } from '../../domain/catalog.ts';
import { member, organization, superadmin } from '../identity/fixtures.ts';
import { loadBody } from '../testing/loadBodies.ts';
import {
  closedByServer,
  connected,
  connectSocket,
  decodeClaims,
  expectStatus,
  listen,
  login,
  postLoad,
  sleep,
  submitOffer,
  tokenLike,
  uploadContract,
  waitUntil,
  watchTour,
  type Listener,
  startListeningApp,
} from './testing.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
// Real sockets and a real port on top of the app's start: more than the default two minutes on a busy machine.
t.setTimeout(300_000);
const { app, platform, baseUrl, http, sockets } = await startListeningApp(t);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Shipping' });
const shipperColleague = await member(app, platform, shipper.organizationId!, Role.Shipper);
const otherShipper = await organization(app, platform, 'Shipper', { name: 'Other Goods' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Zeta Hauling' });
const otherCarrier = await organization(app, platform, 'Carrier', { name: 'Beta Trucking' });
const driver = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'Dan Driver',
});
const idleDriver = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'Ida Idle',
});
const otherDriver = await member(app, platform, otherCarrier.organizationId!, Role.Driver, {
  name: 'Olga Other',
});

t.test(
  'the handshake refuses a missing, forged, expired or signed-out token, and another site',
  async (t) => {
    const refusedWith = async (token: unknown, headers?: Record<string, string>) => {
      try {
        const socket = await connected(connectSocket(baseUrl, token, headers ? { headers } : {}));
        socket.disconnect();
        return 'connected';
      } catch (error) {
        return (error as Error).message;
      }
    };
    t.equal(await refusedWith(undefined), 'Please sign in', 'no token');
    t.equal(
      await refusedWith('not.a.token'),
      'Your session has expired. Please sign in again.',
      'a forged token',
    );
    const now = Math.floor(Date.now() / 1000);
    t.equal(
      await refusedWith(
        tokenLike(platform.config.jwtSecret, shipper.token, { iat: now - 600, exp: now - 60 }),
      ),
      'Your session has expired. Please sign in again.',
      'an expired token',
    );
    t.equal(
      await refusedWith(
        tokenLike('another-secret-of-at-least-32-characters!!', shipper.token, {
          iat: now,
          exp: now + 600,
        }),
      ),
      'Your session has expired. Please sign in again.',
      'signed with another key',
    );
    const session = await login(http, otherShipper.email);
    await expectStatus(
      http('POST', '/api/logout', null, { refreshToken: session.refreshToken }),
      204,
      'logout',
    );
    t.equal(
      await refusedWith(session.accessToken),
      'Your session has expired. Please sign in again.',
      'the token of a signed-out session',
    );
    t.not(
      await refusedWith(shipper.token, { origin: 'https://evil.example' }),
      'connected',
      'a page of another site',
    );
    t.equal(await refusedWith(shipper.token, { origin: baseUrl }), 'connected', 'our own page');
    const polling = await connected(
      connectSocket(baseUrl, shipper.token, { transports: ['polling', 'websocket'] }),
    );
    await waitUntil(
      () => polling.io.engine.transport.name === 'websocket',
      10_000,
      'the upgrade',
    ).catch(() => undefined);
    t.equal(
      polling.io.engine.transport.name,
      'websocket',
      'long-polling upgrades to a WebSocket beside the raw feed route',
    );
    polling.disconnect();
  },
);

let loadId = '';
let tourId = '';

t.test('each event reaches exactly its rooms; other tenants hear nothing', async (t) => {
  const everyone = {
    admin: await listen(baseUrl, 'admin', admin.token),
    shipper: await listen(baseUrl, 'shipper', shipper.token),
    shipperColleague: await listen(baseUrl, 'shipperColleague', shipperColleague.token),
    otherShipper: await listen(baseUrl, 'otherShipper', otherShipper.token),
    carrier: await listen(baseUrl, 'carrier', carrier.token),
    otherCarrier: await listen(baseUrl, 'otherCarrier', otherCarrier.token),
    driver: await listen(baseUrl, 'driver', driver.token),
    idleDriver: await listen(baseUrl, 'idleDriver', idleDriver.token),
    otherDriver: await listen(baseUrl, 'otherDriver', otherDriver.token),
  };
  type Name = keyof typeof everyone;
  const listeners = Object.values(everyone);
  sockets.push(...listeners);
  let delivered = 0;
  let misdelivered = 0;

  /** Runs `action`, waits for every expected delivery, then checks that each socket heard exactly what it should. */
  async function step(
    label: string,
    action: () => Promise<unknown>,
    expected: Partial<Record<Name, string[]>>,
  ) {
    for (const listener of listeners) listener.clear();
    await action();
    const names = (listener: Listener) => listener.heard.map((heard) => heard.event).sort();
    await waitUntil(
      () =>
        Object.entries(expected).every(
          ([name, events]) => everyone[name as Name].heard.length >= events!.length,
        ),
      10_000,
      label,
    ).catch(() => undefined);
    await sleep(150); // time for a stray delivery to show up
    for (const listener of listeners) {
      const want = [...(expected[listener.name as Name] ?? [])].sort();
      const got = names(listener);
      delivered += got.length;
      misdelivered += got.filter((event) => !want.includes(event)).length;
      t.same(
        got,
        want,
        `${label}: ${listener.name} heard ${want.length ? want.join(', ') : 'nothing'}`,
      );
    }
  }
  const heard = (name: Name, event: string) =>
    everyone[name].heard.find((entry) => entry.event === event)?.payload;

  await step(
    'a load is posted',
    async () => {
      ({ id: loadId } = await postLoad(http, shipper.token));
    },
    {
      carrier: ['load:posted'],
      otherCarrier: ['load:posted'],
    },
  );
  t.match(heard('carrier', 'load:posted'), {
    id: loadId,
    guid: /^L-\d+$/,
    shipper: 'Acme Shipping',
    open: true,
    pickup: { city: 'Chicago' },
    dropoff: { city: 'Indianapolis' },
  });

  await step(
    'the shipper edits the load',
    () =>
      expectStatus(
        http('PUT', '/api/loads', shipper.token, { ...loadBody({ weight: 30000 }), loadId }),
        200,
        'edit',
      ),
    {
      carrier: ['load:updated'],
      otherCarrier: ['load:updated'],
    },
  );
  t.match(heard('otherCarrier', 'load:updated'), { id: loadId, weight: 30000, open: true });

  await step(
    'another load is posted, then cancelled',
    async () => {
      const { id } = await postLoad(http, shipper.token);
      await expectStatus(
        http('PUT', `/api/loads/${id}/status`, shipper.token, {
          status: 7,
          message: 'No longer needed',
        }),
        200,
        'cancel',
      );
    },
    { carrier: ['load:posted', 'load:updated'], otherCarrier: ['load:posted', 'load:updated'] },
  );
  t.match(heard('carrier', 'load:updated'), { status: 7, open: false });

  let offerId = '';
  await step(
    'a carrier makes an offer',
    async () => {
      offerId = await submitOffer(http, carrier.token, loadId, 1500);
    },
    {
      shipper: ['proposal:new'],
      shipperColleague: ['proposal:new'],
    },
  );
  t.match(heard('shipper', 'proposal:new'), {
    loadId,
    loadGuid: /^L-\d+$/,
    proposalId: offerId,
    carrier: { id: carrier.organizationId, name: 'Zeta Hauling' },
    price: 1500,
    at: String,
  });

  let otherOfferId = '';
  await step(
    'another carrier makes an offer',
    async () => {
      otherOfferId = await submitOffer(http, otherCarrier.token, loadId, 1700);
    },
    {
      shipper: ['proposal:new'],
      shipperColleague: ['proposal:new'],
    },
  );

  await step(
    'the shipper counters',
    () =>
      expectStatus(
        http('PUT', `/api/proposal/${offerId}`, shipper.token, {
          status: 11,
          price: 1400,
          message: 'Can you do 1400?',
        }),
        200,
        'counter',
      ),
    {
      carrier: ['proposal:updated'],
      shipper: ['proposal:updated'],
      shipperColleague: ['proposal:updated'],
    },
  );
  t.match(heard('carrier', 'proposal:updated'), {
    loadId,
    proposalId: offerId,
    status: 11,
    price: 1500,
    counterPrice: 1400,
  });

  await step(
    'the carrier takes the counter',
    () =>
      expectStatus(
        http('PUT', `/api/proposal/${offerId}`, carrier.token, { status: 10 }),
        200,
        'take counter',
      ),
    {
      carrier: ['proposal:updated'],
      shipper: ['proposal:updated'],
      shipperColleague: ['proposal:updated'],
    },
  );

  await step(
    'the shipper accepts: a tour opens, the other offer is declined, the load leaves the marketplace',
    () =>
      expectStatus(
        http('PUT', `/api/proposal/${offerId}`, shipper.token, { status: 5 }),
        200,
        'accept',
      ),
    {
      shipper: ['proposal:updated', 'proposal:updated', 'tour:status'],
      shipperColleague: ['proposal:updated', 'proposal:updated', 'tour:status'],
      carrier: ['load:updated', 'proposal:updated', 'tour:status'],
      otherCarrier: ['load:updated', 'proposal:updated'],
    },
  );
  t.match(
    everyone.otherCarrier.heard.find((entry) => entry.event === 'proposal:updated')?.payload,
    { proposalId: otherOfferId, status: 12 },
    'the declined carrier hears of its own offer',
  );
  t.match(heard('otherCarrier', 'load:updated'), { id: loadId, open: false });
  const opened = heard('carrier', 'tour:status');
  t.match(opened, { loadId, status: TourStatus.BidAccepted, event: { type: 'TourOpened' } });
  tourId = opened.tourId;

  await step(
    'the carrier uploads the signed contract',
    () => uploadContract(http, carrier.token, loadId),
    {
      shipper: ['proposal:updated', 'tour:status'],
      shipperColleague: ['proposal:updated', 'tour:status'],
      carrier: ['proposal:updated', 'tour:status'],
    },
  );

  await step(
    'the carrier assigns a driver',
    () =>
      expectStatus(
        http('POST', `/api/tours/${tourId}/assign/${driver.userId}`, carrier.token),
        200,
        'assign',
      ),
    {
      shipper: ['tour:event', 'tour:event', 'tour:status'],
      shipperColleague: ['tour:event', 'tour:event', 'tour:status'],
      carrier: ['tour:event', 'tour:event', 'tour:status'],
      driver: ['tour:event', 'tour:event', 'tour:status'],
    },
  );
  t.match(heard('driver', 'tour:status'), {
    tourId,
    loadId,
    status: TourStatus.ReadyForPickup,
    event: { type: 'TourStatusChanged', data: { to: TourStatus.ReadyForPickup } },
  });

  // Watching: the parties may, nobody else.
  for (const name of ['shipper', 'carrier', 'driver', 'admin'] as const)
    t.same(
      await watchTour(everyone[name].socket, tourId),
      { ok: true },
      `${name} watches the tour`,
    );
  for (const name of ['otherShipper', 'otherCarrier', 'otherDriver', 'idleDriver'] as const) {
    t.same(
      await watchTour(everyone[name].socket, tourId),
      { ok: false, error: 'Tour not found' },
      `${name} may not watch the tour`,
    );
  }
  t.same(
    await watchTour(everyone.shipper.socket, 'not-a-tour'),
    { ok: false, error: 'Tour not found' },
    'not a tour id',
  );

  await step(
    'the driver sets off',
    () =>
      expectStatus(
        http('PUT', `/api/tours/${tourId}/status`, driver.token, { status: 3, message: 'Rolling' }),
        200,
        'dispatch',
      ),
    {
      shipper: ['tour:event', 'tour:status'],
      shipperColleague: ['tour:event', 'tour:status'],
      carrier: ['tour:event', 'tour:status'],
      driver: ['tour:event', 'tour:status'],
      admin: ['tour:event', 'tour:status'],
    },
  );

  // Far from every stop, so no arrival is recorded: positions go to the watchers only.
  await step(
    'the driver sends positions',
    () =>
      expectStatus(
        http('POST', `/api/tours/${tourId}/positions`, driver.token, [
          {
            latitude: 40.9,
            longitude: -86.9,
            speed: 55,
            heading: 140,
            recordedAt: new Date(Date.now() - 2000).toISOString(),
          },
          {
            latitude: 40.8,
            longitude: -86.8,
            speed: 56,
            heading: 141,
            recordedAt: new Date(Date.now() - 1000).toISOString(),
          },
        ]),
        202,
        'positions',
      ),
    {
      shipper: ['tour:position', 'tour:position'],
      carrier: ['tour:position', 'tour:position'],
      driver: ['tour:position', 'tour:position'],
      admin: ['tour:position', 'tour:position'],
    },
  );
  t.match(heard('shipper', 'tour:position'), {
    tourId,
    latitude: 40.9,
    longitude: -86.9,
    speed: 55,
    heading: 140,
    recordedAt: String,
  });

  await step(
    'the shipper writes in the chat',
    () =>
      expectStatus(
        http('POST', `/api/tours/${tourId}/chat`, shipper.token, { message: 'How is it going?' }),
        201,
        'chat',
      ),
    {
      shipper: ['chat:message'],
      carrier: ['chat:message'],
      driver: ['chat:message'],
      admin: ['chat:message'],
    },
  );
  t.match(heard('driver', 'chat:message'), {
    tourId,
    message: { id: String, user: { id: shipper.userId }, text: 'How is it going?', at: String },
  });

  t.same(
    await everyone.carrier.socket.timeout(5000).emitWithAck('tour:unwatch', { tourId }),
    { ok: true },
    'unwatch',
  );
  await step(
    'after unwatching, positions stop',
    () =>
      expectStatus(
        http('POST', `/api/tours/${tourId}/positions`, driver.token, {
          latitude: 40.7,
          longitude: -86.7,
        }),
        202,
        'position',
      ),
    {
      shipper: ['tour:position'],
      driver: ['tour:position'],
      admin: ['tour:position'],
    },
  );

  await step(
    'emit to no room reaches nobody',
    async () => platform.realtime.emit([], 'anything', {}),
    {},
  );
  await step(
    'emit to a user room',
    async () => platform.realtime.emit([`user:${idleDriver.userId}`], 'lane:alert', { hello: 1 }),
    { idleDriver: ['lane:alert'] },
  );

  t.equal(misdelivered, 0);
  t.comment(
    `realtime isolation: ${delivered} events to ${listeners.length} sockets, ${misdelivered} misdelivered`,
  );
  for (const listener of listeners) listener.close();
});

t.test("a driver's positions reach a watcher within a second", async (t) => {
  const watcher = await listen(baseUrl, 'watcher', shipper.token);
  sockets.push(watcher);
  t.same(await watchTour(watcher.socket, tourId), { ok: true });
  // From the driver's POST to the watcher's socket; and from the POST's answer (the position is
  // stored) to the socket, which is the realtime part: negative when the socket was first.
  const endToEnd: number[] = [];
  const afterStored: number[] = [];
  for (let index = 0; index < 40; index += 1) {
    const recordedAt = new Date(Date.now() - 60_000 + index * 100).toISOString();
    const sent = performance.now();
    await expectStatus(
      http('POST', `/api/tours/${tourId}/positions`, driver.token, {
        latitude: 40.5 + index / 1000,
        longitude: -86.5,
        speed: 50,
        recordedAt,
      }),
      202,
      'position',
    );
    const answered = performance.now();
    await waitUntil(
      () =>
        watcher.heard.some(
          (entry) => entry.event === 'tour:position' && entry.payload.recordedAt === recordedAt,
        ),
      2000,
      'position',
    );
    const heardAt = watcher.heard.find((entry) => entry.payload.recordedAt === recordedAt)!.at;
    endToEnd.push(heardAt - sent);
    afterStored.push(heardAt - answered);
    await sleep(10);
  }
  const quantile = (values: number[], q: number) =>
    [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
  const figures = (values: number[]) =>
    `p50 ${quantile(values, 0.5).toFixed(1)} ms, p99 ${quantile(values, 0.99).toFixed(1)} ms`;
  t.comment(
    `position latency (${endToEnd.length} positions, ${platform.database.kind}): driver's POST to watcher's socket ${figures(endToEnd)}; after the POST's answer ${figures(afterStored)}`,
  );
  t.ok(
    quantile(endToEnd, 0.5) < 1000,
    'half of the positions reach the watcher within a second of the POST',
  );
  t.ok(
    quantile(afterStored, 0.99) < 1000,
    'every stored position reaches the watcher within a second (p99)',
  );
  watcher.close();
});

t.test(
  'a socket is closed within a second of its logout, of its block, and when its token expires',
  async (t) => {
    const session = await login(http, shipperColleague.email);
    const loggedIn = await connected(connectSocket(baseUrl, session.accessToken));
    const logoutClosed = closedByServer(loggedIn);
    const loggedOutAt = performance.now();
    await expectStatus(
      http('POST', '/api/logout', null, { refreshToken: session.refreshToken }),
      204,
      'logout',
    );
    const afterLogout = await logoutClosed;
    t.equal(afterLogout.reason, 'io server disconnect');
    const logoutDelay = afterLogout.at - loggedOutAt;
    t.ok(
      logoutDelay < 1000,
      `closed ${logoutDelay.toFixed(0)} ms after the logout request was sent`,
    );

    const blocked = await connected(
      connectSocket(baseUrl, (await login(http, shipperColleague.email)).accessToken),
    );
    const blockClosed = closedByServer(blocked);
    const blockedAt = performance.now();
    await expectStatus(
      http('GET', `/api/users/block/${shipperColleague.userId}`, admin.token),
      200,
      'block',
    );
    const afterBlock = await blockClosed;
    const blockDelay = afterBlock.at - blockedAt;
    t.ok(blockDelay < 1000, `closed ${blockDelay.toFixed(0)} ms after the block request was sent`);

    // A token of a live session that expires in two seconds.
    const now = Math.floor(Date.now() / 1000);
    const claims = decodeClaims(carrier.token);
    const shortLived = tokenLike(platform.config.jwtSecret, carrier.token, {
      iat: now,
      exp: now + 2,
    });
    t.equal(decodeClaims(shortLived).sid, claims.sid);
    const expiring = await connected(connectSocket(baseUrl, shortLived));
    const expiryClosed = closedByServer(expiring);
    const afterExpiry = await expiryClosed;
    const expiryDelay = Date.now() - (now + 2) * 1000;
    t.equal(afterExpiry.reason, 'io server disconnect', 'closed by the server at expiry');
    t.ok(
      expiryDelay >= -5 && expiryDelay < 1000,
      `closed at the token's exp (${expiryDelay} ms after it)`,
    );
    t.comment(
      `socket closed after logout ${logoutDelay.toFixed(0)} ms, after block ${blockDelay.toFixed(0)} ms, at expiry +${expiryDelay} ms`,
    );
    t.equal(platform.realtime.sessions.size, 0, 'no session is watched any more');
  },
);
