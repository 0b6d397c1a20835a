/**
 * A carrier sees its trucks on the map of a load's offer screen: with the built-in ELD simulator
 * installed, the offer page of an open load shows the pickup and the carrier's trucks on a map, and
 * lists them nearest to the pickup first with their distance.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { apiGet, apiToken, demo, openPage, SHOTS, signIn, withBrowser } from './harness.ts';

const folder = join(SHOTS, 'offer-trucks');

await withBrowser(t, async (server, browser) => {
  mkdirSync(folder, { recursive: true });
  await t.test(
    "the offer screen maps the carrier's ELD trucks, nearest to the pickup first",
    async (t) => {
      const token = await apiToken(server.url, demo.carrier.email, demo.carrier.password);
      const installed = await fetch(`${server.url}/api/organization-services`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          serviceId: 'simulator',
          clientId: 'fleet',
          clientSecret: 'demo-secret',
        }),
      });
      t.equal(installed.status, 201, 'the carrier installs the ELD simulator');
      const loads = await apiGet<{ data: { id: string; guid: string }[] }>(
        server.url,
        token,
        '/loads/carrier?pageSize=5',
      );
      const open = loads.data[0];
      t.ok(open, 'the marketplace has an open load');
      const detail = await apiGet<{ locations: { latitude: number; longitude: number }[] }>(
        server.url,
        token,
        `/loads/${open!.id}`,
      );
      const pickup = detail.locations[0]!;
      const expected = await apiGet<{ name: string; distance: number }[]>(
        server.url,
        token,
        `/services/simulator/trucks/${pickup.latitude}/${pickup.longitude}`,
      );
      t.ok(expected.length > 0, `the simulator reports ${expected.length} trucks`);

      for (const viewport of [
        { width: 1366, height: 900 },
        { width: 390, height: 844 },
      ]) {
        const context = await browser.newContext({ viewport, locale: 'en-US' });
        const { page, errors } = await openPage(context);
        await signIn(page, server.url, demo.carrier.email, demo.carrier.password);
        await page.goto(`${server.url}/offer/load/${open!.id}`);
        const card = page.getByRole('region', { name: 'Your trucks near the pickup' });
        await card.waitFor({ timeout: 30_000 });
        await card
          .getByRole('region', { name: `Map of the pickup and your ${expected.length} ELD trucks` })
          .waitFor({ timeout: 30_000 });
        const items = card.getByTestId('offer-trucks').getByRole('listitem');
        await items.first().waitFor();
        const texts = await items.allTextContents();
        t.equal(texts.length, expected.length, `every truck listed (${viewport.width} px)`);
        t.match(
          texts[0],
          new RegExp(`^${expected[0]!.name} · .* from the pickup$`),
          'the nearest first, with its distance',
        );
        const miles = texts.map((text) =>
          Number(/([\d,.]+) mi/.exec(text)?.[1]?.replace(/,/g, '')),
        );
        t.same(
          miles,
          [...miles].sort((a, b) => a - b),
          'in order of distance',
        );
        await page.waitForTimeout(1_000);
        await page.screenshot({
          path: join(folder, `offer-trucks-${viewport.width}.png`),
          fullPage: viewport.width < 500,
        });
        t.same(errors, [], 'no page error');
        await context.close();
      }
    },
  );
});
