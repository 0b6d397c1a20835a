/**
 * One's own password and delivery confirmed from the loads table: a user changes the password in My
 * account and signs in with the new one (the old one refused); a shipper confirms a delivery from its
 * loads table. The screens of both, and of the drivers list (e2e/drivers.e2e.ts), in Arabic on a phone.
 */
import t, { type Test } from 'tap';
import { demo, Journey, openPage, signIn, withBrowser } from './harness.ts';
import { rowAction, rowWith, toastSaying } from './steps.ts';

const unique = Date.now().toString(36);

await withBrowser(t, async (server, browser) => {
  const journey = new Journey('users-account');
  const desktop = { viewport: { width: 1440, height: 900 }, locale: 'en-US' };

  await t.test(
    'a user changes the password in My account and signs in with the new one',
    async (t: Test) => {
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
      await journey.photo(page, 'account-password-mismatch');

      await dialog.getByLabel('Current password', { exact: true }).fill('not-my-password');
      await dialog.getByLabel('Retype new password', { exact: true }).fill(newPassword);
      await save.click();
      await dialog.getByText('Current password is incorrect').waitFor({ timeout: 20_000 });
      t.pass('a wrong current password is refused under its field');

      await dialog.getByLabel('Current password', { exact: true }).fill(account.password);
      await save.click();
      await toastSaying(page, 'Account successfully updated').waitFor({ timeout: 20_000 });
      t.equal(
        await dialog
          .getByLabel('New password', { exact: true })
          .inputValue()
          .catch(() => ''),
        '',
        'the password fields are emptied',
      );

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
    },
  );

  await t.test('a shipper confirms a delivery from its loads table', async (t: Test) => {
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
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[role="row"], tr')].some(
          (element) =>
            element.textContent?.includes('PO-77089') &&
            element.textContent.includes('Delivered') &&
            !element.textContent.includes('Pending Delivery'),
        ),
      null,
      { timeout: 30_000 },
    );
    t.equal(
      await rowWith(page, 'PO-77089').getByRole('button', { name: 'Confirm delivery' }).count(),
      0,
      'the row no longer offers it',
    );
    t.same(errors, [], 'no page errors');
    await context.close();
  });

  await t.test('the changed screens in Arabic, right to left, on a phone', async (t: Test) => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'ar',
    });
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

    const shipperContext = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'ar',
    });
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
