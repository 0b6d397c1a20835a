/**
 * Preferred and blocked carriers, in four browsers at once. The demo shipper marks Blue Ridge
 * Freight (carrier A) preferred and Desert Sun Logistics (carrier B) blocked in the Carriers tab of
 * its account settings, then posts a load through the load form for its preferred carriers only,
 * for the first 2 hours. Carrier A, searching the marketplace with a saved search on the lane, gets
 * the row live (marked New) and the lane alert at once; Northern Star Transport (carrier C, on
 * neither list) gets nothing: no row, not after a reload, and the load's id answers 404 in its
 * details. The server's clock is then moved past the window (e2e/serverClock.ts): the scheduler
 * opens the load to the marketplace and carrier C's open screen gets the row and the alert live.
 * Carrier B, blocked, never sees it: no row before or after, 404 by id, and no message of its
 * socket ever names the load.
 */
import type { BrowserContext, Page, WebSocket } from 'playwright-core';
import t, { type Test } from 'tap';
import { apiGet, apiToken, demo, Journey, openPage, signIn, withBrowser } from './harness.ts';
import { moveServerClock, removeServerClock, serverClockEnv } from './serverClock.ts';
import { postLoadByKeyboard, rowWith, toastSaying } from './steps.ts';

const ZONE = 'America/Chicago';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** The load is its shipper's preferred carriers' for this many hours. */
const WINDOW_HOURS = 2;
const tag = `Pref ${Date.now().toString(36).toUpperCase()}`;
const commodity = `Tart cherries ${tag}`;
/** The shipper's table shows the reference, the carriers' the commodity. */
const reference = tag.replace(' ', '-');
const searchName = `Chicago cherries ${tag}`;
const NO_MATCH = 'No open loads match';
const carrier3 = { email: 'carrier3@demo.freight.local', password: 'demo12345' };
const names = {
  a: 'Blue Ridge Freight LLC',
  b: 'Desert Sun Logistics',
  c: 'Northern Star Transport',
};
/** Chicago, the load's pickup: each carrier's saved search starts there. */
const CHICAGO = { latitude: 41.8781, longitude: -87.6298 };

const clockEnv = serverClockEnv();
t.teardown(() => removeServerClock(clockEnv));

type Lists = { preferred: string[]; blocked: string[] };

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

/** The server's own reading of the time: the issue time of a fresh access token. */
async function serverTime(url: string): Promise<number> {
  const token = await apiToken(url, carrier3.email, carrier3.password);
  const { iat } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
    iat: number;
  };
  return iat * 1000;
}

