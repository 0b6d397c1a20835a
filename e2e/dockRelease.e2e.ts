/**
 * Who comes to the dock. The demo shipper makes a dock link for its dispatched truck (pickup within
 * the hour, tractor NS-318) from the tracking screen; a signed-out phone at the dock opens it, sees
 * the carrier, the driver's first name and the truck, and enters the code the driver's phone shows:
 * Released. Then the carrier (Northern Star Transport) connects its Motive ELD through the API, a
 * local server speaking Motive's vehicle-locations API that puts truck NS-318 about 200 miles from
 * the pickup; the server's ELD poller follows the truck by the tractor number of the assignment. A
 * second link shows the ELD distance before any code is typed, and a wrong code holds the pickup
 * with both reasons (the code, the truck far away). Both dispatchers, the shipper's on its tracking
 * screen and the carrier's on its own, see the hold as an alert within 2 s of its recording (the
 * server's answer to the dock; the delays from the click are printed too). The held link reads right to left in Arabic, and the load's history
 * lists the release and the hold with its reasons.
 */
import t from 'tap';
import { distanceMiles } from '../domain/tours/geo.ts';
import { startFakeMotive } from '../server/integrations/eld/testing/fakeMotive.ts';
import { apiGet, apiToken, demo, Journey, openPage, signIn, withBrowser } from './harness.ts';

const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
};
/** The driver of the demo's dispatched shipment (PO-77115), whose pickup is half an hour out. */
const DOCK_DRIVER = { email: 'carrier3.driver1@demo.freight.local', password: 'demo12345' };
/** The dispatcher of its carrier, Northern Star Transport. */
const CARRIER_DISPATCHER = { email: 'carrier3@demo.freight.local', password: 'demo12345' };
/** An alert a dispatcher must see this soon after the hold is recorded (the server's answer to the dock). */
const ALERT_MS = 2_000;

/** The pickup of PO-77115 (Prairie Foods Chicago DC), and the booked truck 2.9 degrees south of it. */
const PICKUP = { latitude: 41.8117, longitude: -87.724 };
const FAR_AWAY = { latitude: PICKUP.latitude - 2.9, longitude: PICKUP.longitude };
const FAR_MILES = Math.round(distanceMiles(FAR_AWAY, PICKUP) * 10) / 10;
const MOTIVE_KEY = 'motive-key-northern-star';
// The carrier's Motive fleet, as Motive's API answers it, on a loopback port; the journey's server
// is pointed at it (MOTIVE_BASE_URL) and polls it every second (ELD_POLL_MS).
const motive = await startFakeMotive({
  apiKey: MOTIVE_KEY,
  vehicles: [{ id: '318', name: 'NS-318', ...FAR_AWAY, heading: 180, speed: 58 }],
});
t.teardown(() => motive.close());

