/**
 * Who comes to the dock. The demo shipper makes a dock link for its dispatched truck (pickup within
 * the hour) from the tracking screen; a signed-out phone at the dock opens it, sees the carrier, the
 * driver's first name and the truck, and enters the code the driver's phone shows: Released. A
 * second link with a wrong code: Held, with the reason, also right to left in Arabic. The load's
 * history lists both outcomes as readable lines.
 */
import t from 'tap';
import { apiGet, apiToken, demo, Journey, openPage, signIn, withBrowser } from './harness.ts';

const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
};
/** The driver of the demo's dispatched shipment (PO-77115), whose pickup is half an hour out. */
const DOCK_DRIVER = { email: 'carrier3.driver1@demo.freight.local', password: 'demo12345' };

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

        // A second link, and a wrong code.
        await dialog.getByRole('button', { name: 'Make a dock link' }).click();
        await links.nth(1).waitFor();
        const second = await links.first().inputValue();
        t.not(second, link, 'a new link');
        await dock.goto(second);
        await dock.getByRole('heading', { name: /Pickup release/ }).waitFor({ timeout: 30_000 });
        await dock.getByLabel(/Release code/).fill(code === '000000' ? '111111' : '000000');
        await dock.getByRole('button', { name: 'Check and release' }).click();
        await dock.getByRole('heading', { name: 'Held' }).waitFor({ timeout: 15_000 });
        await dock.getByText("The code is not the assigned driver's current code").waitFor();
        t.pass('a wrong code holds the pickup, with the reason');
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
        await shipper.keyboard.press('Escape');
        await shipper.goto(`${server.url}/loads/history/${loadId}`);
        await shipper
          .getByText('Pickup released at the dock (code verified)')
          .first()
          .waitFor({ timeout: 30_000 });
        await shipper
          .getByText(/Pickup held at the dock: The code is not/)
          .first()
          .waitFor();
        t.pass('the history lists the release and the hold');
        await journey.check(t, shipper, 'load-history');

        t.same(shipperErrors, [], 'no page error for the shipper');
        t.same(dockErrors, [], 'no page error at the dock');
      },
    );
  },
  {},
);
