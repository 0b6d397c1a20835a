/**
 * Each socket's budget of events (server/realtime/budget.ts), with real sockets on a real port: a
 * socket flooding `tour:watch` is told (`limit:exceeded`) and closed after a handful of lookups; so is
 * one past its events a second, a user past its own over several sockets, and a socket asking for
 * too many tours that are nobody's (which stop costing a lookup). What the app's client does (a few
 * tours watched at once, token refreshes) stays well inside. Timings live in bench/ (T11), not here.
 */
import { randomUUID } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import { member, organization } from '../identity/fixtures.ts';
import { runningTour } from '../testing/runningTour.ts';
import {
  MAX_EVENTS_IN_FLIGHT,
  MAX_TOURS_NOT_FOUND,
  SOCKET_EVENT_BURST,
  SOCKET_EVENTS_PER_SECOND,
  USER_EVENT_BURST,
} from './budget.ts';
import {
  closedByServer,
  connected,
  connectSocket,
  expectStatus,
  sleep,
  tokenLike,
  watchTour,
  startListeningApp,
} from './testing.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
t.setTimeout(300_000);
const { app, platform, baseUrl, http, sockets } = await startListeningApp(t);

const shipper = await organization(app, platform, 'Shipper', { name: 'Budget Shipping' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Budget Hauling' });
const driver = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'Flo Flood',
});
const colleague = await member(app, platform, shipper.organizationId!, Role.Shipper, {
  name: 'Tab Hoarder',
});
const reopener = await member(app, platform, shipper.organizationId!, Role.Shipper, {
  name: 'Rey Reopen',
});

// Counts the event store's reads of tour streams: the database round trip of each `tour:watch`.
let tourReads = 0;
const readStream = platform.store.readStream.bind(platform.store);
platform.store.readStream = ((streamId: string) => {
  if (streamId.startsWith('tour-')) tourReads += 1;
  return readStream(streamId);
}) as typeof platform.store.readStream;

/** A connected socket of `token` that keeps the `limit:exceeded` it hears and how it was closed. */
async function open(token: string) {
  const socket = await connected(connectSocket(baseUrl, token));
  sockets.push({
    name: 'budget',
    socket,
    heard: [],
    clear: () => undefined,
    close: () => {
      socket.disconnect();
    },
  });
  const limits: { limit: string; reason: string }[] = [];
  socket.on('limit:exceeded', (payload) => limits.push(payload));
  return { socket, limits, closed: closedByServer(socket) };
}

/** Emits `count` events at once, each asking for an acknowledgement; resolves with how many were answered once the socket closed. */
function flood(socket: Socket, count: number, event: string, payload: () => unknown) {
  let answered = 0;
  for (let index = 0; index < count; index += 1)
    socket.emit(event, payload(), () => {
      answered += 1;
    });
  return () => answered;
}

t.test(
  'a socket emitting 2,000 tour:watch of random ids at once is told and closed after a handful of lookups',
  async (t) => {
    const flooder = await open(driver.token);
    const readsBefore = tourReads;
    const answered = flood(flooder.socket, 2000, 'tour:watch', () => ({ tourId: randomUUID() }));
    const closed = await Promise.race([flooder.closed, sleep(10_000).then(() => null)]);
    t.ok(closed, 'the server closed the flooding socket');
    t.equal(closed?.reason, 'io server disconnect', 'closed by the server');
    // Which limit goes first depends on how the 2,000 arrive: all in a burst (events a second) or as lookups pile up (at once).
    t.equal(flooder.limits.length, 1, 'told once');
    t.ok(
      ['events', 'inFlight'].includes(flooder.limits[0]?.limit ?? ''),
      `told which limit: '${flooder.limits[0]?.limit}'`,
    );
    t.match(
      flooder.limits[0]?.reason,
      /^Too many (events|requests at once)/,
      `and why: '${flooder.limits[0]?.reason}'`,
    );
    await sleep(300);
    const reads = tourReads - readsBefore;
    t.ok(
      reads <= MAX_EVENTS_IN_FLIGHT,
      `at most ${MAX_EVENTS_IN_FLIGHT} tours were looked up (${reads})`,
    );
    t.ok(
      answered() <= MAX_EVENTS_IN_FLIGHT,
      `at most ${MAX_EVENTS_IN_FLIGHT} of the 2,000 were answered (${answered()})`,
    );
    t.comment(
      `flood of 2,000 tour:watch: ${reads} lookups, ${answered()} answered, closed with '${flooder.limits[0]?.limit}'`,
    );
    await expectStatus(http('GET', '/api/loads/carrier', carrier.token), 200, 'marketplace');
    t.pass('another user reads the marketplace meanwhile');
  },
);

t.test(
  'a socket with more than a few requests unanswered at once is told and closed',
  async (t) => {
    const eager = await open(driver.token);
    const readsBefore = tourReads;
    flood(eager.socket, MAX_EVENTS_IN_FLIGHT + 1, 'tour:watch', () => ({ tourId: randomUUID() }));
    const closed = await Promise.race([eager.closed, sleep(5000).then(() => null)]);
    t.equal(
      closed?.reason,
      'io server disconnect',
      `closed at request ${MAX_EVENTS_IN_FLIGHT + 1} while ${MAX_EVENTS_IN_FLIGHT} were unanswered`,
    );
    t.match(eager.limits, [
      {
        limit: 'inFlight',
        reason: `Too many requests at once: at most ${MAX_EVENTS_IN_FLIGHT} unanswered on one connection`,
      },
    ]);
    await sleep(300);
    t.ok(
      tourReads - readsBefore <= MAX_EVENTS_IN_FLIGHT,
      `the last one was not looked up (${tourReads - readsBefore} lookups)`,
    );
  },
);

