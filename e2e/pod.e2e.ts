/**
 * Proof of delivery on a phone. The demo driver's truck reaches the last stop (a position there);
 * on the driver's page (390x844) the "Proof of delivery" card takes a photo (set on the file input),
 * a signature drawn with the mouse on the canvas, who received the goods and a note. The phone goes
 * offline, the proof is kept ("Waiting for network"), and once online again it is sent ("Sent").
 * The shipper then signs in and sees the proof on the tour's tracking page (a thumbnail that
 * enlarges) and in the load's history; the driver's card reads right to left in Arabic; and the
 * shipper confirms the delivery from its loads table with the proof beside the button.
 */
import { join } from 'node:path';
import { pngImage } from '../server/integrations/pdf/testing.ts';
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
import { rowAction, rowWith } from './steps.ts';

const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
};

/** A real 640x480 PNG: a sky over pallets of boxes, so the thumbnails show something to look at. */
const photoPng = () =>
  Buffer.from(
    pngImage(640, 480, (x, y) => {
      const box = y > 240 && Math.floor(x / 120) % 2 === 0 && x % 120 > 10 && (y - 240) % 80 > 8;
      return y < 240 ? [120 + y / 4, 170 + y / 6, 235] : box ? [196, 148, 92] : [90, 90, 96];
    }),
  );

type Stop = { latitude: number; longitude: number; arrived: boolean };