await withBrowser(
  t,
  async (server, browser) => {
    const journey = new Journey('preferred');
    const desktop = { viewport: { width: 1440, height: 900 }, timezoneId: ZONE, locale: 'en-US' };
    const contexts: BrowserContext[] = [];
    const context = async () => {
      const created = await browser.newContext(desktop);
      contexts.push(created);
      return created;
    };
    const shipperToken = await apiToken(server.url, demo.shipper.email, demo.shipper.password);
    const listsBefore = (await apiGet<Lists>(
      server.url,
      shipperToken,
      '/carriers/preferences',
    )) as Lists;
    const searches: { account: { email: string; password: string }; id: string }[] = [];
    let loadId = '';
    /** What the journey changed goes back while its server runs: the lists, the load, the saved searches. */
    const cleanUp = (t: Test) =>
      t.test('the journey puts back what it changed', async (t) => {
        const status = async (method: string, path: string, token: string, body?: unknown) =>
          (
            await fetch(`${server.url}/api${path}`, {
              method,
              headers: {
                authorization: `Bearer ${token}`,
                ...(body === undefined ? {} : { 'content-type': 'application/json' }),
              },
              body: body === undefined ? undefined : JSON.stringify(body),
            })
          ).status;
        const token = await apiToken(server.url, demo.shipper.email, demo.shipper.password);
        t.equal(
          await status('PUT', '/carriers/preferences', token, listsBefore),
          200,
          "the shipper's lists as they were",
        );
        if (loadId)
          t.equal(
            await status('PUT', `/loads/${loadId}/status`, token, {
              status: 7,
              message: 'End of the journey',
            }),
            200,
            'the load canceled',
          );
        for (const { account, id } of searches) {
          const owner = await apiToken(server.url, account.email, account.password);
          t.ok(
            (await status('DELETE', `/searches/${id}`, owner)) < 300,
            `${account.email}'s saved search removed`,
          );
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
      const carrierA = await openPage(await context());
      const carrierB = await openPage(await context());
      const carrierC = await openPage(await context());
      // Every message carrier B's sockets receive, to show that none ever names the load.
      const heardByB: string[] = [];
      carrierB.page.on('websocket', (socket: WebSocket) => {
        socket.on('framereceived', (frame) => heardByB.push(String(frame.payload)));
      });

      /** The Carriers tab of the shipper's account settings, its lists shown. */
      const carriersTab = async () => {
        await shipper.page.getByRole('button', { name: /^User menu of / }).click();
        await shipper.page.getByRole('menuitem', { name: 'My account' }).click();
        const dialog = shipper.page.getByRole('dialog');
        await dialog.getByRole('tab', { name: 'Carriers' }).click();
        const preferred = dialog.getByRole('group', { name: 'Preferred carriers' });
        const blocked = dialog.getByRole('group', { name: 'Blocked carriers' });
        await preferred.getByLabel(names.a).waitFor();
        return { dialog, preferred, blocked };
      };

      /** The marketplace narrowed to this journey's loads, live. */
      const searchMarketplace = async (page: Page) => {
        if (!new URL(page.url()).pathname.startsWith('/loads/carrier'))
          await page.goto(`${server.url}/loads/carrier`);
        await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
        await page.locator('.live-indicator.is-live').waitFor({ timeout: 30_000 });
      };
      /** The load's details (the offer screen) for a carrier that may not see it: the 404 and what the screen says. */
      const detailsRefused = async (t: Test, page: Page, who: string) => {
        const [answer] = await Promise.all([
          page.waitForResponse(
            (response) =>
              new URL(response.url()).pathname === `/api/loads/${loadId}` &&
              response.request().method() === 'GET',
          ),
          page.goto(`${server.url}/offer/load?id=${loadId}`),
        ]);
        t.equal(answer.status(), 404, `${who}: the load's id answers 404`);
        await page.getByText('Something went wrong!').waitFor();
        t.equal(
          await page.getByText(commodity).count(),
          0,
          `${who}: the details show nothing of the load`,
        );
      };

      await step(
        'the shipper marks carrier A preferred and carrier B blocked in the Carriers tab',
        async (t) => {
          await signIn(shipper.page, server.url, demo.shipper.email, demo.shipper.password);
          const { dialog, preferred, blocked } = await carriersTab();
          for (const name of Object.values(names)) {
            t.notOk(await preferred.getByLabel(name).isChecked(), `${name} is not preferred yet`);
            t.notOk(await blocked.getByLabel(name).isChecked(), `${name} is not blocked yet`);
          }
          await preferred.getByLabel(names.a).check();
          await blocked.getByLabel(names.b).check();
          t.ok(
            await blocked.getByLabel(names.a).isDisabled(),
            'a preferred carrier cannot be blocked too',
          );
          t.ok(
            await preferred.getByLabel(names.b).isDisabled(),
            'a blocked carrier cannot be preferred too',
          );
          await journey.check(t, shipper.page, 'shipper-carriers-tab');
          await dialog.getByRole('button', { name: 'Save changes' }).click();
          await toastSaying(shipper.page, 'Carrier lists saved').waitFor({ timeout: 15_000 });
          t.pass('the shipper is told the lists are saved');

          const choices = await apiGet<{ id: string; name: string }[]>(
            server.url,
            shipperToken,
            '/carriers/choices',
          );
          const idOf = (name: string) => choices.find((choice) => choice.name === name)?.id;
          t.same(
            await apiGet<Lists>(server.url, shipperToken, '/carriers/preferences'),
            { preferred: [idOf(names.a)], blocked: [idOf(names.b)] },
            'the server keeps A preferred and B blocked',
          );
          await shipper.page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'detached' });
        },
      );

      await step(
        'the three carriers search the marketplace, a saved search on the lane',
        async (t) => {
          // The three at once, as three people would.
          await Promise.all(
            (
              [
                ['A', carrierA, demo.carrier],
                ['B', carrierB, demo.carrier2],
                ['C', carrierC, carrier3],
              ] as const
            ).map(async ([who, carrier, account]) => {
              // A lane alert on loads leaving Chicago (saved as the search form's dialog saves it).
              const token = await apiToken(server.url, account.email, account.password);
              const saved = (await call(server.url, 'POST', '/searches', token, {
                name: searchName,
                origin: { ...CHICAGO, radius: 50 },
              })) as { id: string };
              searches.push({ account, id: saved.id });
              await signIn(carrier.page, server.url, account.email, account.password);
              await searchMarketplace(carrier.page);
              await carrier.page.getByText(NO_MATCH).waitFor({ timeout: 20_000 });
              t.pass(`carrier ${who} searches the marketplace: nothing of the journey yet`);
            }),
          );
          await journey.check(t, carrierA.page, 'carrier-a-marketplace-empty');
        },
      );

      await step(
        'the shipper posts a load for its preferred carriers only, for the first 2 hours',
        async (t) => {
          const now = Date.now();
          await postLoadByKeyboard(shipper.page, server.url, {
            commodity,
            refNumber: reference,
            weight: '41000',
            timeZone: ZONE,
            pickupAt: new Date(now + 3 * DAY),
            dropoffAt: new Date(now + 5 * DAY),
            expiresAt: new Date(now + 2 * DAY),
            stops: [
              { place: 'Chicago', facility: `Orchard dock ${tag}` },
              { place: 'Indianapolis', facility: 'Circle City cross-dock' },
              { place: 'Louisville', facility: 'Derby foods DC' },
            ],
            preferredOnlyHours: String(WINDOW_HOURS),
          });
          const row = rowWith(shipper.page, reference).first();
          await row.waitFor({ timeout: 30_000 });
          t.match(
            await row.textContent(),
            /Preferred only until /,
            "the shipper's row says until when only the preferred see it",
          );
          await journey.check(t, shipper.page, 'shipper-loads-preferred-only');
          const table = await apiGet<{ data: { id: string; audience: unknown }[] }>(
            server.url,
            shipperToken,
            `/loads/shipper?page=1&pageSize=5&search=${encodeURIComponent(reference)}`,
          );
          loadId = table.data[0]!.id;
          t.match(
            table.data[0]!.audience,
            { preferredOnlyHours: WINDOW_HOURS, opensAt: String },
            'the load is posted for the preferred carriers first',
          );
        },
      );

      await step('carrier A, preferred, gets the load and its lane alert at once', async (t) => {
        const row = rowWith(carrierA.page, commodity).first();
        await row.waitFor({ timeout: 30_000 });
        t.ok(await row.locator('.new-pill').isVisible(), 'the row arrives live, marked New');
        await toastSaying(carrierA.page, `Lane alert “${searchName}”`).waitFor({ timeout: 30_000 });
        t.pass("carrier A's lane alert names its saved search");
        await journey.check(t, carrierA.page, 'carrier-a-preferred-live');
      });

      await step(
        'carrier C (neither list) and carrier B (blocked) see nothing: no row, 404 by id',
        async (t) => {
          await Promise.all(
            (
              [
                ['carrier C', carrierC],
                ['carrier B', carrierB],
              ] as const
            ).map(async ([who, carrier]) => {
              t.equal(
                await rowWith(carrier.page, commodity).count(),
                0,
                `${who}: no row on the open screen`,
              );
              await carrier.page.reload();
              await searchMarketplace(carrier.page);
              await carrier.page.getByText(NO_MATCH).waitFor({ timeout: 20_000 });
              t.pass(`${who}: no row after a reload either`);
              await detailsRefused(t, carrier.page, who);
            }),
          );
          await journey.check(t, carrierC.page, 'carrier-c-details-404');
          // Back on the marketplace, searching, for when the load opens.
          for (const carrier of [carrierC, carrierB]) {
            await searchMarketplace(carrier.page);
            await carrier.page.getByText(NO_MATCH).waitFor({ timeout: 20_000 });
          }
        },
      );

      await step(
        'past the window the load opens: carrier C gets it live, carrier A keeps it',
        async (t) => {
          const offset = WINDOW_HOURS * HOUR + 60_000;
          await moveServerClock(server, clockEnv, offset, () => serverTime(server.url));
          t.comment(`the server's clock moved ${(offset / HOUR).toFixed(2)} h ahead`);
          // The scheduler's next pass (every 15 s) opens it; carrier C's screen is open, untouched.
          const row = rowWith(carrierC.page, commodity).first();
          await row.waitFor({ timeout: 45_000 });
          t.ok(await row.locator('.new-pill').isVisible(), 'it arrives on carrier C as a new load');
          await toastSaying(carrierC.page, `Lane alert “${searchName}”`).waitFor({
            timeout: 30_000,
          });
          t.pass("carrier C's lane alert names its saved search");
          await journey.check(t, carrierC.page, 'carrier-c-opened-live');
          t.equal(
            await rowWith(carrierA.page, commodity).count(),
            1,
            'carrier A still has it, once',
          );
          await shipper.page.reload();
          const shipperRow = rowWith(shipper.page, reference).first();
          await shipperRow.waitFor({ timeout: 30_000 });
          t.notMatch(
            await shipperRow.textContent(),
            /Preferred only until/,
            "the shipper's row no longer says preferred only",
          );
        },
      );

      await step('carrier B, blocked, never sees it, before or after the window', async (t) => {
        t.equal(await rowWith(carrierB.page, commodity).count(), 0, 'no row on its open screen');
        await carrierB.page.reload();
        await searchMarketplace(carrierB.page);
        await carrierB.page.getByText(NO_MATCH).waitFor({ timeout: 20_000 });
        t.pass('no row after a reload either');
        await journey.check(t, carrierB.page, 'carrier-b-blocked-after');
        await detailsRefused(t, carrierB.page, 'carrier B');
        t.equal(
          heardByB.filter((message) => message.includes(loadId) || message.includes(tag)).length,
          0,
          `none of the ${heardByB.length} messages its sockets received names the load`,
        );
        t.ok(heardByB.length > 0, "carrier B's sockets were listening all along");
        t.same(
          [...shipper.errors, ...carrierA.errors, ...carrierB.errors, ...carrierC.errors],
          [],
          'no page errors',
        );
      });

      await step('the shipper unticks both carriers in the Carriers tab and saves', async (t) => {
        const { dialog, preferred, blocked } = await carriersTab();
        t.ok(await preferred.getByLabel(names.a).isChecked(), 'carrier A is preferred');
        t.ok(await blocked.getByLabel(names.b).isChecked(), 'carrier B is blocked');
        await preferred.getByLabel(names.a).uncheck();
        await blocked.getByLabel(names.b).uncheck();
        await dialog.getByRole('button', { name: 'Save changes' }).click();
        await toastSaying(shipper.page, 'Carrier lists saved').waitFor({ timeout: 15_000 });
        t.pass('the shipper is told the lists are saved');
        t.same(
          await apiGet<Lists>(
            server.url,
            await apiToken(server.url, demo.shipper.email, demo.shipper.password),
            '/carriers/preferences',
          ),
          { preferred: [], blocked: [] },
          'both lists are empty again',
        );
        await journey.check(t, shipper.page, 'shipper-carriers-cleared');
      });
    } finally {
      await cleanUp(t);
      journey.summary(t);
    }
  },
  clockEnv,
);
