/**
 * The navigation styles journey, left to right. A first visit (nothing stored, a French browser on a
 * light system) opens the sign-in page dark and in English. The Superadmin's customizer offers eleven
 * navigation styles; in each, every entry of the Superadmin's menu can be reached with the mouse
 * (groups and flyouts unfolded), and the keyboard reaches the menu and opens a group. Arabic and the
 * phone are `navStyles.rtl.e2e.ts`; the steps both use are `navStyles.ts`.
 */
import t from 'tap';
import { navStyles } from '../client/src/state/settings.ts';
import { demo, Journey, openPage, signIn, withBrowser } from './harness.ts';
import {
  expected,
  englishNames,
  scrollToTop,
  luminance,
  unfoldEverything,
  chooseStyle,
  showMenu,
  keyboardReachesMenu,
} from './navStyles.ts';

await withBrowser(t, async (server, browser) => {
  const journey = new Journey('nav-styles');

  await t.test(
    'a first visit opens dark and in English, whatever the browser asks for',
    async (t) => {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        colorScheme: 'light',
        locale: 'fr-FR',
      });
      const { page, errors } = await openPage(context);
      await page.goto(`${server.url}/signin`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      t.ok(
        await page.evaluate(() => matchMedia('(prefers-color-scheme: light)').matches),
        'the system prefers light',
      );
      t.equal(
        await page.evaluate(() => navigator.language),
        'fr-FR',
        'the browser asks for French',
      );
      t.equal(await page.evaluate(() => document.documentElement.dataset.mode), 'dark');
      t.equal(await page.evaluate(() => document.documentElement.lang), 'en');
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      t.ok(luminance(background) < 0.05, `the page is dark (${background})`);
      // The first paint: the one theme stylesheet preloaded is the one the page then uses.
      const preloaded = await page.locator('link[rel="preload"][as="style"]').evaluateAll((links) =>
        links.map((link) => ({
          href: link.getAttribute('href'),
          media: link.getAttribute('media'),
        })),
      );
      t.equal(preloaded.length, 1, 'one theme stylesheet is preloaded');
      t.equal(preloaded[0]?.media, null, 'whatever the system prefers');
      t.equal(
        await page.evaluate(() => document.getElementById('theme-link')?.getAttribute('href')),
        preloaded[0]?.href,
        'and it is the one the page shows',
      );
      await journey.check(t, page, 'first-visit-signin-dark-english');
      t.same(errors, [], 'no page errors');
      await context.close();

      // Before any script runs, the placeholder is on the dark background too.
      const bare = await browser.newContext({
        colorScheme: 'light',
        locale: 'fr-FR',
        javaScriptEnabled: false,
      });
      const still = await bare.newPage();
      await still.goto(`${server.url}/signin`);
      const boot = await still
        .locator('.boot-shell')
        .evaluate((element) => getComputedStyle(element).backgroundColor);
      t.ok(luminance(boot) < 0.05, `the first paint is dark (${boot})`);
      await bare.close();
    },
  );

  await t.test('the Superadmin reaches every menu entry in each navigation style', async (t) => {
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      colorScheme: 'dark',
      locale: 'en-US',
    });
    const { page, errors } = await openPage(context);
    await signIn(page, server.url, demo.admin.email, demo.admin.password);
    t.ok(expected.length > 15, `the Superadmin's menu holds ${expected.length} entries`);
    t.notOk(expected.includes('/driver'), "without the driver's own page");

    await page.getByRole('button', { name: 'Theme settings' }).click();
    const styles = page.getByRole('radiogroup', { name: 'Navigation style' }).getByRole('radio');
    await styles.first().waitFor();
    t.equal(await styles.count(), 11, 'the customizer offers eleven navigation styles');
    t.same(
      (await styles.allInnerTexts()).map((text) => text.trim()),
      navStyles.map((style) => englishNames[style]),
      'each under its name',
    );
    t.equal(await styles.nth(0).getAttribute('aria-checked'), 'true', 'the sidebar by default');
    await journey.check(t, page, 'customizer-navigation-styles');
    await page.keyboard.press('Escape');

    for (const style of navStyles) {
      await chooseStyle(t, page, style);
      t.equal(
        await page.evaluate(() => document.documentElement.dataset.nav),
        style,
        `${style} is shown`,
      );
      if (style === 'static') {
        // The menu button hides the sidebar and brings it back.
        await page.locator('[data-nav-toggle]').click();
        await page.locator('aside.layout-sidebar').waitFor({ state: 'detached' });
        t.equal(await page.locator('aside.layout-sidebar').count(), 0, 'static: hidden');
        await page.locator('[data-nav-toggle]').click();
        await page.locator('aside.layout-sidebar').waitFor();
      }
      if (style === 'collapsible') {
        // Folded to its icons by the menu button; the pointer unfolds it again.
        await page.locator('[data-nav-toggle]').click();
        await page.mouse.move(900, 500);
        await page.waitForTimeout(350);
        const width = await page.locator('aside.layout-sidebar').evaluate((e) => e.clientWidth);
        t.ok(width < 100, `collapsible: folded to a rail (${width} px)`);
      }
      // Tucked away at the edge until the pointer or the focus comes (photographed as it rests).
      if (style === 'reveal') await journey.photo(page, 'style-reveal-tucked');
      await showMenu(page, style, false, false);
      t.same(await unfoldEverything(page), expected, `${style}: every menu entry is reachable`);
      await scrollToTop(page);
      await journey.check(t, page, `style-${style}`);
      if (style === 'collapsible') {
        // The pointer off the rail first: unfolded under it, the rail covers the menu button.
        await page.mouse.move(900, 500);
        await page.waitForTimeout(350);
        await page.locator('[data-nav-toggle]').click();
      }
      if (style === 'overlay' || style === 'drawer') await page.keyboard.press('Escape');
      await page.mouse.move(900, 500);
    }

    for (const style of navStyles) {
      await chooseStyle(t, page, style);
      await keyboardReachesMenu(t, page, style);
    }
    t.same(errors, [], 'no page errors');
    await context.close();
  });

  journey.summary(t);
});
