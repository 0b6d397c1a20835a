/**
 * Lane rates on the demo data: the shipper fills a load from Chicago to Atlanta on a 53 ft dry van,
 * and step 3 of the load form shows the typical price on that lane (the band, the median, how many
 * agreed prices) with a line chart of the last twelve months; a carrier dispatcher's Lane rates page
 * shows the busiest lanes, in English and in Arabic (right to left), on a desktop and a phone; the
 * carrier's offer screen shows the typical price beside the price field.
 * chart.js is fetched only by those screens, never by the sign-in page.
 */
import t from 'tap';
import { apiGet, apiToken, demo, Journey, openPage, signIn, withBrowser } from './harness.ts';
import { chooseInMultiSelect, pickPlace, press, typeDateTime } from './steps.ts';

const HOUR = 3_600_000;
/** chart.js's chunk (chart.js/auto) and the chart component that imports it. */
const chartChunk = /\/assets\/(auto|LaneChart)-[\w-]+\.js$/;

await withBrowser(t, async (server, browser) => {
  const journey = new Journey('lanes');
  const token = await apiToken(server.url, demo.shipper.email, demo.shipper.password);
  const lane = await apiGet<{ count: number; price: { p25: number; median: number; p75: number } }>(
    server.url,
    token,
    '/insights/lanes?origin=41.8781,-87.6298&destination=33.749,-84.388&equipment=6',
  );
  t.ok(
    lane.count >= 36,
    `the demo holds ${lane.count} agreed prices from Chicago to Atlanta on 53 ft dry vans`,
  );

  await t.test(
    "step 3 of the load form shows the typical price on the shipper's lane",
    async (t) => {
      const context = await browser.newContext({
        viewport: { width: 1366, height: 900 },
        locale: 'en-US',
        timezoneId: 'America/Chicago',
      });
      const { page, errors } = await openPage(context);
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      await signIn(page, server.url, demo.shipper.email, demo.shipper.password);
      t.same(
        scripts.filter((path) => chartChunk.test(path)),
        [],
        'the sign-in and the home screen load no chart code',
      );

      await page.goto(`${server.url}/load`);
      await page.getByRole('heading', { name: 'General info' }).waitFor();
      const now = Date.now();
      await typeDateTime(
        page,
        page.locator('#pickupTimestampStart'),
        new Date(now + 48 * HOUR),
        'America/Chicago',
      );
      await typeDateTime(
        page,
        page.locator('#dropOffTimestampStart'),
        new Date(now + 72 * HOUR),
        'America/Chicago',
      );
      await typeDateTime(
        page,
        page.locator('#expiration'),
        new Date(now + 24 * HOUR),
        'America/Chicago',
      );
      await chooseInMultiSelect(page, page.locator('#loadEquipment'), '53 ft Dry Van');
      await press(page, page.getByRole('button', { name: 'Next' }));

      await page.getByRole('heading', { name: 'Locations' }).waitFor();
      const editors = page.locator('fieldset.stop-editor');
      for (const [index, stop] of [
        { place: 'Chicago, IL', facility: 'Lakeside Paints' },
        { place: 'Atlanta, GA', facility: 'Peachtree Hardware DC' },
      ].entries()) {
        const editor = editors.nth(index);
        await pickPlace(page, editor.getByRole('combobox', { name: /Location/ }), stop.place);
        await editor.getByLabel('Facility Name').fill(stop.facility);
      }
      await press(page, page.getByRole('button', { name: 'Next' }));
      await page.getByRole('heading', { name: 'Load Details' }).waitFor();

      const card = page.getByRole('region', { name: 'Typical price on this lane' });
      await card.waitFor({ timeout: 30_000 });
      await card.locator('canvas').waitFor({ timeout: 30_000 });
      const money = (value: number) =>
        `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
      t.equal(
        await card.getByTestId('lane-band').innerText(),
        `${money(lane.price.p25)} – ${money(lane.price.p75)}`,
        'the band p25 to p75',
      );
      t.equal(
        await card.getByTestId('lane-median').innerText(),
        money(lane.price.median),
        'the median',
      );
      t.equal(
        await card.getByTestId('lane-count').innerText(),
        `Agreed prices behind these figures: ${lane.count}`,
      );
      t.match(await card.innerText(), /Middle half of prices[\s\S]*Median[\s\S]*Per mile/);
      t.match(await card.innerText(), /53 ft Dry Van/, 'for the chosen trailer type');
      t.equal(
        await card.locator('canvas').getAttribute('aria-label'),
        'Median agreed price per month, last 12 months',
        'the chart is named for screen readers',
      );
      const box = await card.locator('canvas').boundingBox();
      t.ok(
        box && box.width > 200 && box.height > 100,
        `the chart is drawn (${Math.round(box?.width ?? 0)} x ${Math.round(box?.height ?? 0)} px)`,
      );
      t.ok(
        scripts.some((path) => chartChunk.test(path)),
        'chart.js arrives with the chart',
      );
      await journey.check(t, page, 'load-form-lane-rates');

      // Somewhere no agreed price was ever made: the quiet line, no chart.
      await press(page, page.getByRole('button', { name: 'Back' }));
      await page.getByRole('heading', { name: 'Locations' }).waitFor();
      await editors
        .nth(1)
        .getByRole('combobox', { name: /Location/ })
        .fill('');
      await pickPlace(
        page,
        editors.nth(1).getByRole('combobox', { name: /Location/ }),
        'Boise, ID',
      );
      await press(page, page.getByRole('button', { name: 'Next' }));
      const quiet = page.getByRole('region', { name: 'Typical price on this lane' });
      await quiet
        .getByText('Not enough agreed prices on this lane yet')
        .waitFor({ timeout: 30_000 });
      t.equal(await quiet.locator('canvas').count(), 0, 'no chart without figures');
      t.same(errors, [], 'no page error');
      await context.close();
    },
  );

  await t.test("the carrier's offer screen shows the same beside the price", async (t) => {
    const carrierToken = await apiToken(server.url, demo.carrier2.email, demo.carrier2.password);
    const market = await apiGet<{
      data: {
        id: string;
        refNumber: string;
        pickup: { city: string };
        dropoff: { city: string };
      }[];
    }>(server.url, carrierToken, '/loads/carrier?pageSize=25');
    const open = market.data.find(
      (row) => row.pickup.city === 'Pasadena' && row.dropoff.city === 'New Orleans',
    );
    t.ok(open, `an open load from Pasadena to New Orleans on the marketplace (${open?.refNumber})`);
    const context = await browser.newContext({
      viewport: { width: 1366, height: 900 },
      locale: 'en-US',
    });
    const { page, errors } = await openPage(context);
    await signIn(page, server.url, demo.carrier2.email, demo.carrier2.password);
    await page.goto(`${server.url}/offer/load/${open!.id}`);
    await page.getByLabel('Price (USD)').waitFor({ timeout: 30_000 });
    const card = page.getByRole('region', { name: 'Typical price on this lane' });
    await card.locator('canvas').waitFor({ timeout: 30_000 });
    t.match(
      await card.getByTestId('lane-count').innerText(),
      /^Agreed prices behind these figures: \d+$/,
    );
    t.match(
      await card.getByTestId('lane-band').innerText(),
      /^\$[\d,]+\.\d\d – \$[\d,]+\.\d\d$/,
      'the band',
    );
    await card.scrollIntoViewIfNeeded();
    await journey.check(t, page, 'offer-lane-rates');
    t.same(errors, [], 'no page error');
    await context.close();
  });

  await t.test(
    "a dispatcher's Lane rates page: the busiest lanes and their price per mile, in English and Arabic, desktop and phone",
    async (t) => {
      for (const [locale, viewport] of [
        ['en-US', { width: 1366, height: 900 }],
        ['ar', { width: 390, height: 844 }],
      ] as const) {
        const context = await browser.newContext({ viewport, locale });
        // The product opens in English whatever the browser asks for: this dispatcher picked Arabic.
        if (locale === 'ar')
          await context.addInitScript(() => window.localStorage.setItem('language', 'ar'));
        const { page, errors } = await openPage(context);
        await signIn(page, server.url, demo.carrier.email, demo.carrier.password);
        await page.goto(`${server.url}/insights/lanes`);
        await page.locator('.lane-top-chart canvas').waitFor({ timeout: 30_000 });
        const rows = page.locator('.lane-top-table tbody tr');
        t.ok((await rows.count()) >= 4, `${await rows.count()} lanes listed (${locale})`);
        if (locale === 'en-US') {
          t.match(
            await rows.first().innerText(),
            /Joliet, IL → Atlanta, GA|Pasadena, TX → New Orleans, LA/,
            'a main lane first',
          );
          t.ok(
            (await page.getByRole('link', { name: 'Lane rates' }).count()) > 0,
            'the menu offers Lane rates',
          );
        } else {
          t.equal(await page.evaluate(() => document.documentElement.dir), 'rtl', 'right to left');
          await page.getByRole('heading', { name: 'أسعار المسارات' }).waitFor();
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          t.ok(width <= 390 + 1, `nothing wider than the phone (${width} px)`);
        }
        await journey.check(t, page, `lane-rates-${locale}-${viewport.width}`);
        t.same(errors, [], 'no page error');
        await context.close();
      }
    },
  );
  journey.summary(t);
});
