/**
 * Each role opens every route of its menu with no page error and no serious accessibility
 * violation; one route it may not open lands on the 404 page; the shell is right to left in Arabic.
 */
import t from 'tap';
import { axe, demo, launch, missingBrowser, openPage, signIn, startServer, type AxeFinding } from './harness.ts';

const missing = missingBrowser();
if (missing) {
  if (process.env.CI) t.fail(missing);
  else t.plan(0, missing);
} else {
  const server = await startServer();
  const browser = await launch();
  t.teardown(async () => {
    await browser.close();
    await server.stop();
  });

  const roles = [
    { name: 'Superadmin', account: demo.admin, forbidden: null },
    { name: 'Shipper', account: demo.shipper, forbidden: '/loads/carrier' },
    { name: 'Carrier', account: demo.carrier, forbidden: '/loads/shipper' },
    { name: 'Driver', account: demo.driver, forbidden: '/users/all' },
  ];
  const findings: AxeFinding[] = [];
  let screens = 0;

  for (const role of roles) {
    await t.test(`${role.name}: every menu route opens`, async (t) => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const { page, errors } = await openPage(context);
      await signIn(page, server.url, role.account.email, role.account.password);
      // Groups fold their items away: open them all, then collect the menu's links.
      for (const toggle of await page.locator('nav [aria-expanded="false"]').all()) await toggle.click().catch(() => undefined);
      const paths = [...new Set(await page.locator('nav a[href^="/"]').evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname)))];
      t.ok(paths.length > 0, `${role.name} has ${paths.length} menu routes`);
      for (const path of paths) {
        await page.goto(`${server.url}${path}`);
        await page.waitForLoadState('networkidle');
        t.not(new URL(page.url()).pathname, '/error-pages/error-404', `${path} is not the 404 page`);
        t.ok(await page.locator('h1, h2').first().isVisible(), `${path} shows a title`);
        const violations = await axe(page);
        screens++;
        findings.push(...violations);
        t.same(violations, [], `${path}: no serious or critical accessibility violations${violations.length ? `: ${violations.map((v) => `${v.id} (${v.nodes}): ${v.help}`).join('; ')}` : ''}`);
      }
      t.same(errors, [], 'no page errors');
      if (role.forbidden) {
        await page.goto(`${server.url}${role.forbidden}`);
        await page.waitForURL(/error-404/, { timeout: 10_000 });
        t.match(new URL(page.url()).pathname, /error-404/, `${role.forbidden} lands on the 404 page`);
      }
      await context.close();
    });
  }

  await t.test('Arabic is right to left', async (t) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const { page } = await openPage(context);
    await page.addInitScript(() => window.localStorage.setItem('language', 'ar'));
    await signIn(page, server.url, demo.shipper.email, demo.shipper.password);
    t.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    t.equal(await page.evaluate(() => document.documentElement.lang), 'ar');
    await context.close();
  });

  t.comment(`accessibility: ${screens} screens checked, ${findings.length} serious or critical violations`);
}
