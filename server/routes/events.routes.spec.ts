/**
 * The raw event feed over a real WebSocket: who may open it, the log from a position then live, a
 * browser's `?token=`, and the feed closed when its session ends.
 */
import type { AddressInfo } from 'node:net';
import t from 'tap';
import WebSocket from 'ws';
import { loadStream } from '../../domain/loads/load.types.ts';
import { organizationServiceStream } from '../../domain/services/organizationService.types.ts';
import { publicEvent, SECRET_FIELDS } from '../../domain/shared/publicEvent.ts';
import { userStream } from '../../domain/users/user.ts';
import type { RecordedEvent } from '../eventstore/eventStore.ts';
import { bearer, organization, PASSWORD, superadmin } from '../identity/fixtures.ts';
import { httpClient, login, waitUntil } from '../realtime/testing.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';
import { CLOSE_SESSION_ENDED, formatPosition } from './events.routes.ts';

// A real port and real WebSockets on top of the app's start: more than the default two minutes on a busy machine.
t.setTimeout(300_000);
const { app, platform, close } = await startTestApp();
t.teardown(close);
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as AddressInfo).port;
const wsUrl = (query = '') => `ws://127.0.0.1:${port}/api/events/stream${query}`;
const http = httpClient(`http://127.0.0.1:${port}`);
const as = requester(app);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper');

type FeedMessage = { position: string; streamId: string; type: string; data: any; metadata: any };

/** The status the server answered the upgrade with: 101 when it became a WebSocket. */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('error', (error) => {
      if (!String(error.message).includes('Unexpected server response')) reject(error);
    });
  });
}

/** Opens the feed and keeps every message it sends. */
function openFeed(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
  const messages: FeedMessage[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  const closed = new Promise<{ code: number; reason: string; at: number }>((resolve) =>
    socket.once('close', (code, reason) =>
      resolve({ code, reason: String(reason), at: performance.now() }),
    ),
  );
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, messages, closed, opened };
}

t.test('only a Superadmin opens the feed; a plain GET is told to upgrade', async (t) => {
  t.equal(await upgradeStatus(wsUrl()), 401, 'anonymous');
  t.equal(await upgradeStatus(wsUrl(), bearer('not.a.token')), 401, 'a forged token');
  t.equal(await upgradeStatus(wsUrl(), bearer(shipper.token)), 403, 'a Shipper');
  t.equal(await upgradeStatus(wsUrl(`?token=${shipper.token}`)), 403, 'a Shipper in ?token=');
  t.equal(
    await upgradeStatus(wsUrl('?from=yesterday'), bearer(admin.token)),
    400,
    'a malformed position',
  );
  t.equal(await upgradeStatus(wsUrl(), bearer(admin.token)), 101, 'a Superadmin');
  t.equal(
    await upgradeStatus(`ws://127.0.0.1:${port}/api/nothing-here`, bearer(admin.token)),
    404,
    'another path is no WebSocket',
  );
  const plain = await as(admin).get('/api/events/stream');
  t.equal(plain.status, 426);
  t.equal((await as(shipper).get('/api/events/stream')).status, 403);
});

t.test('the log from the start, then live, one JSON message per event', async (t) => {
  const log = await platform.store.readAll({ limit: 100_000 });
  t.ok(log.length > 5, `${log.length} events in the log`);
  const feed = openFeed(wsUrl('?from='), bearer(admin.token));
  await feed.opened;
  await waitUntil(() => feed.messages.length >= log.length, 5000, 'the log so far');
  t.same(
    feed.messages.slice(0, log.length).map((message) => message.position),
    log.map((event) => formatPosition(event.position)),
    'every event, in log order',
  );
  t.same(Object.keys(feed.messages[0]).sort(), [
    'data',
    'metadata',
    'position',
    'streamId',
    'type',
  ]);
  t.match(feed.messages[0], {
    position: /^\d+:\d+$/,
    streamId: log[0].streamId,
    type: log[0].type,
    data: publicEvent(log[0]).data,
    metadata: { at: String },
  });

  const events = await watchEvents(platform.store);
  const posted = await as(shipper).post('/api/loads', loadBody());
  t.equal(posted.status, 201);
  const { id } = posted.body;
  await events.expect(t, [{ type: 'LoadPosted', stream: loadStream(id), data: { loadId: id } }]);
  await waitUntil(
    () =>
      feed.messages.some((message) => message.type === 'LoadPosted' && message.data.loadId === id),
    3000,
    'the new load',
  );
  t.pass('a load posted after the feed opened arrives live');
  feed.socket.close();
  await feed.closed;
});

t.test(
  'from a position: only what follows it (a browser sends its token in ?token=)',
  async (t) => {
    const log = await platform.store.readAll({ limit: 100_000 });
    const middle = log[Math.floor(log.length / 2)];
    const browser = new globalThis.WebSocket(
      wsUrl(`?from=${formatPosition(middle.position)}&token=${admin.token}`),
    );
    const messages: FeedMessage[] = [];
    browser.addEventListener('message', (event) => messages.push(JSON.parse(String(event.data))));
    const expected = log
      .slice(log.indexOf(middle) + 1)
      .map((event) => formatPosition(event.position));
    await waitUntil(() => messages.length >= expected.length, 5000, 'the rest of the log');
    t.same(
      messages.map((message) => message.position),
      expected,
      'strictly after the position: a reconnect misses nothing and repeats nothing',
    );
    browser.close();
  },
);

