/**
 * Tracking shared with a receiver. The demo shipper opens the tracking map of its truck on the road,
 * shares it (a one-day link), and copies the link; a signed-out phone opens it and sees the map, the
 * stops and the ETA, and the truck moves when the driver sends a position; the same page reads right
 * to left in Arabic. The shipper ends the link and the phone page says so at once.
 */
import { join } from 'node:path';
import t from 'tap';
import {
  apiGet,
  apiToken,
  demo,
  Journey,
  openPage,
  SHOTS,
  signIn,
  withBrowser,
} from './harness.ts';

const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
};

await withBrowser(
  t,
  async (server, browser) => {
    const journey = new Journey('shared-tracking');
    t.teardown(() => journey.summary(t));

    await t.test(
      'a shared link shows the moving truck on a phone, without signing in, until the shipper ends it',
      async (t) => {
        const shipperToken = await apiToken(server.url, demo.shipper.email, demo.shipper.password);
        const tours = await apiGet<{ data: { id: string; statusName: string }[] }>(
          server.url,
          shipperToken,
          '/tours?pageSize=50',
        );
        const onTheRoad = tours.data.find((row) => row.statusName === 'In Transit');
        t.ok(onTheRoad, 'the demo shipper has a tour in transit');
        const tourId = onTheRoad!.id;

        const office = await browser.newContext({
          viewport: { width: 1366, height: 900 },
          locale: 'en-US',
          timezoneId: 'America/Chicago',
          colorScheme: 'dark',
        });
        t.teardown(() => office.close().catch(() => undefined));
        const { page: shipper, errors: shipperErrors } = await openPage(office);
        await signIn(shipper, server.url, demo.shipper.email, demo.shipper.password);
        await shipper.goto(`${server.url}/track/tour/${tourId}`);
        await shipper.locator('.live-badge.is-live').waitFor({ timeout: 30_000 });
        await shipper.getByRole('button', { name: 'Share' }).click();
        const dialog = shipper.getByRole('dialog', { name: 'Share the tracking' });
        await dialog.waitFor();
        await dialog.getByLabel('Also send it to (optional)').fill('dock@receiver.example');
        await dialog.getByRole('button', { name: 'Create link' }).click();
        const linkField = dialog.getByRole('textbox', { name: 'Tracking link' });
        await linkField.waitFor();
        const link = await linkField.inputValue();
        t.match(
          link,
          new RegExp(`^${server.url}/shared/track/[A-Za-z0-9_-]{43}$`),
          'a link to the shared page',
        );
        await t.resolves(dialog.getByText(/Works until/).waitFor(), 'says until when it works');
        await t.resolves(
          dialog.getByText('Sent to dock@receiver.example').waitFor(),
          'and that it went to the receiver by e-mail',
        );
        await journey.check(t, shipper, 'share-dialog');

        // The receiver: a phone, nobody signed in.
        const phone = await browser.newContext({
          ...PHONE,
          locale: 'en-US',
          timezoneId: 'America/New_York',
          colorScheme: 'dark',
        });
        t.teardown(() => phone.close().catch(() => undefined));
        const { page: receiver, errors: receiverErrors } = await openPage(phone);
        await receiver.goto(link);
        await receiver.locator('.live-badge.is-live').waitFor({ timeout: 30_000 });
        await receiver.getByRole('heading', { name: /Shipment tracking/ }).waitFor();
        await receiver.getByText('Pickup').first().waitFor();
        t.notOk(await receiver.getByText(/\$\d/).count(), 'no price on the page');
        t.notOk(
          await receiver.getByRole('link', { name: /Sign out|Chat/ }).count(),
          'no chat and no account',
        );
        const stopsText = await receiver.locator('.shared-stops').textContent();
        t.match(stopsText, /Scheduled/, 'the stops with their times');
        await journey.check(t, receiver, 'phone-shared-page');

        // The driver sends a position (dated after the demo's own): the phone's truck moves.
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
        await receiver
          .getByTestId('last-position')
          .filter({ hasText: '38.6271, -90.1979' })
          .waitFor({ timeout: 15_000 });
        t.pass('the phone shows the new position, live');
        await receiver.waitForTimeout(1_000);
        await journey.check(t, receiver, 'phone-truck-moved');
        await receiver.screenshot({
          path: join(SHOTS, 'shared-tracking', 'phone-whole-page.png'),
          fullPage: true,
        });

        // The same link in Arabic: right to left.
        const arabic = await browser.newContext({
          ...PHONE,
          locale: 'ar',
          timezoneId: 'Asia/Dubai',
          colorScheme: 'dark',
        });
        t.teardown(() => arabic.close().catch(() => undefined));
        await arabic.addInitScript(() => window.localStorage.setItem('language', 'ar'));
        const { page: arabicPage, errors: arabicErrors } = await openPage(arabic);
        await arabicPage.goto(link);
        await arabicPage.getByRole('heading', { name: /تتبع الشحنة/ }).waitFor({ timeout: 30_000 });
        t.equal(
          await arabicPage.evaluate(() => document.documentElement.dir),
          'rtl',
          'Arabic reads right to left',
        );
        await arabicPage.locator('.live-badge.is-live').waitFor({ timeout: 30_000 });
        await journey.check(t, arabicPage, 'phone-arabic');

        // The shipper closes the dialog and opens it again later: the link is still listed, and it ends it; the phone says so at once.
        await shipper.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        await shipper.getByRole('button', { name: 'Share' }).click();
        t.equal(
          await linkField.inputValue(),
          link,
          'the link is still listed when the dialog opens again',
        );
        await dialog.getByRole('button', { name: 'End link' }).click();
        await linkField.waitFor({ state: 'detached' });
        await receiver
          .getByRole('heading', { name: 'This link has ended' })
          .waitFor({ timeout: 10_000 });
        t.pass('the phone page says the link ended');
        await arabicPage
          .getByRole('heading', { name: 'انتهى هذا الرابط' })
          .waitFor({ timeout: 10_000 });
        await journey.check(t, receiver, 'phone-link-ended');
        const again = await fetch(`${server.url}/api/shared/track/${link.split('/').pop()}`);
        t.equal(again.status, 404, 'the link answers 404 from now on');

        t.same(shipperErrors, [], 'no page error for the shipper');
        t.same(
          receiverErrors.filter((text) => !/404/.test(text)),
          [],
          'no page error on the phone',
        );
        t.same(
          arabicErrors.filter((text) => !/404/.test(text)),
          [],
          'no page error in Arabic',
        );
      },
    );
  },
  {},
);