/** A call behind the screens, as the product's own clients make it; throws unless it succeeds. */
async function apiSend<T>(url: string, token: string, method: string, path: string, body: unknown) {
  const response = await fetch(`${url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

await withBrowser(
  t,
  async (server, browser) => {
    const journey = new Journey('dock-release');
    t.teardown(() => journey.summary(t));

    await t.test(
      'the dock releases the right driver and holds a wrong code; the history says so',
      async (t) => {
        const shipperToken = await apiToken(server.url, demo.shipper.email, demo.shipper.password);
        const tours = await apiGet<{
          data: { id: string; loadId: string; loadGuid: string; statusName: string }[];
        }>(server.url, shipperToken, '/tours?pageSize=50');
        const dispatched = tours.data.find((row) => row.statusName === 'Dispatched');
        t.ok(dispatched, 'the demo shipper has a dispatched tour, its pickup within the hour');
        const { id: tourId, loadId } = dispatched!;

        const office = await browser.newContext({
          viewport: { width: 1366, height: 900 },
          locale: 'en-US',
          timezoneId: 'America/Chicago',
        });
        t.teardown(() => office.close().catch(() => undefined));
        const { page: shipper, errors: shipperErrors } = await openPage(office);
        await signIn(shipper, server.url, demo.shipper.email, demo.shipper.password);
        await shipper.goto(`${server.url}/track/tour/${tourId}`);
        await shipper.getByRole('button', { name: 'Dock link' }).click();
        const dialog = shipper.getByRole('dialog', { name: 'Dock link for the pickup' });
        await dialog.waitFor();
        await dialog
          .getByLabel("Send to the dock's e-mail (optional)")
          .fill('dock@shipper.example');
        await dialog.getByRole('button', { name: 'Make a dock link' }).click();
        const links = dialog.getByRole('textbox', { name: 'Dock link' });
        await links.first().waitFor();
        const link = await links.first().inputValue();
        t.match(
          link,
          new RegExp(`^${server.url}/dock/[A-Za-z0-9_-]{43}$`),
          'a link to the dock page',
        );
        await dialog.getByText('Sent to dock@shipper.example').waitFor();
        await journey.check(t, shipper, 'dock-link-dialog');

        // The driver's phone shows the code, big, with its countdown.
        const driverPhone = await browser.newContext({ ...PHONE, locale: 'en-US' });
        t.teardown(() => driverPhone.close().catch(() => undefined));
        const { page: driver } = await openPage(driverPhone);
        await signIn(driver, server.url, DOCK_DRIVER.email, DOCK_DRIVER.password);
        await driver.goto(`${server.url}/driver`);
        await driver.getByRole('heading', { name: 'Release code' }).waitFor({ timeout: 30_000 });
        t.match(
          await driver.getByTestId('release-code').textContent(),
          /^\d{6}$/,
          'the driver sees a 6-digit code',
        );
        await journey.check(t, driver, 'driver-release-code');

        // The dock: a phone, nobody signed in.
        const dockPhone = await browser.newContext({
          ...PHONE,
          locale: 'en-US',
          timezoneId: 'America/Chicago',
        });
        t.teardown(() => dockPhone.close().catch(() => undefined));
        const { page: dock, errors: dockErrors } = await openPage(dockPhone);
        await dock.goto(link);
        await dock.getByRole('heading', { name: /Pickup release/ }).waitFor({ timeout: 30_000 });
        await dock.getByText('NS-318').waitFor();
        t.ok(await dock.getByText('TR-5521').count(), 'the trailer the carrier named');
        await journey.check(t, dock, 'phone-dock-page');

        const driverToken = await apiToken(server.url, DOCK_DRIVER.email, DOCK_DRIVER.password);
        const { code } = await apiGet<{ code: string }>(
          server.url,
          driverToken,
          `/tours/${tourId}/release-code`,
        );
        await dock.getByLabel(/Release code/).fill(code);
        await dock.getByLabel(/Tractor number you see/).fill('NS-318');
        await dock.getByRole('button', { name: 'Check and release' }).click();
        await dock.getByRole('heading', { name: 'Released' }).waitFor({ timeout: 15_000 });
        t.pass('the right code releases the pickup');
        await journey.check(t, dock, 'phone-released');

        // The carrier connects its Motive ELD; the poller finds truck NS-318 about 200 miles out.
        const carrierToken = await apiToken(
          server.url,
          CARRIER_DISPATCHER.email,
          CARRIER_DISPATCHER.password,
        );
        const installed = await apiSend<{ id: string; status: string | null }>(
          server.url,
          carrierToken,
          'POST',
          '/organization-services',
          { serviceId: 'motive', clientSecret: MOTIVE_KEY },
        );
        t.match(installed, { id: 'motive', status: 'Installed' }, 'the carrier installed Motive');
        t.ok(
          motive.requests.some((request) => request.headers['x-api-key'] === MOTIVE_KEY),
          "the key was checked with Motive's API",
        );

        // A second link: the dock sees where the ELD puts the truck before any code is typed.
        await dialog.getByRole('button', { name: 'Make a dock link' }).click();
        await links.nth(1).waitFor();
        const second = await links.first().inputValue();
        t.not(second, link, 'a new link');
        const distance = `${FAR_MILES.toLocaleString('en-US', { maximumFractionDigits: 1 })} mi from the pickup`;
        // The poller asks Motive every second: the page shows the distance once a pass has run.
        const deadline = Date.now() + 30_000;
        for (;;) {
          await dock.goto(second);
          await dock.getByRole('heading', { name: /Pickup release/ }).waitFor({ timeout: 30_000 });
          if ((await dock.getByText(distance).count()) || Date.now() > deadline) break;
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
        t.ok(FAR_MILES > 190 && FAR_MILES < 210, `the truck is ${FAR_MILES} miles out`);
        t.ok(
          await dock.getByText(distance).count(),
          `the dock page shows the ELD distance: ${distance}`,
        );
        await journey.check(t, dock, 'phone-dock-eld-far');

        // Both dispatchers keep a page of the product open: the shipper its tracking screen, the
        // carrier the same tour's.
        await shipper.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
        const carrierOffice = await browser.newContext({
          viewport: { width: 1366, height: 900 },
          locale: 'en-US',
          timezoneId: 'America/New_York',
        });
        t.teardown(() => carrierOffice.close().catch(() => undefined));
        const { page: carrier, errors: carrierErrors } = await openPage(carrierOffice);
        await signIn(carrier, server.url, CARRIER_DISPATCHER.email, CARRIER_DISPATCHER.password);
        await carrier.goto(`${server.url}/track/tour/${tourId}`);
        await carrier.getByRole('heading', { name: /Track the tour/ }).waitFor({ timeout: 30_000 });
        // Both pages' realtime connections are up (the tracking screen says Live) before the dock clicks.
        for (const page of [shipper, carrier])
          await page.getByText('Live', { exact: true }).waitFor({ timeout: 15_000 });

        // A wrong code, with the truck far away.
        await dock.getByLabel(/Release code/).fill(code === '000000' ? '111111' : '000000');
        const alertOf = (page: typeof shipper) =>
          page
            .locator('.p-toast-message')
            .filter({ hasText: 'Pickup held at the dock for load' })
            .first();
        // The hold is recorded when the server answers the dock; each alert is timed from then (and,
        // printed beside it, from the click: on a loaded machine most of that is the answer itself).
        const clickedAt = Date.now();
        const answered = dock
          .waitForResponse((response) => /\/api\/dock\/[^/]+\/release$/.test(response.url()))
          .then(() => Date.now());
        const seen = (page: typeof shipper) =>
          alertOf(page)
            .waitFor({ timeout: 15_000 })
            .then(() => Date.now());
        const [, shipperSaw, carrierSaw, heldShown, answeredAt] = await Promise.all([
          dock.getByRole('button', { name: 'Check and release' }).click(),
          seen(shipper),
          seen(carrier),
          dock
            .getByRole('heading', { name: 'Held' })
            .waitFor({ timeout: 15_000 })
            .then(() => Date.now()),
          answered,
        ]);
        const shipperDelay = Math.max(0, shipperSaw - answeredAt);
        const carrierDelay = Math.max(0, carrierSaw - answeredAt);
        t.comment(
          `the dock's answer (hold recorded) ${answeredAt - clickedAt} ms after the click, Held shown at ${heldShown - clickedAt} ms`,
        );
        t.comment(
          `hold alert: shipper's dispatcher ${shipperDelay} ms after the hold was recorded (${shipperSaw - clickedAt} ms after the click)`,
        );
        t.comment(
          `hold alert: carrier's dispatcher ${carrierDelay} ms after the hold was recorded (${carrierSaw - clickedAt} ms after the click)`,
        );
        t.ok(
          shipperDelay < ALERT_MS,
          `the shipper's dispatcher sees the alert ${shipperDelay} ms after the hold`,
        );
        t.ok(
          carrierDelay < ALERT_MS,
          `the carrier's dispatcher sees the alert ${carrierDelay} ms after the hold`,
        );
        for (const page of [shipper, carrier]) {
          const alert = await alertOf(page).textContent();
          t.match(alert, /The code is not the assigned driver's current code/, 'the code reason');
          t.match(
            alert,
            /The truck's ELD puts it more than 5 miles from the pickup/,
            'the ELD reason',
          );
        }
        await journey.check(t, shipper, 'shipper-hold-alert');
        await journey.check(t, carrier, 'carrier-hold-alert');

        await dock.getByRole('heading', { name: 'Held' }).waitFor({ timeout: 15_000 });
        await dock.getByText("The code is not the assigned driver's current code").waitFor();
        await dock.getByText("The truck's ELD puts it more than 5 miles from the pickup").waitFor();
        t.pass('a wrong code with the truck far away holds the pickup, with both reasons');
        await journey.check(t, dock, 'phone-held');

        // The same held link in Arabic: right to left.
        const arabic = await browser.newContext({ ...PHONE, locale: 'ar' });
        t.teardown(() => arabic.close().catch(() => undefined));
        await arabic.addInitScript(() => window.localStorage.setItem('language', 'ar'));
        const { page: arabicPage } = await openPage(arabic);
        await arabicPage.goto(second);
        await arabicPage.getByRole('heading', { name: 'موقوف' }).waitFor({ timeout: 30_000 });
        t.equal(
          await arabicPage.evaluate(() => document.documentElement.dir),
          'rtl',
          'Arabic reads right to left',
        );
        await journey.check(t, arabicPage, 'phone-held-arabic');

        // The load's history lists both outcomes.
        await shipper.goto(`${server.url}/loads/history/${loadId}`);
        await shipper
          .getByText('Pickup released at the dock (code verified)')
          .first()
          .waitFor({ timeout: 30_000 });
        await shipper
          .getByText(
            /Pickup held at the dock: The code is not the assigned driver's current code; The truck's ELD puts it more than 5 miles from the pickup/,
          )
          .first()
          .waitFor();
        t.pass('the history lists the release and the hold, with its far-away reason');
        await journey.check(t, shipper, 'load-history');

        t.same(shipperErrors, [], 'no page error for the shipper');
        t.same(dockErrors, [], 'no page error at the dock');
        t.same(carrierErrors, [], "no page error for the carrier's dispatcher");
      },
    );
  },
  { MOTIVE_BASE_URL: motive.url, ELD_POLL_MS: '1000' },
);
