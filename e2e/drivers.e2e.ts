/**
 * The drivers lists: a carrier deletes a driver from its drivers list (and sees why one on an open
 * tour stays, and that the users list offers Delete on drivers' rows only); a Superadmin opens the
 * Active, Blocked and Pending drivers lists and finds each driver with its carrier.
 */
import t, { type Test } from 'tap';
import { apiToken, demo, Journey, openPage, signIn, unfoldMenu, withBrowser } from './harness.ts';
import { rowAction, rowWith, toastSaying } from './steps.ts';

const unique = Date.now().toString(36);

await withBrowser(t, async (server, browser) => {
  const journey = new Journey('drivers');
  const desktop = { viewport: { width: 1440, height: 900 }, locale: 'en-US' };

  await t.test(
    'a carrier deletes a driver; one on an open tour stays, with the reason shown',
    async (t: Test) => {
      // A driver with no tour, added behind the screens for this journey.
      const token = await apiToken(server.url, demo.carrier.email, demo.carrier.password);
      const driverName = `Temp Driver ${unique}`;
      const created = await fetch(`${server.url}/api/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          email: `temp.${unique}@demo.freight.local`,
          username: `temp${unique}`,
          userDetails: { name: driverName, phone: '404-555-0199' },
          password: 'driver12345',
          roleId: 4,
        }),
      });
      t.equal(created.status, 201, 'the driver exists');

      const context = await browser.newContext(desktop);
      const { page, errors } = await openPage(context);
      await signIn(page, server.url, demo.carrier.email, demo.carrier.password);
      // The carrier's menu has its drivers lists.
      // Groups fold their items away, a group inside a group too: open them until none is folded.
      await unfoldMenu(page);
      await page.locator('nav a[href="/users/drivers/pending"]').waitFor();
      const menuPaths = await page
        .locator('nav a[href^="/users/drivers/"]')
        .evaluateAll((links) =>
          links.map((link) => new URL((link as HTMLAnchorElement).href).pathname),
        );
      t.same(
        menuPaths,
        ['/users/drivers/active', '/users/drivers/blocked', '/users/drivers/pending'],
        'Drivers: Active, Blocked, Pending in the menu',
      );

      await page.goto(`${server.url}/users/drivers/active`);
      await page.getByRole('heading', { name: 'Active drivers' }).waitFor();
      await rowWith(page, driverName).waitFor({ timeout: 30_000 });
      t.ok(await rowWith(page, demo.driver.email).count(), "the carrier's own driver is listed");
      t.equal(
        await rowWith(page, demo.driver2.email).count(),
        0,
        "another carrier's driver is not",
      );
      await journey.check(t, page, 'carrier-drivers-active');

      await rowAction(page, driverName, 'Delete');
      const dialog = page.getByRole('alertdialog').or(page.locator('.p-confirm-dialog')).first();
      await dialog.waitFor();
      t.match(
        await dialog.textContent(),
        new RegExp(`Delete the driver ${driverName}\\?`),
        'the deletion is confirmed first',
      );
      await journey.check(t, page, 'carrier-delete-confirm');
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await toastSaying(page, 'Driver deleted').waitFor({ timeout: 20_000 });
      await rowWith(page, driverName).waitFor({ state: 'detached', timeout: 20_000 });
      t.pass('the deleted driver left the list');

      // The demo's driver on the road cannot go: the server's 409 message, and the row stays.
      await rowAction(page, demo.driver.email, 'Delete');
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await toastSaying(page, 'The driver has an open tour and cannot be deleted').waitFor({
        timeout: 20_000,
      });
      t.pass('the 409 message is shown');
      t.equal(
        await rowWith(page, demo.driver.email).count(),
        1,
        'the driver on an open tour is still listed',
      );
      await journey.photo(page, 'carrier-delete-open-tour-toast');

      // The users list offers Delete on drivers' rows only.
      await page.goto(`${server.url}/users/all`);
      // The table reads again once the role and organization filters have loaded: wait for the action.
      // It may read again right after the first rows show: the count is taken once the rows stand.
      const deleteOn = (email: string) =>
        rowWith(page, email).getByRole('button', { name: 'Delete' });
      await deleteOn(demo.driver.email).waitFor({ timeout: 30_000 });
      let onDriver = await deleteOn(demo.driver.email).count();
      for (const deadline = Date.now() + 15_000; onDriver !== 1 && Date.now() < deadline; ) {
        await page.waitForTimeout(200);
        onDriver = await deleteOn(demo.driver.email).count();
      }
      t.equal(onDriver, 1, "Delete on a driver's row");
      t.equal(await deleteOn(demo.carrier.email).count(), 0, "none on a dispatcher's row");
      t.same(errors, [], 'no page errors');
      await context.close();
    },
  );

  await t.test(
    'a Superadmin opens the Active, Blocked and Pending drivers lists',
    async (t: Test) => {
      const context = await browser.newContext(desktop);
      const { page, errors } = await openPage(context);
      await signIn(page, server.url, demo.admin.email, demo.admin.password);
      await page.goto(`${server.url}/users/drivers/active`);
      await page.getByRole('heading', { name: 'Active drivers' }).waitFor();
      const alex = rowWith(page, demo.driver.email);
      await alex.waitFor({ timeout: 30_000 });
      t.match(await alex.textContent(), /Blue Ridge Freight LLC/, 'a driver with its carrier');
      t.match(
        await rowWith(page, demo.driver2.email).textContent(),
        /Desert Sun Logistics/,
        "another carrier's driver, with its carrier",
      );
      await journey.check(t, page, 'admin-drivers-active');

      // Blocking a driver moves it to the Blocked list: the lists follow the driver's own status.
      await rowAction(page, demo.driver2.email, 'Block');
      await rowWith(page, demo.driver2.email).waitFor({ state: 'detached', timeout: 20_000 });
      await page.goto(`${server.url}/users/drivers/blocked`);
      await page.getByRole('heading', { name: 'Blocked drivers' }).waitFor();
      const blocked = rowWith(page, demo.driver2.email);
      await blocked.waitFor({ timeout: 30_000 });
      t.match(
        await blocked.textContent(),
        /Desert Sun Logistics/,
        'the blocked driver with its carrier',
      );
      t.equal(
        await rowWith(page, demo.driver.email).count(),
        0,
        'an active driver is not in the Blocked list',
      );
      await journey.check(t, page, 'admin-drivers-blocked');

      await page.goto(`${server.url}/users/drivers/pending`);
      await page.getByRole('heading', { name: 'Pending drivers' }).waitFor();
      await page.getByText('No drivers in this list.').waitFor({ timeout: 30_000 });
      await journey.check(t, page, 'admin-drivers-pending');
      t.same(errors, [], 'no page errors');
      await context.close();
    },
  );

  journey.summary(t);
});