t.test('a socket past its events a second is told and closed', async (t) => {
  const noisy = await open(shipper.token);
  // Events nobody handles cost nothing but their reading, and still count.
  for (let index = 0; index <= SOCKET_EVENT_BURST; index += 1)
    noisy.socket.emit('nothing:here', { index });
  const closed = await Promise.race([noisy.closed, sleep(5000).then(() => null)]);
  t.equal(
    closed?.reason,
    'io server disconnect',
    `closed at event ${SOCKET_EVENT_BURST + 1} in a burst`,
  );
  t.match(noisy.limits, [
    {
      limit: 'events',
      reason: `Too many events: at most ${SOCKET_EVENTS_PER_SECOND} a second on one connection`,
    },
  ]);
});

t.test(
  'a user past its events a second over several sockets is told and closed, each socket within its own',
  async (t) => {
    const session = await Promise.all([0, 1, 2].map(() => open(colleague.token)));
    // Three sockets, each at its own burst: together past the user's.
    for (const { socket } of session)
      for (let index = 0; index < SOCKET_EVENT_BURST; index += 1)
        socket.emit('nothing:here', { index });
    await sleep(500);
    const told = session.flatMap(({ limits }) => limits);
    t.ok(3 * SOCKET_EVENT_BURST > USER_EVENT_BURST, 'the test sends more than the user may');
    t.match(
      told,
      [{ limit: 'userEvents', reason: /at most \d+ a second over all your connections/ }],
      'the socket that went past is told',
    );
    t.equal(
      session.filter(({ socket }) => socket.connected).length,
      2,
      'and closed; the others stay',
    );
  },
);

t.test(
  "a user's budget outlives its closed sockets: opening a new one at once does not refill it",
  async (t) => {
    // Three sockets spend the user's budget; whatever is still open then closes by itself.
    const first = await Promise.all([0, 1, 2].map(() => open(reopener.token)));
    for (const { socket } of first)
      for (let index = 0; index < SOCKET_EVENT_BURST; index += 1)
        socket.emit('nothing:here', { index });
    await Promise.race([Promise.any(first.map(({ closed }) => closed)), sleep(3000)]);
    t.equal(
      first.flatMap(({ limits }) => limits).filter(({ limit }) => limit === 'userEvents').length,
      1,
      "one socket is closed for the user's budget",
    );
    for (const { socket } of first) socket.disconnect();
    await sleep(50);
    // The user's bucket holds what the last moment refilled: far less than a fresh socket's burst.
    const again = await open(reopener.token);
    for (let index = 0; index < SOCKET_EVENT_BURST; index += 1)
      again.socket.emit('nothing:here', { index });
    const closed = await Promise.race([again.closed, sleep(3000).then(() => null)]);
    t.equal(
      closed?.reason,
      'io server disconnect',
      'the socket opened again is closed within its own burst',
    );
    t.match(again.limits, [{ limit: 'userEvents' }], "for the user's budget");
  },
);

t.test(
  "tour:watch of tours that are nobody's stops costing a lookup: past a few the socket is closed",
  async (t) => {
    const prober = await open(driver.token);
    const readsBefore = tourReads;
    for (let index = 0; index < MAX_TOURS_NOT_FOUND; index += 1) {
      t.same(
        await watchTour(prober.socket, randomUUID()),
        { ok: false, error: 'Tour not found' },
        `unknown tour ${index + 1}`,
      );
      await sleep(1000 / SOCKET_EVENTS_PER_SECOND);
    }
    t.equal(tourReads - readsBefore, MAX_TOURS_NOT_FOUND, `${MAX_TOURS_NOT_FOUND} lookups`);
    prober.socket.emit('tour:watch', { tourId: randomUUID() });
    const closed = await Promise.race([prober.closed, sleep(5000).then(() => null)]);
    t.equal(closed?.reason, 'io server disconnect', 'the next unknown tour closes the socket');
    t.match(prober.limits, [
      {
        limit: 'toursNotFound',
        reason: `Too many tours not found: at most ${MAX_TOURS_NOT_FOUND} on one connection`,
      },
    ]);
    t.equal(tourReads - readsBefore, MAX_TOURS_NOT_FOUND, 'without looking it up');
  },
);

t.test(
  'what the app does stays inside the budget: a handful of tours watched at once, token refreshes',
  async (t) => {
    const tokens = { shipper: shipper.token, carrier: carrier.token, driver: driver.token };
    const tours = await Promise.all(
      [0, 1, 2, 3, 4].map(
        async () => (await runningTour(http, async (who) => tokens[who], driver.userId)).tourId,
      ),
    );
    const user = await open(carrier.token);
    // After a reconnection the client re-watches every tour at once.
    t.same(
      await Promise.all(tours.map((tourId) => watchTour(user.socket, tourId))),
      tours.map(() => ({ ok: true })),
      'five tours watched at once',
    );
    const now = Math.floor(Date.now() / 1000);
    for (let index = 0; index < 3; index += 1) {
      const answer = await user.socket.timeout(5000).emitWithAck('auth:refresh', {
        token: tokenLike(platform.config.jwtSecret, carrier.token, {
          iat: now + index,
          exp: now + 600 + index,
        }),
      });
      t.match(answer, { ok: true }, `refresh ${index + 1}`);
    }
    t.same(
      await Promise.all(
        tours.map((tourId) => user.socket.timeout(5000).emitWithAck('tour:unwatch', { tourId })),
      ),
      tours.map(() => ({ ok: true })),
      'and unwatched',
    );
    t.same(user.limits, [], 'never told of a limit');
    t.ok(user.socket.connected, 'still connected');
  },
);
