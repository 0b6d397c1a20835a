/**
 * Book Now, in four browsers at once. The demo shipper posts a load with a Book Now price of
 * $2,750 through the load form. Two carriers search the marketplace filtered on Book Now only (a
 * load of the same shipper without a Book Now price stays out of that list): Desert Sun Logistics
 * sees the row arrive live with its badge and price, and Northern Star Transport offers $2,600 on
 * the same load, which the shipper's offers screen receives live: the load takes offers too. Blue
 * Ridge Freight, whose screen shows the load, confirms Book now a moment after Desert Sun (its
 * request reaches the server once Desert Sun's booking is through, as over a slower link): Desert
 * Sun books it in one action (the confirmation, then its tour), Blue Ridge is told 'This load has
 * already been booked' and the row leaves its list. The shipper sees the load Accepted, Desert
 * Sun's offer accepted at $2,750 ("Booked now at $2,750.00") and Northern Star's declined, which
 * Northern Star's open offer screen shows too.
 */
import type { BrowserContext, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { loadBody } from '../server/testing/loadBodies.ts';
import { apiGet, apiToken, demo, Journey, openPage, signIn, withBrowser } from './harness.ts';
import { postLoadByKeyboard, rowWith, toastSaying } from './steps.ts';

const ZONE = 'America/Chicago';
const DAY = 24 * 60 * 60 * 1000;
const tag = `Book ${Date.now().toString(36).toUpperCase()}`;
const commodity = `Paper rolls ${tag}`;
/** A load of the same shipper and tag without a Book Now price: the filter leaves it out. */
const plainCommodity = `Cardboard ${tag}`;
/** The shipper's tables show the reference, the carriers' the commodity. */
const reference = tag.replace(' ', '-');
const PRICE = '$2,750.00';
const OFFER = '$2,600.00';
const NO_MATCH = 'No open loads match';
const carrier3 = { email: 'carrier3@demo.freight.local', password: 'demo12345' };

async function call(url: string, method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${url}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? (JSON.parse(text) as unknown) : null;
}

await withBrowser(t, async (server, browser) => {
  const journey = new Journey('book-now');
  const desktop = { viewport: { width: 1440, height: 900 }, timezoneId: ZONE, locale: 'en-US' };
  const contexts: BrowserContext[] = [];
  const context = async () => {
    const created = await browser.newContext(desktop);
    contexts.push(created);
    return created;
  };
  const shipperToken = await apiToken(server.url, demo.shipper.email, demo.shipper.password);
  let plainId = '';
  /** What the journey changed goes back while its server runs: its load without a Book Now price (the booked one is a shipment now). */
  const cleanUp = (t: Test) =>
    t.test('the journey puts back what it changed', async (t) => {
      if (plainId) {
        const token = await apiToken(server.url, demo.shipper.email, demo.shipper.password);
        const canceled = await fetch(`${server.url}/api/loads/${plainId}/status`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ status: 7, message: 'End of the journey' }),
        });
        t.equal(canceled.status, 200, 'the load without a Book Now price canceled');
      }
      for (const each of contexts) await each.close().catch(() => undefined);
    });

  // Each step needs the one before: after a failure the rest are skipped, saying why.
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

  // Whatever happens, what the journey changed goes back while the server still runs.
  try {
    const shipper = await openPage(await context());
    /** Books the load. */
    const booker = await openPage(await context());
    /** Has the load open too and confirms a moment later. */
    const beaten = await openPage(await context());
    /** Makes an offer on the load. */
    const bidder = await openPage(await context());
    let loadId = '';
    let guid = '';

    /** The Book Now load's row on the shipper's loads (not the one whose reference ends in -P). */
    const bookedRow = (page: Page) =>
      page
        .getByRole('row')
        .filter({ hasText: new RegExp(`${reference}(?!-P)`) })
        .first();

    /** The marketplace narrowed to this journey's loads, Book Now only, live. */
    const searchBookNow = async (page: Page) => {
      await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
      await page.getByText(plainCommodity).first().waitFor({ timeout: 20_000 });
      await page.locator('label[for="search-book-now"]').click();
      await page.getByText(NO_MATCH).waitFor({ timeout: 20_000 });
      await page.locator('.live-indicator.is-live').waitFor({ timeout: 30_000 });
    };

    await step(
      'two carriers filter the marketplace on Book Now: a load without the price stays out',
      async (t) => {
        const posted = (await call(
          server.url,
          'POST',
          '/loads',
          shipperToken,
          loadBody({
            commodity: plainCommodity,
            refNumber: `${reference}-P`,
            expiration: new Date(Date.now() + 2 * DAY).toISOString(),
          }),
        )) as { id: string };
        plainId = posted.id;
        await Promise.all(
          (
            [
              [booker, demo.carrier2],
              [beaten, demo.carrier],
              [bidder, carrier3],
            ] as const
          ).map(async ([carrier, account]) => {
            await signIn(carrier.page, server.url, account.email, account.password);
            if (carrier !== bidder) await searchBookNow(carrier.page);
          }),
        );
        t.pass(
          'the load without a Book Now price is in the search, and out of it once filtered on Book Now',
        );
        await journey.check(t, booker.page, 'carrier-book-now-filter-empty');
      },
    );

    await step(
      'the shipper posts a load with a Book Now price through the load form',
      async (t) => {
        await signIn(shipper.page, server.url, demo.shipper.email, demo.shipper.password);
        const now = Date.now();
        await postLoadByKeyboard(shipper.page, server.url, {
          commodity,
          refNumber: reference,
          weight: '36000',
          timeZone: ZONE,
          pickupAt: new Date(now + 3 * DAY),
          dropoffAt: new Date(now + 5 * DAY),
          expiresAt: new Date(now + 2 * DAY),
          stops: [
            { place: 'Chicago', facility: `Lakeside mill ${tag}` },
            { place: 'Indianapolis', facility: 'Circle City cross-dock' },
            { place: 'Louisville', facility: 'Derby print works' },
          ],
          bookNowPrice: '2750',
        });
        const row = bookedRow(shipper.page);
        await row.waitFor({ timeout: 30_000 });
        t.match(await row.textContent(), `Book Now ${PRICE}`, "the shipper's row shows the price");
        await journey.check(t, shipper.page, 'shipper-loads-book-now');
        const table = await apiGet<{ data: { id: string; guid: string; bookNowPrice: number }[] }>(
          server.url,
          shipperToken,
          `/loads/shipper?page=1&pageSize=5&search=${encodeURIComponent(reference)}`,
        );
        const load = table.data.find((entry) => entry.bookNowPrice != null)!;
        t.equal(load.bookNowPrice, 2750, 'posted with its Book Now price');
        loadId = load.id;
        guid = load.guid;
      },
    );

    await step(
      'the carriers filtering on Book Now see it arrive with its badge and price',
      async (t) => {
        for (const carrier of [booker, beaten]) {
          const row = rowWith(carrier.page, commodity).first();
          await row.waitFor({ timeout: 30_000 });
          t.match(await row.textContent(), `Book Now ${PRICE}`, 'the badge shows the price');
          await row.getByRole('button', { name: `Book now ${guid} ${PRICE}` }).waitFor();
          t.equal(
            await rowWith(carrier.page, plainCommodity).count(),
            0,
            'the load without a Book Now price is still out',
          );
        }
        t.ok(await rowWith(booker.page, commodity).locator('.new-pill').isVisible(), 'marked New');
        await journey.check(t, booker.page, 'carrier-book-now-row');
      },
    );

    await step(
      'the load takes offers too: a carrier offers, the shipper sees it live',
      async (t) => {
        await bookedRow(shipper.page).getByRole('button', { name: 'Offers' }).first().click();
        await shipper.page.waitForURL(/\/offers\/shipper\/load/);
        await shipper.page.getByText('No offers yet').waitFor({ timeout: 20_000 });

        await bidder.page.goto(`${server.url}/offer/load?id=${loadId}`);
        const bookNowCard = bidder.page.locator('section.book-now-card');
        await bookNowCard.getByText(`Book Now ${PRICE}`).waitFor({ timeout: 20_000 });
        await bookNowCard.getByRole('button', { name: `Book now ${guid} ${PRICE}` }).waitFor();
        t.pass('the offer screen offers Book Now beside the offer form');
        await bidder.page.getByLabel('Price (USD)').fill('2600');
        await bidder.page.getByLabel('Message').fill('Flatbed free on Thursday.');
        await journey.check(t, bidder.page, 'carrier-offer-beside-book-now');
        await bidder.page.getByRole('button', { name: 'Send the offer' }).click();
        await bidder.page.getByRole('heading', { name: 'Your offer' }).waitFor({ timeout: 20_000 });

        const offerRow = rowWith(shipper.page, 'Northern Star Transport').first();
        await offerRow.waitFor({ timeout: 30_000 });
        t.match(await offerRow.textContent(), OFFER, "the shipper receives the offer's price live");
        await journey.check(t, shipper.page, 'shipper-offer-on-book-now-load');
      },
    );

    await step(
      'one carrier books it in one action; the other, a moment later, is told it is already booked',
      async (t) => {
        // The second carrier's confirmation reaches the server once the first's booking is through.
        let firstBooked!: () => void;
        const booked = new Promise<void>((resolve) => {
          firstBooked = resolve;
        });
        await beaten.page.route('**/api/loads/*/book', async (route) => {
          await booked;
          await route.continue();
        });
        const confirmIn = async (page: Page) => {
          await rowWith(page, commodity)
            .first()
            .getByRole('button', { name: `Book now ${guid} ${PRICE}` })
            .click();
          const dialog = page.getByRole('dialog', { name: `Book load ${guid}` });
          await dialog.waitFor();
          t.match(
            await dialog.textContent(),
            `Book this load at ${PRICE}?`,
            'the confirmation names the price',
          );
          return dialog;
        };
        const beatenDialog = await confirmIn(beaten.page);
        const bookerDialog = await confirmIn(booker.page);
        await journey.check(t, booker.page, 'carrier-book-now-confirm');
        await beatenDialog.getByRole('button', { name: 'Book it' }).click();
        await bookerDialog.getByRole('button', { name: 'Book it' }).click();

        await booker.page.waitForURL(/\/track\/tour\//, { timeout: 30_000 });
        firstBooked();
        await toastSaying(booker.page, `Load ${guid} booked at ${PRICE}`).waitFor({
          timeout: 15_000,
        });
        await booker.page
          .getByRole('heading', { name: new RegExp(`· ${guid}$`) })
          .waitFor({ timeout: 30_000 });
        await booker.page.getByText('Bid Accepted', { exact: true }).first().waitFor();
        t.pass(
          'the booking carrier lands on its tour (Bid Accepted), told the load is booked at the price',
        );
        await journey.check(t, booker.page, 'carrier-booked-tour');

        await toastSaying(beaten.page, 'This load has already been booked').waitFor({
          timeout: 30_000,
        });
        t.pass('the other carrier is told the load has already been booked');
        await beaten.page.getByText(NO_MATCH).waitFor({ timeout: 30_000 });
        t.equal(await rowWith(beaten.page, commodity).count(), 0, 'the load left its list');
        await journey.check(t, beaten.page, 'carrier-beaten-to-it');
      },
    );

    await step(
      'the shipper sees the load booked: the accepted offer at the posted price, the other declined',
      async (t) => {
        const accepted = rowWith(shipper.page, 'Desert Sun Logistics').first();
        await accepted.getByText('Accepted', { exact: true }).waitFor({ timeout: 30_000 });
        const text = (await accepted.textContent()) ?? '';
        t.match(text, PRICE, 'the accepted offer is at the posted price');
        t.match(text, 'Booked now at $2,750', 'and says it was booked now');
        await rowWith(shipper.page, 'Northern Star Transport')
          .first()
          .getByText('Declined', { exact: true })
          .waitFor({ timeout: 30_000 });
        t.pass('the other offer is declined');
        await journey.check(t, shipper.page, 'shipper-offers-booked');

        await shipper.page.goto(`${server.url}/loads/shipper`);
        const row = bookedRow(shipper.page);
        await row.getByText('Bid Accepted', { exact: true }).waitFor({ timeout: 30_000 });
        t.match(await row.textContent(), PRICE, 'the load is booked at its Book Now price');
        await journey.check(t, shipper.page, 'shipper-loads-booked');

        // The bidder's offer screen, open all along, shows its offer declined.
        await bidder.page
          .locator('.my-offer-card')
          .getByText('Declined', { exact: true })
          .waitFor({ timeout: 30_000 });
        t.pass("the bidder's open screen shows its offer declined");
        t.same(
          [...shipper.errors, ...booker.errors, ...beaten.errors, ...bidder.errors],
          [],
          'no page errors',
        );
      },
    );
  } finally {
    await cleanUp(t);
    journey.summary(t);
  }
});
