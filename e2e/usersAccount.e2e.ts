/**
 * Drivers on the users screens, one's own password, delivery confirmed from the loads table:
 * a carrier deletes a driver from its drivers list (and sees why one on an open tour stays); a
 * Superadmin opens the Active, Blocked and Pending drivers lists and finds each driver with its
 * carrier; a user changes the password in My account and signs in with the new one (the old one
 * refused); a shipper confirms a delivery from its loads table. The screens in Arabic on a phone too.
 */
import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { join } from 'node:path';
import { apiToken, demo, Journey, openPage, SHOTS, signIn, withBrowser } from './harness.ts';
import { rowAction, rowWith } from './steps.ts';

const unique = Date.now().toString(36);

/** A screenshot beside the journey's, without axe (for moments a shared component owns, such as a toast). */
const photo = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, 'users-account', `${name}.png`) }).catch(() => undefined);

/** The toast's text once one shows it. */
const toastSaying = (page: Page, text: string | RegExp) => page.locator('.p-toast-message').filter({ hasText: text }).first();

await withBrowser(t, async (server, browser) => {
  const journey = new Journey('users-account');
  const desktop = { viewport: { width: 1440, height: 900 }, locale: 'en-US' };

  await t.test('a carrier deletes a driver; one on an open tour stays, with the reason shown', async (t: Test) => {
    // A driver with no tour, added behind the screens for this journey.
    const token = await apiToken(server.url, demo.carrier.email, demo.carrier.password);
    const driverName = `Temp Driver ${unique}`;
    const created = await fetch(`${server.url}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ email: `temp.${unique}@demo.freight.local`, username: `temp${unique}`, userDetails: { name: driverName, phone: '404-555-0199' }, password: 'driver12345', roleId: 4 }),
    });
    t.equal(created.status, 201, 'the driver exists');

    const context = await browser.newContext(desktop);
    const { page, errors } = await openPage(context);
    await signIn(page, server.url, demo.carrier.email, demo.carrier.password);
    // The carrier's menu has its drivers lists.
    // Groups fold their items away, a group inside a group too: open them until none is folded.
    for (let pass = 0; pass < 3; pass++) {
      for (const toggle of await page.locator('nav [aria-expanded="false"]').all()) await toggle.click().catch(() => undefined);
    }
    await page.locator('nav a[href="/users/drivers/pending"]').waitFor();
    const menuPaths = await page.locator('nav a[href^="/users/drivers/"]').evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
    t.same(menuPaths, ['/users/drivers/active', '/users/drivers/blocked', '/users/drivers/pending'], 'Drivers: Active, Blocked, Pending in the menu');

    await page.goto(`${server.url}/users/drivers/active`);
    await page.getByRole('heading', { name: 'Active drivers' }).waitFor();
    await rowWith(page, driverName).waitFor({ timeout: 30_000 });
    t.ok(await rowWith(page, demo.driver.email).count(), "the carrier's own driver is listed");
    t.equal(await rowWith(page, demo.driver2.email).count(), 0, "another carrier's driver is not");
    await journey.check(t, page, 'carrier-drivers-active');

    await rowAction(page, driverName, 'Delete');
    const dialog = page.getByRole('alertdialog').or(page.locator('.p-confirm-dialog')).first();
    await dialog.waitFor();
    t.match(await dialog.textContent(), new RegExp(`Delete the driver ${driverName}\\?`), 'the deletion is confirmed first');
    await journey.check(t, page, 'carrier-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toastSaying(page, 'Driver deleted').waitFor({ timeout: 20_000 });
    await rowWith(page, driverName).waitFor({ state: 'detached', timeout: 20_000 });
    t.pass('the deleted driver left the list');

    // The demo's driver on the road cannot go: the server's 409 message, and the row stays.
    await rowAction(page, demo.driver.email, 'Delete');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toastSaying(page, 'The driver has an open tour and cannot be deleted').waitFor({ timeout: 20_000 });
    t.pass('the 409 message is shown');
    t.equal(await rowWith(page, demo.driver.email).count(), 1, 'the driver on an open tour is still listed');
    await photo(page, 'carrier-delete-open-tour-toast');

    // The users list offers Delete on drivers' rows only.
    await page.goto(`${server.url}/users/all`);
    // The table reads again once the role and organization filters have loaded: wait for the action.
    // It may read again right after the first rows show: the count is taken once the rows stand.
    const deleteOn = (email: string) => rowWith(page, email).getByRole('button', { name: 'Delete' });
    await deleteOn(demo.driver.email).waitFor({ timeout: 30_000 });
    let onDriver = await deleteOn(demo.driver.email).count();
    for (const deadline = Date.now() + 15_000; onDriver !== 1 && Date.now() < deadline;) {
      await page.waitForTimeout(200);
      onDriver = await deleteOn(demo.driver.email).count();
    }
    t.equal(onDriver, 1, "Delete on a driver's row");
    t.equal(await deleteOn(demo.carrier.email).count(), 0, "none on a dispatcher's row");
    t.same(errors, [], 'no page errors');
    await context.close();
  });

  await t.test('a Superadmin opens the Active, Blocked and Pending drivers lists', async (t: Test) => {
    const context = await browser.newContext(desktop);
    const { page, errors } = await openPage(context);
    await signIn(page, server.url, demo.admin.email, demo.admin.password);
    await page.goto(`${server.url}/users/drivers/active`);
    await page.getByRole('heading', { name: 'Active drivers' }).waitFor();
    const alex = rowWith(page, demo.driver.email);
    await alex.waitFor({ timeout: 30_000 });
    t.match(await alex.textContent(), /Blue Ridge Freight LLC/, 'a driver with its carrier');
    t.match(await rowWith(page, demo.driver2.email).textContent(), /Desert Sun Logistics/, "another carrier's driver, with its carrier");
    await journey.check(t, page, 'admin-drivers-active');

    // Blocking a driver moves it to the Blocked list: the lists follow the driver's own status.
    await rowAction(page, demo.driver2.email, 'Block');
    await rowWith(page, demo.driver2.email).waitFor({ state: 'detached', timeout: 20_000 });
    await page.goto(`${server.url}/users/drivers/blocked`);
    await page.getByRole('heading', { name: 'Blocked drivers' }).waitFor();
    const blocked = rowWith(page, demo.driver2.email);
    await blocked.waitFor({ timeout: 30_000 });
    t.match(await blocked.textContent(), /Desert Sun Logistics/, 'the blocked driver with its carrier');
    t.equal(await rowWith(page, demo.driver.email).count(), 0, 'an active driver is not in the Blocked list');
    await journey.check(t, page, 'admin-drivers-blocked');

    await page.goto(`${server.url}/users/drivers/pending`);
    await page.getByRole('heading', { name: 'Pending drivers' }).waitFor();
    await page.getByText('No drivers in this list.').waitFor({ timeout: 30_000 });
    await journey.check(t, page, 'admin-drivers-pending');
    t.same(errors, [], 'no page errors');
    await context.close();
  });

  await t.test('a user changes the password in My account and signs in with the new one', async (t: Test) => {
    const account = { email: 'shipper2@demo.freight.local', password: 'demo12345' };
    const newPassword = `fresh-${unique}-pass`;
    const context = await browser.newContext(desktop);
    const { page, errors } = await openPage(context);
    await signIn(page, server.url, account.email, account.password);
    await page.getByRole('button', { name: /^User menu of / }).click();
    await page.getByRole('menuitem', { name: 'My account' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Current password', { exact: true }).waitFor();
    await journey.check(t, page, 'account-password-empty');

    const save = dialog.getByRole('button', { name: 'Save Changes' });
    await dialog.getByLabel('Current password', { exact: true }).fill(account.password);
    await dialog.getByLabel('New password', { exact: true }).fill(newPassword);
    await dialog.getByLabel('Retype new password', { exact: true }).fill(`${newPassword}-typo`);
    await save.click();
    await dialog.getByText('The two passwords you entered did not match!').waitFor();
    await photo(page, 'account-password-mismatch');

    await dialog.getByLabel('Current password', { exact: true }).fill('not-my-password');
    await dialog.getByLabel('Retype new password', { exact: true }).fill(newPassword);
    await save.click();
    await dialog.getByText('Current password is incorrect').waitFor({ timeout: 20_000 });
    t.pass('a wrong current password is refused under its field');

    await dialog.getByLabel('Current password', { exact: true }).fill(account.password);
    await save.click();
    await toastSaying(page, 'Account successfully updated').waitFor({ timeout: 20_000 });
    t.equal(await dialog.getByLabel('New password', { exact: true }).inputValue().catch(() => ''), '', 'the password fields are emptied');

    // Signed out, the old password is refused and the new one signs in.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /^User menu of / }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.locator('.user-button').waitFor({ state: 'detached', timeout: 20_000 });
    await page.goto(`${server.url}/signin`);
    await page.locator('#signin-email').fill(account.email);
    await page.locator('#signin-password').fill(account.password);
    await page.keyboard.press('Enter');
    await page.getByText('Invalid email or password').first().waitFor({ timeout: 20_000 });
    t.match(new URL(page.url()).pathname, /^\/signin/, 'the old password does not sign in');
    await signIn(page, server.url, account.email, newPassword);
    t.match(new URL(page.url()).pathname, /^\/loads\/shipper/, 'the new password signs in');
    t.same(errors, [], 'no page errors');
    await context.close();
  });

  await t.test("a shipper confirms a delivery from its loads table", async (t: Test) => {
    const context = await browser.newContext(desktop);
    const { page, errors } = await openPage(context);
    await signIn(page, server.url, demo.shipper.email, demo.shipper.password);
    await page.goto(`${server.url}/loads/shipper`);
    // The demo's cheese run waits for the shipper's confirmation.
    const row = rowWith(page, 'PO-77089');
    await row.waitFor({ timeout: 30_000 });
    t.match(await row.textContent(), /Pending Delivery Confirmation/);
    await journey.check(t, page, 'shipper-loads-confirm-action');
    await rowAction(page, 'PO-77089', 'Confirm delivery');
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/Confirm the delivery of load/).waitFor();
    await journey.check(t, page, 'shipper-loads-confirm-dialog');
    await dialog.getByRole('button', { name: 'Confirm delivery' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
    await page.waitForFunction(() => [...document.querySelectorAll('[role="row"], tr')].some((element) => element.textContent?.includes('PO-77089') && element.textContent.includes('Delivered') && !element.textContent.includes('Pending Delivery')), null, { timeout: 30_000 });
    t.equal(await rowWith(page, 'PO-77089').getByRole('button', { name: 'Confirm delivery' }).count(), 0, 'the row no longer offers it');
    t.same(errors, [], 'no page errors');
    await context.close();
  });

  await t.test('the changed screens in Arabic, right to left, on a phone', async (t: Test) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'ar' });
    const { page } = await openPage(context);
    await page.addInitScript(() => window.localStorage.setItem('language', 'ar'));
    await signIn(page, server.url, demo.carrier.email, demo.carrier.password);
    t.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    await page.goto(`${server.url}/users/drivers/active`);
    await page.getByRole('heading', { name: 'السائقون النشطون' }).waitFor();
    await rowWith(page, demo.driver.email).waitFor({ timeout: 30_000 });
    await journey.check(t, page, 'ar-phone-carrier-drivers');
    await rowAction(page, demo.driver.email, 'حذف');
    await page.locator('.p-confirm-dialog').waitFor();
    await journey.check(t, page, 'ar-phone-delete-confirm');
    await page.keyboard.press('Escape');
    await page.locator('.user-button').click();
    await page.getByRole('menuitem').first().click();
    await page.getByRole('dialog').getByLabel('كلمة المرور الحالية', { exact: true }).waitFor();
    await journey.check(t, page, 'ar-phone-account');
    await context.close();

    const shipperContext = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'ar' });
    const shipper = await openPage(shipperContext);
    await shipper.page.addInitScript(() => window.localStorage.setItem('language', 'ar'));
    await signIn(shipper.page, server.url, demo.shipper.email, demo.shipper.password);
    await shipper.page.goto(`${server.url}/loads/shipper`);
    await rowWith(shipper.page, 'PO-77081').waitFor({ timeout: 30_000 });
    await journey.check(t, shipper.page, 'ar-phone-shipper-loads');
    await shipper.page.goto(`${server.url}/load`);
    await shipper.page.locator('form, main').first().waitFor();
    await journey.check(t, shipper.page, 'ar-phone-load-form');
    await shipperContext.close();
  });

  journey.summary(t);
});
