/**
 * Two-factor sign-in: a shipper turns it on under My account, Security (scans the QR code, or types
 * the secret, enters the app's code, is shown its ten recovery codes once), then signs in again:
 * after the password the form asks for the code, and a recovery code lets it in.
 */
import { Secret, TOTP } from 'otpauth';
import t, { type Test } from 'tap';
import { Journey, openPage, signIn, withBrowser } from './harness.ts';

const shipper2 = { email: 'shipper2@demo.freight.local', password: 'demo12345' };

await withBrowser(t, async (server, browser) => {
  const journey = new Journey('twoFactor');
  const newPage = async () => {
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: 'en-US',
    });
    t.teardown(() => context.close());
    return openPage(context);
  };

  let recoveryCodes: string[] = [];
  await t.test(
    'a shipper turns two-factor sign-in on and keeps its recovery codes',
    async (t: Test) => {
      const { page, errors } = await newPage();
      await signIn(page, server.url, shipper2.email, shipper2.password);
      await page.getByRole('button', { name: /^User menu of / }).click();
      await page.getByRole('menuitem', { name: 'My account' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('tab', { name: 'Security' }).click();
      await dialog.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      const secret = (await dialog.locator('.two-factor-secret').textContent())!.trim();
      t.match(secret, /^[A-Z2-7]{32}$/, 'the secret is shown beside the QR code');
      await dialog.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
      await journey.check(t, page, 'security-scan');

      const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
      await dialog.getByLabel('Code from the app').fill(code);
      await dialog.getByRole('button', { name: 'Turn on' }).click();
      const list = dialog.getByRole('list', { name: 'Recovery codes' });
      await list.waitFor();
      recoveryCodes = (await list.locator('li').allTextContents()).map((text) => text.trim());
      t.equal(recoveryCodes.length, 10, 'ten recovery codes');
      await journey.check(t, page, 'security-recovery-codes');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.getByText('Two-factor sign-in is on for your account.').waitFor();
      await journey.check(t, page, 'security-on');
      t.same(errors, [], 'no page errors');
    },
  );

  await t.test('the next sign-in asks for a code; a recovery code lets it in', async (t: Test) => {
    const { page, errors } = await newPage();
    await page.goto(`${server.url}/signin`);
    await page.locator('#signin-email').fill(shipper2.email);
    await page.locator('#signin-password').fill(shipper2.password);
    await page.keyboard.press('Enter');
    await page.locator('#signin-code').waitFor();
    await journey.check(t, page, 'signin-code');
    await page.locator('#signin-code').fill('000000');
    await page.keyboard.press('Enter');
    await page.getByText('The code is not valid').waitFor();
    await page.locator('#signin-code').fill(recoveryCodes[0]!);
    await page.keyboard.press('Enter');
    await page.waitForURL(
      (target) => !target.pathname.startsWith('/signin') && target.pathname !== '/',
      { timeout: 30_000 },
    );
    await page.locator('.layout').first().waitFor({ timeout: 30_000 });
    t.pass('signed in with a recovery code');
    t.same(errors, [], 'no page errors');
  });
  journey.summary(t);
});
