/**
 * A tour's room keeps only who may see the tour: a driver taken off a tour (assigned to another
 * driver) leaves its room at once, hears none of its positions, messages or changes afterwards, also
 * after handing the socket a fresh token, and may not watch it again; a blocked driver's socket is
 * closed. Real sockets on a real port; the two-process case is in multiprocess.spec.ts.
 */
import t from 'tap';
import { Role, TourStatus } from '../../domain/catalog.ts';
import { member, organization, superadmin } from '../identity/fixtures.ts';
import { runningTour } from '../testing/runningTour.ts';
import {
  closedByServer,
  expectStatus,
  listen,
  sleep,
  tokenLike,
  waitUntil,
  watchTour,
  type Listener,
  startListeningApp,
} from './testing.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
t.setTimeout(300_000);
const { app, platform, baseUrl, http, sockets } = await startListeningApp(t);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper', { name: 'Room Shipping' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Room Hauling' });
const firstDriver = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'Fay First',
});
const secondDriver = await member(app, platform, carrier.organizationId!, Role.Driver, {
  name: 'Sam Second',
});
const tokens = { shipper: shipper.token, carrier: carrier.token, driver: firstDriver.token };

const listenAs = async (name: string, token: string) => {
  const listener = await listen(baseUrl, name, token);
  sockets.push(listener);
  return listener;
};
/** What the listener heard of the tour. */
const heardOf = (listener: Listener, tourId: string) =>
  listener.heard.filter((entry) => entry.payload?.tourId === tourId).map((entry) => entry.event);

/** A position of the tour's driver, a chat message and a status change; resolves once `witness` heard all three. */
async function tourActivity(tourId: string, driverToken: string, witness: Listener, label: string) {
  const recordedAt = new Date().toISOString();
  await expectStatus(
    http('POST', `/api/tours/${tourId}/positions`, driverToken, {
      latitude: 40.9,
      longitude: -86.9,
      speed: 50,
      recordedAt,
    }),
    202,
    `${label}: position`,
  );
  await expectStatus(
    http('POST', `/api/tours/${tourId}/chat`, tokens.shipper, {
      message: `${label}: how is it going?`,
    }),
    201,
    `${label}: chat`,
  );
  await waitUntil(
    () =>
      witness.heard.some(
        (entry) => entry.event === 'tour:position' && entry.payload.recordedAt === recordedAt,
      ) &&
      witness.heard.some(
        (entry) =>
          entry.event === 'chat:message' &&
          entry.payload.message.text === `${label}: how is it going?`,
      ),
    5000,
    `${label}: the witness hears it`,
  );
  await sleep(150); // time for a stray delivery to show up
}

t.test(
  'a driver taken off a tour leaves its room at once and hears nothing more of it, also after auth:refresh',
  async (t) => {
    const { tourId } = await runningTour(http, async (who) => tokens[who], firstDriver.userId);
    const removed = await listenAs('removed driver', firstDriver.token);
    const witness = await listenAs('shipper', shipper.token);
    t.same(
      await watchTour(removed.socket, tourId),
      { ok: true },
      'the assigned driver watches the tour',
    );
    t.same(await watchTour(witness.socket, tourId), { ok: true }, 'the shipper watches the tour');
    await tourActivity(tourId, firstDriver.token, witness, 'before');
    t.same(
      heardOf(removed, tourId).sort(),
      ['chat:message', 'tour:position'],
      'while assigned, the driver hears the tour',
    );

    removed.clear();
    witness.clear();
    await expectStatus(
      http('POST', `/api/tours/${tourId}/assign/${secondDriver.userId}`, carrier.token),
      200,
      'reassign',
    );
    t.equal(
      (await http('GET', `/api/tours/${tourId}`, firstDriver.token)).status,
      404,
      'HTTP answers 404 to the removed driver',
    );
    const assigned = await listenAs('new driver', secondDriver.token);
    t.same(
      await watchTour(assigned.socket, tourId),
      { ok: true },
      'the new driver watches the tour',
    );
    await waitUntil(
      () => heardOf(witness, tourId).includes('tour:event'),
      5000,
      'the shipper hears the reassignment',
    );

    await tourActivity(tourId, secondDriver.token, witness, 'after');
    await expectStatus(
      http('PUT', `/api/tours/${tourId}/status`, secondDriver.token, {
        status: TourStatus.InTransit,
        message: 'Loaded',
      }),
      200,
      'in transit',
    );
    await waitUntil(
      () => heardOf(witness, tourId).includes('tour:status'),
      5000,
      'the shipper hears the status',
    );
    await sleep(150);
    t.same(
      heardOf(assigned, tourId)
        .filter((event) => event !== 'tour:status' && event !== 'tour:event')
        .sort(),
      ['chat:message', 'tour:position'],
      'the new driver hears the tour',
    );
    t.same(
      heardOf(removed, tourId),
      [],
      'the removed driver hears no position, message, status or timeline entry of the tour',
    );

    // A fresh token of the same session: the socket stays open, and out of the tour.
    const now = Math.floor(Date.now() / 1000);
    const refreshed = await removed.socket.timeout(5000).emitWithAck('auth:refresh', {
      token: tokenLike(platform.config.jwtSecret, firstDriver.token, {
        iat: now,
        exp: now + 900,
      }),
    });
    t.match(refreshed, { ok: true }, 'auth:refresh is accepted');
    await tourActivity(tourId, secondDriver.token, witness, 'after the refresh');
    t.same(
      heardOf(removed, tourId),
      [],
      'after auth:refresh the removed driver still hears nothing of the tour',
    );
    t.same(
      await watchTour(removed.socket, tourId),
      { ok: false, error: 'Tour not found' },
      'and may not watch it again',
    );
    t.ok(removed.socket.connected, 'its socket stays open for everything else');
  },
);

t.test(
  "a blocked driver's socket is closed at once and hears nothing more of its tour",
  async (t) => {
    const { tourId } = await runningTour(
      http,
      async (who) => (who === 'driver' ? secondDriver.token : tokens[who]),
      secondDriver.userId,
    );
    const blocked = await listenAs('blocked driver', secondDriver.token);
    const witness = await listenAs('shipper', shipper.token);
    t.same(await watchTour(blocked.socket, tourId), { ok: true });
    t.same(await watchTour(witness.socket, tourId), { ok: true });
    const closed = closedByServer(blocked.socket);
    await expectStatus(
      http('GET', `/api/users/block/${secondDriver.userId}`, admin.token),
      200,
      'block',
    );
    t.equal((await closed).reason, 'io server disconnect', 'the socket is closed by the server');
    await expectStatus(
      http('POST', `/api/tours/${tourId}/chat`, tokens.shipper, { message: 'Anyone there?' }),
      201,
      'chat',
    );
    await waitUntil(
      () => heardOf(witness, tourId).includes('chat:message'),
      5000,
      'the shipper hears the chat',
    );
    t.same(heardOf(blocked, tourId), [], 'the blocked driver hears nothing after the block');
  },
);
