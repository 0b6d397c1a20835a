// @vitest-environment node
/**
 * The browser's realtime connection against the real server (its socket.io, its tokens, its event
 * log) on a loopback port, with access tokens that live 4 seconds: it hands fresh tokens to the
 * open socket before they expire, and after the server closes it, it connects again with a fresh
 * token, watches its tours again and catches up on the positions it missed.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../domain/catalog.ts';
import type { ServerEventName, TourPositionPayload } from '../../../domain/realtime/events.ts';
import { member, organization } from '../../../server/identity/fixtures.ts';
import {
  expectStatus,
  httpClient,
  login,
  postLoad,
  waitUntil,
} from '../../../server/realtime/testing.ts';
import { runningTour } from '../../../server/testing/runningTour.ts';
import { startTestApp } from '../../../server/testing/testApp.ts';
import {
  createRealtimeClient,
  refreshLeadMs,
  tokenTimes,
  type ConnectionStatus,
  type RealtimeClient,
} from './socket.ts';

const TTL = 4;
let server: Awaited<ReturnType<typeof startTestApp>>;
let baseUrl = '';
let http: ReturnType<typeof httpClient>;
let people: {
  shipper: string;
  carrier: string;
  driver: string;
  carrierUserId: string;
  driverUserId: string;
};
let tourId = '';

// The client's own setup stubs fetch (no network in screen tests); these talk to a real server.
beforeEach(() => {
  vi.unstubAllGlobals();
});

beforeAll(async () => {
  vi.unstubAllGlobals();
  process.env.RATE_LIMIT_PER_MINUTE = '100000';
  server = await startTestApp({ accessTokenTtlSeconds: TTL });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  http = httpClient(baseUrl);
  const { app, platform } = server;
  const shipper = await organization(app, platform, 'Shipper', { name: 'Client Test Shipping' });
  const carrier = await organization(app, platform, 'Carrier', { name: 'Client Test Hauling' });
  const driver = await member(app, platform, carrier.organizationId!, Role.Driver, {
    name: 'Cleo Client',
  });
  people = {
    shipper: shipper.email,
    carrier: carrier.email,
    driver: driver.email,
    carrierUserId: carrier.userId,
    driverUserId: driver.userId,
  };
  ({ tourId } = await runningTour(http, (who) => tokenOf(who), driver.userId));
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const tokenOf = async (who: 'shipper' | 'carrier' | 'driver') =>
  (await login(http, people[who])).accessToken;

/** A signed-in carrier as the browser holds it: the stored tokens and the shared refresh. */
async function browserSession(options: { offline?: () => boolean } = {}) {
  const stored = await login(http, people.carrier);
  const counts = { refreshes: 0 };
  const heard: { event: ServerEventName; payload: any }[] = [];
  const statuses: ConnectionStatus[] = [];
  const client: RealtimeClient = createRealtimeClient({
    url: baseUrl,
    transports: ['websocket'],
    retryMs: { first: 200, max: 1000 },
    token: () => (options.offline?.() ? null : stored.accessToken),
    refresh: async () => {
      if (options.offline?.()) return null;
      counts.refreshes += 1;
      const answer = await http('POST', '/api/refresh-token', null, {
        refreshToken: stored.refreshToken,
      });
      if (answer.status !== 200) return null;
      Object.assign(stored, {
        accessToken: answer.json.accessToken,
        refreshToken: answer.json.refreshToken,
      });
      return stored.accessToken;
    },
    missedPositions: async (id, since) =>
      (await expectStatus(
        http(
          'GET',
          `/api/tours/${id}/positions?since=${encodeURIComponent(since)}`,
          stored.accessToken,
        ),
        200,
        'missed',
      )) as TourPositionPayload[],
    onStatus: (status) => statuses.push(status),
  });
  for (const event of ['tour:position', 'load:posted'] as const)
    client.on(event, (payload) => heard.push({ event, payload }));
  return { client, stored, counts, heard, statuses };
}

