/**
 * Live screens outlive the access token. With ACCESS_TOKEN_TTL_SECONDS=20, a carrier opens the
 * tracking map of the demo's truck on the road and the marketplace, in two tabs of one browser (one
 * session, shared tokens), and leaves them idle for more than two lifetimes of a token. Afterwards a
 * position sent by the driver moves the map and a load posted by a shipper appears in the
 * marketplace, both badges say Live, and the carrier is still signed in: the tabs refreshed the token
 * before it expired (one refresh at a time across tabs, the waiting tab taking the pair the other got,
 * never presenting a used refresh token) and handed it to their sockets.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { Page } from 'playwright-core';
import { loadBody } from '../server/testing/loadBodies.ts';
import {
  apiGet,
  apiToken,
  demo,
  launch,
  missingBrowser,
  openPage,
  SHOTS,
  signIn,
  startServer,
} from './harness.ts';

const TTL = 20;
const tag = `Live ${Date.now().toString(36).toUpperCase()}`;
const folder = join(SHOTS, 'realtime');

const missing = missingBrowser();
if (missing) {
  if (process.env.CI) t.fail(missing);
  else t.plan(0, missing);
} else {
  mkdirSync(folder, { recursive: true });
  const server = await startServer({ ACCESS_TOKEN_TTL_SECONDS: String(TTL) });
  const browser = await launch();
  t.teardown(async () => {
    await browser.close().catch(() => undefined);
    await server.stop();
  });
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(folder, `${name}.png`) }).catch(() => undefined);

  t.test(
    'the map and the marketplace still hear the server after two lifetimes of the access token',
    async (t) => {
      const context = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        timezoneId: 'America/Chicago',
        locale: 'en-US',
      });
      t.teardown(() => context.close().catch(() => undefined));
      const { page: marketplace, errors } = await openPage(context);
      let refreshes = 0;
      const refused: number[] = [];
      context.on('request', (request) => {
        if (request.url().endsWith('/api/refresh-token')) refreshes += 1;
      });
      context.on('response', (response) => {
        if (response.url().endsWith('/api/refresh-token') && response.status() !== 200)
          refused.push(response.status());
      });

      await signIn(marketplace, server.url, demo.carrier.email, demo.carrier.password);
      const carrierToken = await apiToken(server.url, demo.carrier.email, demo.carrier.password);
      const tours = await apiGet<{ data: { id: string; status: number; statusName: string }[] }>(
        server.url,
        carrierToken,
        '/tours?pageSize=50',
      );
      const onTheRoad = tours.data.find((row) => row.statusName === 'In Transit');
      t.ok(onTheRoad, 'the demo has a tour in transit');
      const tourId = onTheRoad!.id;

      await marketplace.goto(`${server.url}/loads/carrier`);
      const marketBadge = marketplace.locator('.live-indicator');
      await marketBadge.filter({ hasText: 'Live' }).waitFor({ timeout: 20_000 });

      const map = await context.newPage();
      await map.goto(`${server.url}/track/tour/${tourId}`);
      const mapBadge = map.locator('.live-badge');
      await map.locator('.live-badge.is-live').waitFor({ timeout: 20_000 });
      await shot(map, '01-tracking-live');
      await shot(marketplace, '02-marketplace-live');

      // Idle past two lifetimes of the token the pages started with.
      const idleUntil = Date.now() + (2 * TTL + 5) * 1000;
      while (Date.now() < idleUntil) await map.waitForTimeout(5_000);
      t.ok(
        refreshes >= 2,
        `the token was refreshed before it expired (${refreshes} refreshes in ${2 * TTL + 5} s)`,
      );
      // Both tabs renew at the same moment: one refreshes, the other takes its pair (a second use of a refresh token would end the session).
      t.same(refused, [], 'no refresh was refused');

      // A position of the truck (dated after the demo's own, so it stays the last one) and a new load.
      const driverToken = await apiToken(server.url, demo.driver.email, demo.driver.password);
      const position = {
        latitude: 38.6271,
        longitude: -90.1979,
        speed: 61,
        heading: 200,
        recordedAt: new Date(Date.now() + 120_000).toISOString(),
      };
      const sent = await fetch(`${server.url}/api/tours/${tourId}/positions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${driverToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(position),
      });
      t.equal(sent.status, 202, 'the driver sends a position');
      const shipperToken = await apiToken(server.url, demo.shipper.email, demo.shipper.password);
      const posted = await fetch(`${server.url}/api/loads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${shipperToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(loadBody({ commodity: `Apples ${tag}` })),
      });
      t.equal(posted.status, 201, 'a shipper posts a load');

      await map
        .getByTestId('last-position')
        .filter({ hasText: '38.6271, -90.1979' })
        .waitFor({ timeout: 15_000 });
      t.pass('the map shows the new position');
      t.match(await mapBadge.textContent(), /Live/, "the map's badge says Live");
      await marketplace.getByText(`Apples ${tag}`).waitFor({ timeout: 15_000 });
      t.pass('the marketplace shows the new load');
      t.match(await marketBadge.textContent(), /Live/, "the marketplace's badge says Live");
      t.notOk(new URL(marketplace.url()).pathname.startsWith('/signin'), 'still signed in');
      await shot(map, '03-tracking-after-idle');
      await shot(marketplace, '04-marketplace-after-idle');
      t.same(errors, [], 'no page errors');
      t.comment(
        `realtime journey: ${refreshes} token refreshes over ${2 * TTL + 5} s idle with a ${TTL} s token`,
      );
    },
  );
}
