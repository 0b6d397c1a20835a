/**
 * One shipment from posting to rating, with every party in its own browser at once (issue 9,
 * journeys 2 to 5 and 8): the shipper posts a load by keyboard only (an extra stop, a saved
 * location); the carrier, already searching, sees it appear live and offers; the shipper sees the
 * offer arrive live and counters; the carrier accepts the counter; the shipper accepts. The carrier
 * downloads the rate confirmation, uploads the signed contract and assigns a driver. The driver, on
 * a phone with its position moved by the test, dispatches, shares its location, picks up and
 * delivers while the shipper's map follows the truck; the chat carries a message each way; the
 * shipper confirms delivery and both rate. The load history shows the run, and its slider the load
 * before the acceptance. The key screens are right to left in Arabic.
 */
import { readFile } from 'node:fs/promises';
import t, { type Test } from 'tap';
import type { BrowserContext, Page } from 'playwright-core';
import {
  apiGet,
  apiToken,
  demo,
  Journey,
  openPage,
  pdfFile,
  signIn,
  withBrowser,
} from './harness.ts';
import { postLoadByKeyboard, rowAction, rowWith } from './steps.ts';

const ZONE = 'America/Chicago';
const day = 24 * 60 * 60 * 1000;
const tag = `E2E ${Date.now().toString(36).toUpperCase()}`;
const commodity = `Maple syrup ${tag}`;
/** The shipper's tables show the reference, the carrier's the commodity. */
const reference = tag.replace(' ', '-');

type Place = { latitude: number; longitude: number };

