// @vitest-environment node
/**
 * A tracking link's own connection (`watchSharedTour`) against the real server on a loopback port:
 * it goes live, hears its tour's positions, and reports the end when the link is revoked; an
 * unknown link is reported ended at once.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../domain/catalog.ts';
import type { TourPositionPayload } from '../../../domain/realtime/events.ts';
import { member, organization } from '../../../server/identity/fixtures.ts';
import { expectStatus, httpClient, login, waitUntil } from '../../../server/realtime/testing.ts';
import { runningTour } from '../../../server/testing/runningTour.ts';
import { startTestApp } from '../../../server/testing/testApp.ts';
import { watchSharedTour } from './socket.ts';

let server: Awaited<ReturnType<typeof startTestApp>>;
let baseUrl = '';
let http: ReturnType<typeof httpClient>;
let tourId = '';
let shipperToken = '';
let driverToken = '';

// The client's own setup stubs fetch (no network in screen tests); these talk to a real server.
beforeEach(() => {
  vi.unstubAllGlobals();
});

beforeAll(async () => {
  vi.unstubAllGlobals();
  process.env.RATE_LIMIT_PER_MINUTE = '100000';
  server = await startTestApp();
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  http = httpClient(baseUrl);
  const { app, platform } = server;
  const shipper = await organization(app, platform, 'Shipper', { name: 'Link Test Shipping' });
  const carrier = await organization(app, platform, 'Carrier', { name: 'Link Test Hauling' });
  const driver = await member(app, platform, carrier.organizationId!, Role.Driver, {
    name: 'Lena Link',
  });
  const emails = { shipper: shipper.email, carrier: carrier.email, driver: driver.email };
  ({ tourId } = await runningTour(
    http,
    async (who) => (await login(http, emails[who])).accessToken,
    driver.userId,
  ));
  shipperToken = (await login(http, shipper.email)).accessToken;
  driverToken = (await login(http, driver.email)).accessToken;
}, 120_000);

afterAll(async () => {
  await server?.close();
});

function watch(token: string) {
  const heard = {
    live: [] as boolean[],
    positions: [] as TourPositionPayload[],
    closed: 0,
    changes: 0,
  };
  const stop = watchSharedTour(
    token,
    {
      onLive: (live) => heard.live.push(live),
      onPosition: (position) => heard.positions.push(position),
      onChange: () => {
        heard.changes += 1;
      },
      onClosed: () => {
        heard.closed += 1;
      },
    },
    { url: baseUrl, transports: ['websocket'] },
  );
  return { heard, stop };
}

describe('watchSharedTour', () => {
  it('goes live, hears the positions, and reports the end when the link is revoked', async () => {
    const { token } = await expectStatus(
      http('POST', `/api/tours/${tourId}/share`, shipperToken, {}),
      201,
      'share',
    );
    const { heard, stop } = watch(token);
    try {
      await waitUntil(() => heard.live.includes(true), 5000, 'live');
      expect(heard.changes).toBe(1);
      await expectStatus(
        http('POST', `/api/tours/${tourId}/positions`, driverToken, {
          latitude: 41.5,
          longitude: -87.4,
          speed: 50,
        }),
        202,
        'position',
      );
      await waitUntil(() => heard.positions.length === 1, 5000, 'the position');
      expect(heard.positions[0]).toMatchObject({
        tourId,
        latitude: 41.5,
        longitude: -87.4,
        speed: 50,
      });
      await expectStatus(
        http('DELETE', `/api/tours/${tourId}/share/${token}`, shipperToken),
        204,
        'revoke',
      );
      await waitUntil(() => heard.closed > 0, 5000, 'the end');
      expect(heard.live.at(-1)).toBe(false);
    } finally {
      stop();
    }
  }, 30_000);

  it('reports an unknown link ended at once', async () => {
    const { heard, stop } = watch('z'.repeat(43));
    try {
      await waitUntil(() => heard.closed > 0, 5000, 'the refusal');
      expect(heard.live).not.toContain(true);
    } finally {
      stop();
    }
  }, 30_000);
});