await withBrowser(t, async (server, browser) => {
  const journey = new Journey('pod');
  t.teardown(() => journey.summary(t));

  await t.test(
    'the driver sends a proof from the last stop through a dead zone; the shipper sees it',
    async (t) => {
      const driverToken = await apiToken(server.url, demo.driver.email, demo.driver.password);
      const assigned = await apiGet<{
        data: { id: string; loadId: string; loadGuid: string; status: number }[];
      }>(server.url, driverToken, '/tours/assigned?page=1&pageSize=25');
      const tour = assigned.data.find((row) => row.status === 9);
      t.ok(tour, 'the demo driver has a tour in transit');
      const track = await apiGet<{ stops: Stop[] }>(
        server.url,
        driverToken,
        `/tours/track/${tour!.id}`,
      );
      const last = track.stops.at(-1)!;
      t.notOk(last.arrived, 'not at the last stop yet');
      // The truck at the last stop (dated after the demo's own positions): the geofence records the arrival.
      const position = {
        latitude: last.latitude,
        longitude: last.longitude,
        speed: 0,
        heading: 0,
        recordedAt: new Date(Date.now() + 60_000).toISOString(),
      };
      const sent = await fetch(`${server.url}/api/tours/${tour!.id}/positions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${driverToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(position),
      });
      t.equal(sent.status, 202, 'a position at the last stop');

      const phone = await browser.newContext({
        ...PHONE,
        locale: 'en-US',
        timezoneId: 'America/Chicago',
      });
      t.teardown(() => phone.close().catch(() => undefined));
      const { page: driver, errors: driverErrors } = await openPage(phone);
      await signIn(driver, server.url, demo.driver.email, demo.driver.password);
      await driver.goto(`${server.url}/driver`);
      const card = driver.locator('section.pod-card');
      await card.getByRole('heading', { name: 'Proof of delivery' }).waitFor({ timeout: 30_000 });
      t.pass('the Proof of delivery card shows at the last stop');
      // The footer (fixed by default) closes the page on a phone instead of covering its bottom.
      const footer = await driver.locator('.app-footer').evaluate((element) => ({
        position: getComputedStyle(element).position,
        top: element.getBoundingClientRect().top,
      }));
      t.equal(footer.position, 'static', 'no sticky footer on a phone');
      t.ok(
        footer.top > 844,
        `the footer is below the first screen (at ${Math.round(footer.top)} px)`,
      );

      // A photo, as the camera would give it, made smaller on the phone.
      await card
        .locator('input[type=file]')
        .setInputFiles({ name: 'pallets.png', mimeType: 'image/png', buffer: photoPng() });
      await card.getByRole('img', { name: 'Photo 1' }).waitFor();
      t.pass('the photo is shown before it is sent');

      // The receiver signs with a finger (the mouse here): a stroke across the canvas.
      const canvas = card.locator('canvas.signature-canvas');
      await canvas.scrollIntoViewIfNeeded();
      const box = (await canvas.boundingBox())!;
      await driver.mouse.move(box.x + 20, box.y + box.height * 0.7);
      await driver.mouse.down();
      for (let step = 1; step <= 24; step++) {
        await driver.mouse.move(
          box.x + 20 + step * ((box.width - 40) / 24),
          box.y + box.height * (0.5 + 0.25 * Math.sin(step / 2.5)),
          { steps: 2 },
        );
      }
      await driver.mouse.up();
      await card.getByText('Signed', { exact: true }).waitFor();
      t.ok(
        await card.getByRole('button', { name: 'Clear' }).isEnabled(),
        'the signature can be cleared',
      );

      await card.getByLabel('Received by').fill('Rita Receiver');
      await card.getByLabel('Note (optional)').fill('18 pallets, seal 448120 intact');
      await journey.check(t, driver, 'driver-pod-card');

      // A dead zone: the proof waits on the phone.
      await phone.setOffline(true);
      await card.getByRole('button', { name: 'Send the proof of delivery' }).click();
      const status = card.getByRole('status');
      await status.filter({ hasText: 'Waiting for network' }).waitFor({ timeout: 15_000 });
      t.pass('offline: Waiting for network');
      t.equal(
        await card.getByLabel('Received by').inputValue(),
        '',
        'the form is cleared for the next one',
      );
      const pending = await fetch(`${server.url}/api/tours/${tour!.id}/pod`, {
        headers: { authorization: `Bearer ${driverToken}` },
      }).then((response) => response.json());
      t.same(pending, [], 'nothing reached the server yet');
      const centre = (locator: typeof status) =>
        locator.first().evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await centre(status);
      await driver.screenshot({ path: join(SHOTS, 'pod', 'driver-card-waiting.png') });

      await phone.setOffline(false);
      await status.filter({ hasText: 'Sent' }).waitFor({ timeout: 30_000 });
      t.pass('back online: Sent');
      const proofs = await apiGet<
        { receivedBy: string; note: string; files: { kind: string }[] }[]
      >(server.url, driverToken, `/tours/${tour!.id}/pod`);
      t.equal(proofs.length, 1, 'one proof on the server');
      t.match(proofs[0], { receivedBy: 'Rita Receiver', note: '18 pallets, seal 448120 intact' });
      t.same(
        proofs[0]!.files.map((file) => file.kind).sort(),
        ['photo', 'signature'],
        'the photo and the signature',
      );
      await card.getByText(/Received by Rita Receiver/).waitFor({ timeout: 15_000 });
      await driver.waitForTimeout(500);
      await centre(card.locator('.pod-view'));
      await journey.check(t, driver, 'driver-pod-sent');
      await driver.screenshot({ path: join(SHOTS, 'pod', 'driver-page-sent.png'), fullPage: true });
      t.same(driverErrors, [], 'no errors on the driver page');

      // The shipper, on its tracking page and in the load's history.
      const office = await browser.newContext({
        viewport: { width: 1366, height: 900 },
        locale: 'en-US',
        timezoneId: 'America/Chicago',
      });
      t.teardown(() => office.close().catch(() => undefined));
      const { page: shipper, errors: shipperErrors } = await openPage(office);
      await signIn(shipper, server.url, demo.shipper.email, demo.shipper.password);
      await shipper.goto(`${server.url}/track/tour/${tour!.id}`);
      const proof = shipper.locator('.pod-view');
      await proof.getByText(/Received by Rita Receiver/).waitFor({ timeout: 30_000 });
      await proof.getByText('18 pallets, seal 448120 intact').waitFor();
      await proof.getByRole('img', { name: /Photo photo-1\.jpg/ }).waitFor();
      await proof.getByRole('img', { name: "Receiver's signature" }).waitFor();
      t.pass('the shipper sees the proof on the tour: who, when, the note, the thumbnails');
      await centre(proof);
      await journey.check(t, shipper, 'shipper-track-pod');
      await proof.getByRole('button', { name: /Enlarge: Photo photo-1\.jpg/ }).click();
      const enlarged = shipper.getByRole('dialog', { name: /Photo photo-1\.jpg/ });
      await enlarged.waitFor();
      const large = enlarged.locator('img.pod-large');
      await large.waitFor();
      const width = await large.evaluate((image) => (image as HTMLImageElement).naturalWidth);
      t.equal(
        width,
        640,
        'the enlarged photo, as resized on the phone (640 px: smaller than 1600, kept)',
      );
      await journey.check(t, shipper, 'shipper-photo-enlarged');
      await shipper.keyboard.press('Escape');

      await shipper.goto(`${server.url}/loads/history/${tour!.loadId}`);
      const entry = shipper
        .locator('.history-event')
        .filter({ hasText: 'Proof of delivery: received by Rita Receiver' })
        .filter({ has: shipper.locator('.history-pod') });
      await entry.waitFor({ timeout: 30_000 });
      await entry.getByRole('img', { name: /Photo photo-1\.jpg/ }).waitFor();
      t.pass('the history shows the proof with its thumbnails');
      await entry.scrollIntoViewIfNeeded();
      await journey.check(t, shipper, 'shipper-history-pod');

      // The driver's card in Arabic reads right to left.
      const arabic = await browser.newContext({ ...PHONE, locale: 'ar', timezoneId: 'Asia/Dubai' });
      t.teardown(() => arabic.close().catch(() => undefined));
      await arabic.addInitScript(() => window.localStorage.setItem('language', 'ar'));
      const { page: arabicDriver } = await openPage(arabic);
      await signIn(arabicDriver, server.url, demo.driver.email, demo.driver.password);
      await arabicDriver.goto(`${server.url}/driver`);
      await arabicDriver
        .getByRole('heading', { name: 'إثبات التسليم' })
        .first()
        .waitFor({ timeout: 30_000 });
      t.equal(
        await arabicDriver.evaluate(() => document.documentElement.dir),
        'rtl',
        'Arabic reads right to left',
      );
      // The proof already sent, listed under the card (read from the server: this phone's queue is empty).
      await arabicDriver
        .locator('section.pod-card .pod-entry')
        .getByText(/Rita Receiver/)
        .waitFor({ timeout: 15_000 });
      await centre(arabicDriver.locator('section.pod-card .pod-view'));
      await journey.check(t, arabicDriver, 'driver-pod-arabic');

      // The driver has unloaded; the shipper confirms the delivery from its loads table with the proof beside the button.
      const unloaded = await fetch(`${server.url}/api/tours/${tour!.id}/status`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${driverToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 10, message: '' }),
      });
      t.equal(unloaded.status, 200, 'the driver marks it delivered');
      await shipper.goto(`${server.url}/loads/shipper`);
      await rowAction(shipper, tour!.loadGuid, 'Confirm delivery');
      const confirmation = shipper.getByRole('dialog');
      await confirmation.getByText(/Confirm the delivery of load/).waitFor();
      await confirmation
        .locator('.pod-view')
        .getByText(/Received by Rita Receiver/)
        .waitFor({ timeout: 15_000 });
      await confirmation.getByRole('img', { name: /Photo photo-1\.jpg/ }).waitFor();
      t.pass('the proof beside the confirmation button');
      await journey.check(t, shipper, 'shipper-confirm-with-pod');
      await confirmation.getByRole('button', { name: 'Confirm delivery' }).click();
      await confirmation.waitFor({ state: 'detached', timeout: 20_000 });
      await rowWith(shipper, tour!.loadGuid)
        .first()
        .getByText('Delivered', { exact: true })
        .waitFor({ timeout: 30_000 });
      t.same(shipperErrors, [], 'no errors on the shipper pages');
    },
  );
});