describe('the realtime connection', { timeout: 120_000 }, () => {
  it('reads when a token expires and replaces it a fifth of its life (at most a minute) before', () => {
    const now = Math.floor(Date.now() / 1000);
    const token = `x.${Buffer.from(JSON.stringify({ iat: now, exp: now + 900 })).toString('base64url')}.y`;
    expect(tokenTimes(token)).toEqual({ iat: now, exp: now + 900 });
    expect(tokenTimes('not a token')).toBeNull();
    expect(refreshLeadMs({ iat: 0, exp: 900 })).toBe(60_000);
    expect(refreshLeadMs({ iat: 0, exp: 20 })).toBe(4_000);
  });

  it('hands a fresh token to the open socket before each expiry, so it stays open and keeps hearing', async () => {
    const { client, counts, heard, statuses } = await browserSession();
    client.open();
    await waitUntil(() => client.status === 'live', 10_000, 'live');
    const socketId = client.socket!.id;
    let disconnections = 0;
    client.socket!.on('disconnect', () => {
      disconnections += 1;
    });
    const stopWatching = client.watchTour(tourId);

    // Three lifetimes of the first token.
    await new Promise((resolve) => setTimeout(resolve, TTL * 3000));
    expect(disconnections).toBe(0);
    expect(client.socket!.id).toBe(socketId);
    expect(client.status).toBe('live');
    expect(counts.refreshes).toBeGreaterThanOrEqual(2);

    await expectStatus(
      http('POST', `/api/tours/${tourId}/positions`, await tokenOf('driver'), {
        latitude: 40.1,
        longitude: -88.2,
        speed: 55,
        heading: 180,
      }),
      202,
      'position',
    );
    const posted = await postLoad(http, await tokenOf('shipper'));
    await waitUntil(
      () =>
        heard.some((entry) => entry.event === 'tour:position' && entry.payload.latitude === 40.1) &&
        heard.some((entry) => entry.event === 'load:posted' && entry.payload.id === posted.id),
      10_000,
      'position and load',
    );
    expect(statuses).toEqual(['connecting', 'live']);
    stopWatching();
    client.close();
    expect(client.status).toBe('offline');
  });

  it('connects again after the server closed it, with a fresh token, watches its tour again and catches up on missed positions', async () => {
    let offline = false;
    const { client, heard, statuses } = await browserSession({ offline: () => offline });
    let reconnections = 0;
    client.onReconnect(() => {
      reconnections += 1;
    });
    client.open();
    await waitUntil(() => client.status === 'live', 10_000, 'live');
    const stopWatching = client.watchTour(tourId);
    const stopAgain = client.watchTour(tourId);
    stopAgain(); // counted: the first watch still holds
    await expectStatus(
      http('POST', `/api/tours/${tourId}/positions`, await tokenOf('driver'), {
        latitude: 40.2,
        longitude: -88.3,
      }),
      202,
      'position',
    );
    await waitUntil(
      () => heard.some((entry) => entry.payload.latitude === 40.2),
      10_000,
      'the first position',
    );

    // The network is gone (no token reaches the server) and the server closes the socket.
    offline = true;
    server.platform.realtime.sessions.endUser(people.carrierUserId, 'signedOut');
    await waitUntil(() => client.status === 'reconnecting', 5_000, 'reconnecting');
    // Positions sent meanwhile (recorded after the last one heard); the stored token expires meanwhile too.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expectStatus(
      http('POST', `/api/tours/${tourId}/positions`, await tokenOf('driver'), [
        { latitude: 40.3, longitude: -88.4, recordedAt: new Date().toISOString() },
        { latitude: 40.4, longitude: -88.5, recordedAt: new Date(Date.now() + 100).toISOString() },
      ]),
      202,
      'missed positions',
    );
    await new Promise((resolve) => setTimeout(resolve, (TTL + 1) * 1000));
    expect(client.status).toBe('reconnecting');

    offline = false;
    await waitUntil(() => client.status === 'live' && reconnections === 1, 15_000, 'live again');
    await waitUntil(
      () => heard.some((entry) => entry.payload.latitude === 40.4),
      10_000,
      'the missed positions',
    );
    expect(
      heard
        .filter((entry) => entry.event === 'tour:position')
        .map((entry) => entry.payload.latitude),
    ).toEqual([40.2, 40.3, 40.4]);

    // Watching again: a new position arrives live.
    await expectStatus(
      http('POST', `/api/tours/${tourId}/positions`, await tokenOf('driver'), {
        latitude: 40.5,
        longitude: -88.6,
      }),
      202,
      'position',
    );
    await waitUntil(
      () => heard.some((entry) => entry.payload.latitude === 40.5),
      10_000,
      'a live position after the reconnection',
    );
    expect(statuses).toEqual(['connecting', 'live', 'reconnecting', 'live']);
    stopWatching();
    client.close();
  });

  it("watches a dozen tours again after a reconnection without going past the server's budget of unanswered events", async () => {
    // One after another: eleven shipments driven at once on a loaded machine kept requests queued
    // past the 4-second tokens this file signs in with.
    const tours = [tourId];
    for (let index = 0; index < 11; index++)
      tours.push((await runningTour(http, (who) => tokenOf(who), people.driverUserId)).tourId);
    const { client, heard } = await browserSession();
    const limits: unknown[] = [];
    client.on('limit:exceeded', (payload) => limits.push(payload));
    let reconnections = 0;
    client.onReconnect(() => {
      reconnections += 1;
    });
    client.open();
    await waitUntil(() => client.status === 'live', 10_000, 'live');
    const stops = tours.map((id) => client.watchTour(id));
    await new Promise((resolve) => setTimeout(resolve, 500));

    server.platform.realtime.sessions.endUser(people.carrierUserId, 'signedOut');
    await waitUntil(() => client.status === 'live' && reconnections === 1, 15_000, 'live again');
    // Every tour watched again: a position of the last one arrives live, and the socket stays open.
    const last = tours[tours.length - 1];
    await expectStatus(
      http('POST', `/api/tours/${last}/positions`, await tokenOf('driver'), {
        latitude: 41.7,
        longitude: -87.6,
      }),
      202,
      'position',
    );
    await waitUntil(
      () => heard.some((entry) => entry.event === 'tour:position' && entry.payload.tourId === last),
      10_000,
      'a position of the twelfth tour',
    );
    expect(limits).toEqual([]);
    expect(reconnections).toBe(1);
    for (const stop of stops) stop();
    client.close();
  }, 180_000);
});