await withBrowser(t, async (server, browser) => {
  const journey = new Journey('marketplace');
  const desktop = { viewport: { width: 1440, height: 900 }, timezoneId: ZONE, locale: 'en-US' };
  const contexts: BrowserContext[] = [];
  const context = async (options: Parameters<typeof browser.newContext>[0]) => {
    const created = await browser.newContext({ acceptDownloads: true, ...options });
    contexts.push(created);
    return created;
  };
  t.teardown(async () => {
    for (const each of contexts) await each.close().catch(() => undefined);
  });
  // Each step needs the one before: after a failure the rest are skipped, saying why.
  // (A finding of axe fails its step but does not stop the journey; a screen that did not work does.)
  let broken = false;
  const step = (name: string, body: (t: Test) => Promise<void>) =>
    broken
      ? t.test(name, { skip: 'an earlier step did not complete' }, async () => undefined)
      : t.test(name, async (t) => {
          try {
            await body(t);
          } catch (error) {
            broken = true;
            throw error;
          }
        });

  const shipperContext = await context(desktop);
  const carrierContext = await context(desktop);
  const shipper = await openPage(shipperContext);
  const carrier = await openPage(carrierContext);
  let loadId = '';
  let loadGuid = '';
  let tourId = '';
  let pickup: Place = { latitude: 0, longitude: 0 };
  let dropoff: Place = { latitude: 0, longitude: 0 };

  await step('the shipper posts a load by keyboard; the carrier sees it appear live', async (t) => {
    // The carrier is already on the marketplace, its search narrowed to this journey's commodity.
    await signIn(carrier.page, server.url, demo.carrier2.email, demo.carrier2.password);
    t.match(
      new URL(carrier.page.url()).pathname,
      /^\/loads\/carrier/,
      'the carrier lands on the marketplace',
    );
    await carrier.page.getByRole('searchbox', { name: 'Search' }).fill(tag);
    await carrier.page.getByText('No open loads match').waitFor({ timeout: 20_000 });
    await journey.check(t, carrier.page, 'carrier-marketplace-empty');

    await signIn(shipper.page, server.url, demo.shipper.email, demo.shipper.password);
    const now = Date.now();
    await postLoadByKeyboard(shipper.page, server.url, {
      commodity,
      refNumber: reference,
      weight: '38000',
      timeZone: ZONE,
      pickupAt: new Date(now + 3 * day),
      dropoffAt: new Date(now + 5 * day),
      expiresAt: new Date(now + 2 * day),
      stops: [
        { place: 'Chicago', facility: `Prairie dock ${tag}` },
        { place: 'Indianapolis', facility: 'Circle City cross-dock' },
        { place: 'Louisville', facility: 'Derby foods DC' },
      ],
    });
    t.pass('the load form posted and went back to the loads');
    await rowWith(shipper.page, reference).first().waitFor({ timeout: 30_000 });
    await journey.check(t, shipper.page, 'shipper-loads-posted');

    // Live: the row arrives on the carrier's open screen, no reload.
    await rowWith(carrier.page, commodity).first().waitFor({ timeout: 30_000 });
    t.ok(
      await carrier.page.locator('.new-pill').first().isVisible(),
      'the new load is marked New on the carrier screen',
    );
    await journey.check(t, carrier.page, 'carrier-marketplace-live');

    // The saved location is offered on the next load's form.
    const token = await apiToken(server.url, demo.shipper.email, demo.shipper.password);
    const saved = await apiGet<Array<{ name: string }>>(
      server.url,
      token,
      '/loads/list/getSavedLocations',
    );
    t.ok(
      saved.some((location) => location.name === `Prairie dock ${tag}`),
      'the ticked stop is a saved location now',
    );
    const table = await apiGet<{ data: Array<{ id: string; guid: string; commodity: string }> }>(
      server.url,
      token,
      `/loads/shipper?page=1&pageSize=5&search=${encodeURIComponent(tag)}`,
    );
    loadId = table.data[0].id;
    loadGuid = table.data[0].guid;
    const load = await apiGet<{ locations: Array<Place & { locationType?: number }> }>(
      server.url,
      token,
      `/loads/${loadId}`,
    );
    t.equal(load.locations.length, 3, 'the load has its extra stop');
    pickup = load.locations[0];
    dropoff = load.locations.at(-1)!;
  });

  await step(
    'an offer arrives live, the shipper counters, the carrier accepts the counter, the shipper accepts',
    async (t) => {
      await rowAction(shipper.page, reference, 'Offers');
      await shipper.page.waitForURL(/\/offers\/shipper\/load/);
      await shipper.page.getByText('No offers yet').waitFor({ timeout: 20_000 });
      await journey.check(t, shipper.page, 'shipper-offers-empty');

      await rowAction(carrier.page, commodity, 'Make an offer');
      await carrier.page.waitForURL(/\/offer\/load/);
      await carrier.page.getByLabel('Price (USD)').fill('2500');
      await carrier.page.getByLabel('Truck').fill('DS-42');
      await carrier.page.getByLabel('Message').fill('Team drivers, can load a day early.');
      await journey.check(t, carrier.page, 'carrier-offer-form');
      await carrier.page.getByRole('button', { name: 'Send the offer' }).click();
      await carrier.page.getByRole('heading', { name: 'Your offer' }).first().waitFor();

      // Live on the shipper's open page.
      const offerRow = rowWith(shipper.page, 'Desert Sun Logistics');
      await offerRow.first().waitFor({ timeout: 30_000 });
      t.match(await offerRow.first().textContent(), /\$2,500\.00/, 'the offer shows its price');
      await journey.check(t, shipper.page, 'shipper-offer-arrived');
      await offerRow.first().getByRole('button', { name: 'Counter' }).click();
      const counterDialog = shipper.page.getByRole('dialog');
      await counterDialog.getByLabel('Your price (USD)').fill('2400');
      await journey.check(t, shipper.page, 'shipper-counter-dialog');
      await counterDialog.getByRole('button', { name: 'Send the counter-offer' }).click();
      await counterDialog.waitFor({ state: 'detached' });

      // The counter arrives live on the carrier's page.
      await carrier.page.getByText('The shipper proposes $2,400.00.').waitFor({ timeout: 30_000 });
      await journey.check(t, carrier.page, 'carrier-counter-arrived');
      await carrier.page.getByRole('button', { name: 'Accept the counter-offer' }).click();

      const accept = offerRow.first().getByRole('button', { name: 'Accept', exact: true });
      await accept.waitFor({ timeout: 30_000 });
      await accept.click();
      const acceptDialog = shipper.page.getByRole('dialog');
      await acceptDialog.getByRole('button', { name: 'Accept', exact: true }).click();
      await acceptDialog.waitFor({ state: 'detached' });
      await shipper.page.getByRole('heading', { name: 'Contract' }).waitFor({ timeout: 30_000 });
      await journey.check(t, shipper.page, 'shipper-offer-accepted');
    },
  );

  await step(
    'the carrier downloads the rate confirmation, uploads the signed contract, assigns a driver',
    async (t) => {
      await carrier.page.getByRole('heading', { name: 'Contract' }).waitFor({ timeout: 30_000 });
      const [download] = await Promise.all([
        carrier.page.waitForEvent('download'),
        carrier.page.getByRole('button', { name: 'Download the PDF' }).click(),
      ]);
      t.match(
        download.suggestedFilename(),
        /^rate-confirmation-.*\.pdf$/,
        'a rate confirmation file',
      );
      const bytes = await readFile((await download.path())!);
      t.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-', 'the rate confirmation is a PDF');

      await carrier.page
        .locator('.contract-panel input[type="file"]')
        .setInputFiles(await pdfFile('signed-rate-confirmation.pdf'));
      await journey.check(t, carrier.page, 'carrier-contract-chosen');
      await carrier.page.getByRole('button', { name: 'Upload the signed contract' }).click();
      await carrier.page.getByText('Signed contract received.').waitFor({ timeout: 30_000 });
      await journey.check(t, carrier.page, 'carrier-contract-uploaded');

      await carrier.page.goto(`${server.url}/tours`);
      await rowAction(carrier.page, loadGuid, 'Assign a driver');
      const dialog = carrier.page.getByRole('dialog');
      await dialog.locator('label.driver-choice', { hasText: 'carrier2.driver1@' }).click();
      await journey.check(t, carrier.page, 'carrier-assign-driver');
      await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await rowWith(carrier.page, loadGuid)
        .first()
        .getByText('Ready for pickup', { exact: false })
        .waitFor({ timeout: 30_000 });
      t.pass('the tour is ready for pickup');
    },
  );

  let driver: { page: Page; errors: string[] };
  let driverContext: BrowserContext;

  await step(
    'the driver runs the tour on a phone while the shipper tracks it and both chat',
    async (t) => {
      driverContext = await context({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        timezoneId: ZONE,
        locale: 'en-US',
        permissions: ['geolocation'],
        geolocation: {
          latitude: pickup.latitude + 0.02,
          longitude: pickup.longitude + 0.02,
          accuracy: 10,
        },
      });
      driver = await openPage(driverContext);
      await signIn(driver.page, server.url, demo.driver2.email, demo.driver2.password);
      await driver.page.goto(`${server.url}/driver`);
      await driver.page
        .getByRole('heading', { name: `Load ${loadGuid}` })
        .waitFor({ timeout: 30_000 });
      tourId = (await driver.page.getByRole('link', { name: 'Map' }).getAttribute('href'))!
        .split('/')
        .at(-1)!;
      await journey.check(t, driver.page, 'driver-ready');

      await driver.page.getByRole('button', { name: 'Start the trip' }).click();
      await driver.page.getByRole('dialog').getByRole('button', { name: 'Start the trip' }).click();
      await driver.page
        .getByText('On: the truck shows live on the map.')
        .waitFor({ timeout: 30_000 });
      await journey.check(t, driver.page, 'driver-dispatched-sharing');

      // The shipper follows the truck.
      await shipper.page.goto(`${server.url}/track/tour/${tourId}`);
      const lastPosition = shipper.page.getByTestId('last-position');
      await shipper.page.getByText('Live', { exact: true }).waitFor({ timeout: 30_000 });
      await lastPosition.filter({ hasNotText: 'No position yet' }).waitFor({ timeout: 40_000 });
      const before = await lastPosition.textContent();
      await journey.check(t, shipper.page, 'shipper-track');

      // At the dock, then loaded and rolling.
      await driverContext.setGeolocation({
        latitude: pickup.latitude,
        longitude: pickup.longitude,
        accuracy: 10,
      });
      const pickUp = driver.page.getByRole('button', { name: 'Loaded, on the road' });
      await pickUp.waitFor({ timeout: 30_000 });
      await pickUp.click();
      await driver.page
        .getByRole('dialog')
        .getByRole('button', { name: 'Loaded, on the road' })
        .click();
      await driver.page
        .getByRole('button', { name: 'Unloaded, delivered' })
        .waitFor({ timeout: 30_000 });

      // On the road: the shipper's map moves with no reload.
      const onTheRoad = {
        latitude: (pickup.latitude + dropoff.latitude) / 2,
        longitude: (pickup.longitude + dropoff.longitude) / 2,
        accuracy: 10,
      };
      await driverContext.setGeolocation(onTheRoad);
      await lastPosition
        .filter({ hasText: onTheRoad.latitude.toFixed(4) })
        .waitFor({ timeout: 40_000 });
      t.not(await lastPosition.textContent(), before, "the truck moved on the shipper's map");
      await journey.check(t, shipper.page, 'shipper-track-moved');

      // The chat, one message each way, live.
      await shipper.page.goto(`${server.url}/chat/tour/${tourId}`);
      await driver.page.goto(`${server.url}/chat/tour/${tourId}`);
      await shipper.page.getByText('Live', { exact: true }).waitFor({ timeout: 30_000 });
      await driver.page.getByText('Live', { exact: true }).waitFor({ timeout: 30_000 });
      await shipper.page
        .getByRole('textbox', { name: 'Message' })
        .fill('Dock 4 is ready for you at Louisville.');
      await shipper.page.keyboard.press('Enter');
      await driver.page
        .getByText('Dock 4 is ready for you at Louisville.')
        .waitFor({ timeout: 30_000 });
      await driver.page
        .getByRole('textbox', { name: 'Message' })
        .fill('Thanks, about two hours out.');
      await driver.page.getByRole('button', { name: 'Send' }).click();
      await shipper.page.getByText('Thanks, about two hours out.').waitFor({ timeout: 30_000 });
      t.pass('a message went each way live');
      await journey.check(t, shipper.page, 'shipper-chat');
      await journey.check(t, driver.page, 'driver-chat');

      // At the receiver: unloaded.
      await driver.page.goto(`${server.url}/driver`);
      await driverContext.setGeolocation({
        latitude: dropoff.latitude,
        longitude: dropoff.longitude,
        accuracy: 10,
      });
      await driver.page.getByRole('button', { name: 'Unloaded, delivered' }).click();
      await driver.page
        .getByRole('dialog')
        .getByRole('button', { name: 'Unloaded, delivered' })
        .click();
      await driver.page
        .getByText('Delivered. Waiting for the shipper to confirm.')
        .waitFor({ timeout: 30_000 });
      await journey.check(t, driver.page, 'driver-delivered');
      t.same(driver.errors, [], 'no page errors on the phone');
    },
  );

  await step('the shipper confirms the delivery and both sides rate', async (t) => {
    await shipper.page.goto(`${server.url}/tours`);
    await rowAction(shipper.page, loadGuid, 'Confirm delivery');
    const confirm = shipper.page.getByRole('dialog');
    await confirm.getByRole('button', { name: 'Confirm delivery' }).click();
    await confirm.waitFor({ state: 'detached' });
    await rowWith(shipper.page, loadGuid)
      .first()
      .getByText('Delivered')
      .waitFor({ timeout: 30_000 });

    for (const [who, page] of [
      ['shipper', shipper.page],
      ['carrier', carrier.page],
    ] as const) {
      if (who === 'carrier') await page.goto(`${server.url}/tours`);
      await rowAction(page, loadGuid, 'Rate');
      const dialog = page.getByRole('dialog');
      const sliders = dialog.getByRole('slider');
      await sliders.first().waitFor();
      // Each criterion by keyboard: End is five stars, one Left takes half a star off.
      for (const slider of await sliders.all()) {
        await slider.focus();
        await page.keyboard.press('End');
        await page.keyboard.press('ArrowLeft');
      }
      await journey.check(t, page, `${who}-rating`);
      await dialog.getByRole('button', { name: 'Send the rating' }).click();
      await page.getByText('Thank you for your rating').waitFor({ timeout: 30_000 });
      t.pass(`the ${who} rated the tour`);
    }
    const token = await apiToken(server.url, demo.shipper.email, demo.shipper.password);
    const rating = await apiGet<{
      mine: Array<{ rating: number }> | null;
      theirs: Array<{ rating: number }> | null;
    }>(server.url, token, `/tours/rating/${tourId}`);
    t.ok(
      rating.mine?.every((entry) => entry.rating === 4.5),
      "the shipper's ratings are 4.5 stars",
    );
    t.ok(rating.theirs?.length, "the carrier's rating is recorded");
  });

  await step(
    'the load history shows the whole run; the slider shows the load before the acceptance',
    async (t) => {
      await shipper.page.goto(`${server.url}/loads/history/${loadId}`);
      await shipper.page
        .getByRole('heading', { name: new RegExp(`Load history · ${loadGuid}`) })
        .waitFor({ timeout: 30_000 });
      const events = shipper.page.locator('.history-event-button');
      await events.first().waitFor();
      const texts = (await events.allTextContents()).join('\n');
      for (const expected of [
        /posted/i,
        /offer/i,
        /counter/i,
        /accept/i,
        /contract/i,
        /driver|assign/i,
        /dispatch/i,
        /transit/i,
        /deliver/i,
        /rat/i,
        /message|chat/i,
      ]) {
        t.match(texts, expected, `the history tells ${expected}`);
      }
      await journey.check(t, shipper.page, 'history-latest');

      // The slider by keyboard: back to the last event before the acceptance.
      const all = await events.allTextContents();
      const accepted = all.findIndex((text) =>
        /offer accepted|accepted the offer|proposal accepted/i.test(text),
      );
      t.ok(accepted > 0, 'the acceptance is in the history');
      const slider = shipper.page.getByRole('slider', { name: "Moment in the load's history" });
      await slider.focus();
      await shipper.page.keyboard.press('Home');
      for (let step = 0; step < accepted - 1; step++)
        await shipper.page.keyboard.press('ArrowRight');
      const snapshot = shipper.page.getByTestId('history-snapshot');
      await shipper.page.getByText(`Event ${accepted} of ${all.length}`).waitFor();
      await snapshot
        .locator('.snapshot-facts')
        .first()
        .getByText('Created', { exact: true })
        .waitFor({ timeout: 30_000 });
      t.pass('before the acceptance the load was Created, open for offers');
      t.notOk(
        await snapshot.getByText('Accepted', { exact: true }).count(),
        'no offer was accepted yet',
      );
      await journey.check(t, shipper.page, 'history-before-acceptance');
      t.same(shipper.errors, [], 'no page errors for the shipper');
      t.same(carrier.errors, [], 'no page errors for the carrier');
    },
  );

  await step('the key screens of the journey are right to left in Arabic', async (t) => {
    const arabic = await context({ ...desktop, locale: 'ar' });
    await arabic.addInitScript(() => window.localStorage.setItem('language', 'ar'));
    const { page, errors } = await openPage(arabic);
    await signIn(page, server.url, demo.shipper.email, demo.shipper.password);
    for (const [name, path] of [
      ['ar-loads', '/loads/shipper'],
      ['ar-offers', `/offers/shipper/load?id=${loadId}`],
      ['ar-track', `/track/tour/${tourId}`],
      ['ar-chat', `/chat/tour/${tourId}`],
      ['ar-tours', '/tours'],
      ['ar-history', `/loads/history/${loadId}`],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      await page.locator('h1').first().waitFor();
      t.equal(
        await page.evaluate(() => document.documentElement.dir),
        'rtl',
        `${path} is right to left`,
      );
      t.equal(
        await page.evaluate(() => document.documentElement.lang),
        'ar',
        `${path} is in Arabic`,
      );
      await journey.check(t, page, name);
    }
    const phone = await context({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      locale: 'ar',
      timezoneId: ZONE,
    });
    await phone.addInitScript(() => window.localStorage.setItem('language', 'ar'));
    const driverPage = await openPage(phone);
    await signIn(driverPage.page, server.url, demo.driver2.email, demo.driver2.password);
    await driverPage.page.goto(`${server.url}/driver`);
    await driverPage.page.locator('h1').first().waitFor();
    t.equal(
      await driverPage.page.evaluate(() => document.documentElement.dir),
      'rtl',
      "the driver's phone page is right to left",
    );
    await journey.check(t, driverPage.page, 'ar-driver-phone');
    t.same([...errors, ...driverPage.errors], [], 'no page errors in Arabic');
  });

  journey.summary(t);
});
