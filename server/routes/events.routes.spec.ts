/**
 * The raw event feed over a real WebSocket: who may open it, the log from a position then live, a
 * browser's `?token=`, and the feed closed when its session ends.
 */
import type { AddressInfo } from 'node:net';
import t from 'tap';
import WebSocket from 'ws';
import { publicEvent, SECRET_FIELDS } from '../../domain/shared/publicEvent.ts';
import type { RecordedEvent } from '../eventstore/eventStore.ts';
import { bearer, organization, PASSWORD, superadmin } from '../identity/fixtures.ts';
import { expectStatus, httpClient, login, postLoad, waitUntil } from '../realtime/testing.ts';
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
  const plain = await app.inject({
    method: 'GET',
    url: '/api/events/stream',
    headers: bearer(admin.token),
  });
  t.equal(plain.statusCode, 426);
  t.equal(
    (await app.inject({ method: 'GET', url: '/api/events/stream', headers: bearer(shipper.token) }))
      .statusCode,
    403,
  );
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

  const { id } = await postLoad(http, shipper.token);
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
  const installed = await http('POST', '/api/organization-services', carrier.token, {
    serviceId: 'simulator',
    clientId: 'demo-fleet',
    clientSecret: 'simulator-secret-Hk77',
  });
  t.equal(installed.status, 201, 'an ELD service installed');
  const updated = await http('PUT', '/api/organization-services', carrier.token, {
    organizationServiceId: installed.json.organizationServiceData.organizationServiceId,
    clientId: 'fleet-2',
    clientSecret: 'simulator-secret-2',
  });
  t.equal(updated.status, 200, 'its credentials changed');
  const mia = await organization(app, platform, 'Shipper');
  const profile = {
    email: mia.email,
    username: mia.username,
    name: 'Mia Shipper',
    phone: '555-555-0102',
  };
  t.equal(
    (
      await http('PUT', '/api/users', mia.token, {
        ...profile,
        oldPassword: PASSWORD,
        newPassword: 'brand-new-pass',
      })
    ).status,
    200,
    'a password changed',
  );
  t.equal(
    (await http('POST', '/api/users/forgot-password', null, { email: mia.email })).status,
    200,
    'a reset asked for',
  );
  const mail = (await http('GET', '/api/admin/outbox', admin.token)).json.find(
    (entry: { to: string; subject: string }) =>
      entry.to === mia.email && entry.subject.includes('Reset'),
  );
  const code = /Reset code: ([0-9a-f]{64})/.exec(mail.text)?.[1];
  t.equal(
    (
      await http('POST', '/api/users/reset-password', null, {
        code,
        newPassword: 'another-new-pass',
      })
    ).status,
    200,
    'and the password reset',
  );

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
  const signedOut = performance.now();
  await expectStatus(
    http('POST', '/api/logout', null, { refreshToken: session.refreshToken }),
    204,
    'logout',
  );
  const closed = await feed.closed;
  t.equal(closed.code, CLOSE_SESSION_ENDED);
  t.equal(closed.reason, 'Session ended');
  const delay = closed.at - signedOut;
  t.ok(delay < 1000, `closed ${delay.toFixed(0)} ms after the logout`);
});
