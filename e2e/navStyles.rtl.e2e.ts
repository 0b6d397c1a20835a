/**
 * The navigation styles journey, right to left and on a phone: in Arabic every one of the eleven
 * styles reaches every entry of the Superadmin's menu and sits on the right; on a phone every style
 * is a drawer holding the whole menu. The steps are `navStyles.ts`.
 */
import t from 'tap';
import { navStyles } from '../client/src/state/settings.ts';
import { demo, Journey, openPage, signIn, withBrowser } from './harness.ts';
import { expected, scrollToTop, unfoldEverything, chooseStyle, showMenu } from './navStyles.ts';

await withBrowser(t, async (server, browser) => {
  const journey = new Journey('nav-styles-rtl');

  await t.test(
    'in Arabic and on a phone, every navigation style reaches every menu entry',
    async (t) => {
      const context = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        colorScheme: 'dark',
        locale: 'ar',
      });
      // The product opens in English whatever the browser asks for: this Superadmin picked Arabic.
      await context.addInitScript(() => {
        if (!window.localStorage.getItem('language')) window.localStorage.setItem('language', 'ar');
      });
      const { page, errors } = await openPage(context);
      await signIn(page, server.url, demo.admin.email, demo.admin.password);
      // Right to left, in Arabic.
      t.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
      for (const style of navStyles) {
        await chooseStyle(t, page, style);
        await showMenu(page, style, false, true);
        t.same(
          await unfoldEverything(page),
          expected,
          `${style}, right to left: every menu entry is reachable`,
        );
        // The navigation sits on the right (the top bar starts there).
        const side = await page.evaluate(() => {
          const panel = [
            ...document.querySelectorAll('aside, .layout-drawer, .top-menu > li:first-child'),
          ].find((element) => (element as HTMLElement).checkVisibility());
          if (!panel) return null;
          const box = panel.getBoundingClientRect();
          return box.left + box.width / 2 > window.innerWidth / 2 ? 'right' : 'left';
        });
        t.equal(side, 'right', `${style}: starts on the right in Arabic`);
        await scrollToTop(page);
        await journey.check(t, page, `ar-style-${style}`);
        if (style === 'overlay' || style === 'drawer') await page.keyboard.press('Escape');
        await page.mouse.move(700, 500);
      }

      // A phone: every style is a drawer holding the whole menu.
      await page.evaluate(() => window.localStorage.setItem('language', 'en'));
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await page.locator('.layout').first().waitFor();
      for (const style of ['static', 'slim', 'two-column', 'horizontal'] as const) {
        await chooseStyle(t, page, style);
        t.equal(
          await page.locator('.layout-rail, .layout-two-column, .horizontal-menu').count(),
          0,
          `${style} on a phone: no rail, column or top bar`,
        );
        await showMenu(page, style, true, false);
        t.same(
          await unfoldEverything(page),
          expected,
          `${style} on a phone: every menu entry is reachable in the drawer`,
        );
        await scrollToTop(page);
        await journey.check(t, page, `phone-${style}`);
        await page.keyboard.press('Escape');
        await page.waitForTimeout(300);
      }
      t.same(errors, [], 'no page errors');
      await context.close();
    },
  );

  journey.summary(t);
});
