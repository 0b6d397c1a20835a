/**
 * The menus journey, one file a role (`menus.<role>.e2e.ts`) so the four run side by side: the role
 * opens every route of its menu with no page error and no serious accessibility violation, and one
 * route it may not open lands on the 404 page. The shipper's file also checks that the shell is right
 * to left in Arabic.
 */
import t, { type Test } from 'tap';
import { demo, Journey, openPage, signIn, unfoldMenu, withBrowser } from './harness.ts';

const roles = {
  superadmin: { name: 'Superadmin', account: demo.admin, forbidden: null },
  shipper: { name: 'Shipper', account: demo.shipper, forbidden: '/loads/carrier' },
  carrier: { name: 'Carrier', account: demo.carrier, forbidden: '/loads/shipper' },
  driver: { name: 'Driver', account: demo.driver, forbidden: '/users/all' },
} as const;

export const menusJourney = (key: keyof typeof roles) =>
  withBrowser(t, async (server, browser) => {
    const journey = new Journey(`menus-${key}`);
    const role = roles[key];
    await t.test(`${role.name}: every menu route opens`, async (t: Test) => {
      const context = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        locale: 'en-US',
      });
      const { page, errors } = await openPage(context);
      await signIn(page, server.url, role.account.email, role.account.password);
      // Groups fold their items away: open them all, then collect the menu's links.
      await unfoldMenu(page);
      const paths = [
        ...new Set(
          await page
            .locator('nav a[href^="/"]')
            .evaluateAll((links) =>
              links.map((link) => new URL((link as HTMLAnchorElement).href).pathname),
            ),
        ),
      ];
      t.ok(paths.length > 0, `${role.name} has ${paths.length} menu routes`);
      // The driver's own page is in a driver's menu only (a Superadmin holds its code too).
      t.equal(paths.includes('/driver'), key === 'driver', `'My tours' only for a driver`);
      if (paths.includes('/loads/shipper'))
        t.equal(
          (await page.locator('nav a[href="/loads/shipper"]').first().innerText()).trim(),
          'Pending Shipments',
          "the Loads section's first entry reads 'Pending Shipments'",
        );
      for (const path of paths) {
        await page.goto(`${server.url}${path}`);
        await page.locator('main h1, main h2, h1').first().waitFor({ timeout: 20_000 });
        t.not(
          new URL(page.url()).pathname,
          '/error-pages/error-404',
          `${path} is not the 404 page`,
        );
        await journey.check(t, page, `${role.name.toLowerCase()}${path.replace(/\//g, '-')}`);
      }
      t.same(errors, [], 'no page errors');
      if (role.forbidden) {
        await page.goto(`${server.url}${role.forbidden}`);
        await page.waitForURL(/error-404/, { timeout: 20_000 });
        t.match(
          new URL(page.url()).pathname,
          /error-404/,
          `${role.forbidden} lands on the 404 page`,
        );
        await journey.check(t, page, `${role.name.toLowerCase()}-forbidden-404`);
      }
      await context.close();
    });

    if (key === 'shipper')
      await t.test('Arabic is right to left', async (t: Test) => {
        const context = await browser.newContext({
          viewport: { width: 390, height: 844 },
          locale: 'ar',
        });
        const { page } = await openPage(context);
        await page.addInitScript(() => window.localStorage.setItem('language', 'ar'));
        await signIn(page, server.url, demo.shipper.email, demo.shipper.password);
        t.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
        t.equal(await page.evaluate(() => document.documentElement.lang), 'ar');
        await journey.check(t, page, 'ar-shipper-home-phone');
        await context.close();
      });

    journey.summary(t);
  });
