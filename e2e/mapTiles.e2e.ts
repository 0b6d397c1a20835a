/**
 * MAP_TILE_URL: with a tile server configured (here a local one that speaks the XYZ protocol), the
 * tracking map draws its tiles and shows MAP_ATTRIBUTION, and the page's Content-Security-Policy lets
 * exactly that origin through (no CSP violation in the console).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { pngFixture } from '../server/integrations/pdf/testing.ts';
import { apiGet, apiToken, demo, openPage, SHOTS, signIn, withBrowser } from './harness.ts';

const folder = join(SHOTS, 'map-tiles');

// A tile server: any /{z}/{x}/{y}.png answers a 256 × 256 PNG in a colour of its own.
const tileRequests: string[] = [];
const tile = Buffer.from(pngFixture(256, 256, [180, 220, 190]));
const tiles = createServer((request, response) => {
  const match = /^\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(request.url ?? '');
  if (!match) {
    response.writeHead(404).end();
    return;
  }
  tileRequests.push(request.url!);
  response
    .writeHead(200, {
      'content-type': 'image/png',
      'access-control-allow-origin': '*',
      'cache-control': 'no-store',
    })
    .end(tile);
});
await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
t.teardown(() => {
  tiles.close();
});
const tileOrigin = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}`;

await withBrowser(
  t,
  async (server, browser) => {
    mkdirSync(folder, { recursive: true });
    await t.test(
      'the tracking map draws the configured tiles with their attribution',
      async (t) => {
        const context = await browser.newContext({
          viewport: { width: 1280, height: 860 },
          locale: 'en-US',
        });
        t.teardown(() => context.close().catch(() => undefined));
        const { page, errors } = await openPage(context);
        const console: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') console.push(message.text());
        });
        await signIn(page, server.url, demo.carrier.email, demo.carrier.password);
        const token = await apiToken(server.url, demo.carrier.email, demo.carrier.password);
        const tours = await apiGet<{ data: { id: string; statusName: string }[] }>(
          server.url,
          token,
          '/tours?pageSize=50',
        );
        const onTheRoad = tours.data.find((row) => row.statusName === 'In Transit');
        t.ok(onTheRoad, 'the demo has a tour in transit');

        const response = await page.goto(`${server.url}/track/tour/${onTheRoad!.id}`);
        const policy = response?.headers()['content-security-policy'] ?? '';
        t.match(
          policy,
          new RegExp(`img-src [^;]*${tileOrigin.replace(/[.:/]/g, '\\$&')}`),
          'the policy opens the tile origin',
        );
        await page
          .locator('.ol-attribution')
          .filter({ hasText: '© Local Tiles contributors' })
          .waitFor({ timeout: 30_000 });
        t.pass('the attribution is on the map');
        const deadline = Date.now() + 20_000;
        while (tileRequests.length === 0 && Date.now() < deadline) await page.waitForTimeout(250);
        t.ok(
          tileRequests.length > 0,
          `the map asked the tile server for ${tileRequests.length} tiles`,
        );
        await page.waitForTimeout(1_000);
        await page.screenshot({ path: join(folder, 'tracking-with-tiles.png') });
        t.same(
          console.filter((text) => /Content Security Policy|Refused to/i.test(text)),
          [],
          'no CSP violation',
        );
        t.same(errors, [], 'no page error');
      },
    );
  },
  { MAP_TILE_URL: `${tileOrigin}/{z}/{x}/{y}.png`, MAP_ATTRIBUTION: '© Local Tiles contributors' },
);