/** The values of every secret field the log holds, by event type, read from the events as stored. */
function secretsOfLog(log: RecordedEvent[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const event of log) {
    for (const path of (SECRET_FIELDS as Record<string, readonly string[]>)[event.type] ?? []) {
      const value = path
        .split('.')
        .reduce<unknown>(
          (data, key) => (data as Record<string, unknown> | null)?.[key],
          event.data,
        );
      if (typeof value === 'string')
        found.set(event.type, [...(found.get(event.type) ?? []), value]);
    }
  }
  return found;
}

t.test('the feed carries no secret: password and code hashes, sealed ELD secrets', async (t) => {
  const carrier = await organization(app, platform, 'Carrier');
  const events = await watchEvents(platform.store);
  const installed = await as(carrier).post('/api/organization-services', {
    serviceId: 'simulator',
    clientId: 'demo-fleet',
    clientSecret: 'simulator-secret-Hk77',
  });
  t.equal(installed.status, 201, 'an ELD service installed');
  const { organizationServiceId } = installed.body.organizationServiceData;
  await events.expect(t, [
    {
      type: 'ServiceInstalled',
      stream: organizationServiceStream(organizationServiceId),
      data: {
        organizationServiceId,
        organizationId: carrier.organizationId,
        serviceId: 'simulator',
        clientId: 'demo-fleet',
      },
    },
  ]);
  const updated = await as(carrier).put('/api/organization-services', {
    organizationServiceId,
    clientId: 'fleet-2',
    clientSecret: 'simulator-secret-2',
  });
  t.equal(updated.status, 200, 'its credentials changed');
  await events.expect(t, [
    {
      type: 'ServiceCredentialsUpdated',
      stream: organizationServiceStream(organizationServiceId),
      data: { organizationServiceId, clientId: 'fleet-2' },
    },
  ]);
  const mia = await organization(app, platform, 'Shipper');
  await events.take();
  const profile = {
    email: mia.email,
    username: mia.username,
    name: 'Mia Shipper',
    phone: '555-555-0102',
  };
  t.equal(
    (
      await as(mia).put('/api/users', {
        ...profile,
        oldPassword: PASSWORD,
        newPassword: 'brand-new-pass',
      })
    ).status,
    200,
    'a password changed',
  );
  await events.expect(t, [
    { type: 'UserUpdated', stream: userStream(mia.userId), data: { name: 'Mia Shipper' } },
    { type: 'PasswordChanged', stream: userStream(mia.userId), data: { userId: mia.userId } },
  ]);
  t.equal(
    (await as(null).post('/api/users/forgot-password', { email: mia.email })).status,
    200,
    'a reset asked for',
  );
  await events.expect(t, [
    {
      type: 'PasswordResetRequested',
      stream: userStream(mia.userId),
      data: { userId: mia.userId },
    },
  ]);
  const mail = (await as(admin).get('/api/admin/outbox')).body.find(
    (entry: { to: string; subject: string }) =>
      entry.to === mia.email && entry.subject.includes('Reset'),
  );
  const code = /Reset code: ([0-9a-f]{64})/.exec(mail.text)?.[1];
  t.equal(
    (await as(null).post('/api/users/reset-password', { code, newPassword: 'another-new-pass' }))
      .status,
    200,
    'and the password reset',
  );
  await events.expect(t, [
    { type: 'PasswordReset', stream: userStream(mia.userId), data: { userId: mia.userId } },
  ]);

  const log = await platform.store.readAll({ limit: 100_000 });
  const secrets = secretsOfLog(log);
  t.same(
    [...secrets.keys()].sort(),
    [
      'PasswordChanged',
      'PasswordReset',
      'PasswordResetRequested',
      'ServiceCredentialsUpdated',
      'ServiceInstalled',
      'UserRegistered',
    ],
    'the log holds secrets of each kind',
  );
  const feed = openFeed(wsUrl(), bearer(admin.token));
  await feed.opened;
  await waitUntil(() => feed.messages.length >= log.length, 5000, 'the log so far');
  const text = JSON.stringify(feed.messages);
  t.same(
    [...secrets].flatMap(([type, values]) =>
      values.filter((value) => text.includes(value)).map(() => type),
    ),
    [],
    'no secret value in any message',
  );
  for (const type of secrets.keys()) {
    const message = feed.messages.find((candidate) => candidate.type === type)!;
    const leaves = (SECRET_FIELDS as Record<string, readonly string[]>)[type].map(
      (path) => path.split('.').at(-1)!,
    );
    t.same(
      leaves.filter((leaf) => JSON.stringify(message.data).includes(`"${leaf}"`)),
      [],
      `${type}: its secret fields left out`,
    );
  }
  t.match(
    feed.messages.find(
      (message) => message.type === 'UserRegistered' && message.data.userId === mia.userId,
    ),
    { data: { email: mia.email, username: mia.username, roleId: 2 } },
    'everything else as it was',
  );
  feed.socket.close();
  await feed.closed;
});

t.test("the feed closes within a second of its session's end", async (t) => {
  const session = await login(http, admin.email);
  const feed = openFeed(wsUrl(), bearer(session.accessToken));
  await feed.opened;
  const events = await watchEvents(platform.store);
  const signedOut = performance.now();
  t.equal(
    (await as(null).post('/api/logout', { refreshToken: session.refreshToken })).status,
    204,
    'logout',
  );
  const closed = await feed.closed;
  // A session is a refresh-token row: logout revokes it and appends no event.
  await events.expect(t, [], { message: 'the logout appended' });
  t.equal(closed.code, CLOSE_SESSION_ENDED);
  t.equal(closed.reason, 'Session ended');
  const delay = closed.at - signedOut;
  t.ok(delay < 1000, `closed ${delay.toFixed(0)} ms after the logout`);
});
