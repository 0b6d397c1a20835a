/**
 * The navigation styles journey. A first visit (nothing stored, a French browser on a light system)
 * opens the sign-in page dark and in English. The Superadmin's customizer offers eleven navigation
 * styles; in each, left to right and right to left in Arabic, every entry of the Superadmin's menu can
 * be reached with the mouse (groups and flyouts unfolded), and the keyboard reaches the menu and opens
 * a group; on a phone every style is a drawer holding the whole menu.
 */
import type { Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { filterMenu, menu, menuRoutes } from '../client/src/app/menu.ts';
import { navStyles } from '../client/src/state/settings.ts';
import { permissionsFor, Role } from '../domain/permissions.ts';
import { demo, Journey, openPage, signIn, withBrowser } from './harness.ts';

type NavStyle = (typeof navStyles)[number];

/** The app's navigation (not the footer's legal links). */
const NAV = 'nav:not(.footer-links)';

/** The Superadmin's menu entries: every permission, but not the driver's own page. */
const expected = [
  ...new Set(menuRoutes(filterMenu(menu, permissionsFor(Role.Superadmin), ['Superadmin']))),
].sort();

const englishNames: Record<NavStyle, string> = {
  static: 'Sidebar',
  compact: 'Compact',
  collapsible: 'Collapsible',
  mini: 'Mini sidebar',
  slim: 'Slim (icons)',
  'slim-plus': 'Slim with labels',
  reveal: 'Reveal on hover',
  'two-column': 'Two columns',
  overlay: 'Overlay',
  drawer: 'Drawer',
  horizontal: 'Top bar',
};

/** Styles whose menu waits behind the header's menu button. */
const behindButton = (style: NavStyle, phone: boolean) =>
  phone || style === 'overlay' || style === 'drawer';

/** WCAG relative luminance of a computed `rgb(r, g, b)` colour. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? ['255', '255', '255'])
    .slice(0, 3)
    .map((value) => Number(value) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The menu's links a user can see and click now: on screen, not covered, not hidden. */
const reachableLinks = (page: Page): Promise<string[]> =>
  page.locator(`${NAV} a[href^="/"]`).evaluateAll((links) =>
    links.flatMap((link) => {
      const element = link as HTMLAnchorElement;
      if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return [];
      element.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const box = element.getBoundingClientRect();
      const x = box.left + Math.min(box.width / 2, 12);
      const y = box.top + box.height / 2;
      if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) return [];
      const hit = document.elementFromPoint(x, y);
      return hit && (hit === element || element.contains(hit))
        ? [new URL(element.href).pathname]
        : [];
    }),
  );

/**
 * Opens every folded group of the menu, one at a time as a user would (a rail's flyout closes when
 * the next opens), collecting the links seen on the way.
 */
async function unfoldEverything(page: Page): Promise<string[]> {
  const seen = new Set<string>();
  const tried = new Set<string>();
  for (let round = 0; round < 80; round++) {
    for (const path of await reachableLinks(page)) seen.add(path);
    const toggles = await page.locator(`${NAV} [aria-expanded="false"]`).evaluateAll((elements) => {
      for (const marked of document.querySelectorAll('[data-e2e-toggle]'))
        marked.removeAttribute('data-e2e-toggle');
      return elements.flatMap((element, index) => {
        const html = element as HTMLElement;
        if (!html.checkVisibility({ visibilityProperty: true })) return [];
        html.dataset.e2eToggle = String(index);
        const key = `${html.id}|${html.getAttribute('aria-controls') ?? ''}|${html.textContent?.trim()}`;
        return [{ key, index }];
      });
    });
    // The last one first: the deepest just opened, before a sibling whose opening would hide it
    // (a rail's next flyout, the two columns' next section).
    const next = toggles.filter((toggle) => !tried.has(toggle.key)).at(-1);
    if (!next) break;
    tried.add(next.key);
    const toggle = page.locator(`[data-e2e-toggle="${next.index}"]`);
    await toggle.click();
    await page.waitForTimeout(250);
  }
  for (const path of await reachableLinks(page)) seen.add(path);
  return [...seen].sort();
}

/** The page and its navigation panels back at their top, for the screenshot. */
const scrollToTop = (page: Page) =>
  page.evaluate(() => {
    window.scrollTo(0, 0);
    for (const panel of document.querySelectorAll('aside, .layout-drawer .p-sidebar-content'))
      panel.scrollTop = 0;
  });

/** Opens the customizer and picks the style (the tiles are in the customizer's order, any language). */
async function chooseStyle(t: Test, page: Page, style: NavStyle): Promise<void> {
  await page.locator('.app-topbar button:has(.pi-palette)').click();
  const group = page.locator('.customizer [role="radiogroup"]').last();
  await group.waitFor();
  const tile = group.getByRole('radio').nth(navStyles.indexOf(style));
  await tile.click();
  t.equal(await tile.getAttribute('aria-checked'), 'true', `${style} is chosen`);
  await page.keyboard.press('Escape');
  await page.locator('.customizer').waitFor({ state: 'hidden' });
  await page.waitForTimeout(300);
}

/** Brings the menu on screen the way the style offers it to a pointer. */
async function showMenu(page: Page, style: NavStyle, phone: boolean, rtl: boolean) {
  const viewport = page.viewportSize() ?? { width: 1440, height: 900 };
  if (behindButton(style, phone)) {
    await page.locator('[data-nav-toggle]').click();
    await page.locator(`${NAV} a[href^="/"]`).first().waitFor();
  } else if (style === 'reveal') {
    // The pointer at the window's edge, on the handle.
    await page.mouse.move(rtl ? viewport.width - 4 : 4, viewport.height / 2);
  } else if (style === 'mini' || style === 'collapsible') {
    await page.locator('aside.layout-sidebar').hover({ position: { x: 20, y: 200 } });
  }
  await page.waitForTimeout(350);
}

/** Keyboard only, from the top of a freshly loaded page: the menu's first entry and one group. */
async function keyboardReachesMenu(t: Test, page: Page, style: NavStyle): Promise<void> {
  await page.reload();
  await page.locator('.layout').first().waitFor();
  const focusIn = (selector: string) =>
    page.evaluate((s) => Boolean(document.activeElement?.closest(s)), selector);
  const tabUntil = async (selector: string) => {
    for (let presses = 0; presses < 60; presses++) {
      if (await focusIn(selector)) return true;
      await page.keyboard.press('Tab');
    }
    return focusIn(selector);
  };
  if (behindButton(style, false)) {
    t.ok(await tabUntil('[data-nav-toggle]'), `${style}: Tab reaches the menu button`);
    await page.keyboard.press('Enter');
    await page.waitForTimeout(400);
  }
  t.ok(await tabUntil(`${NAV} a, ${NAV} button`), `${style}: Tab reaches the menu`);
  await page.waitForTimeout(300);
  const onScreen = await page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return Boolean(hit && (hit === element || element.contains(hit)));
  });
  t.ok(onScreen, `${style}: the focused entry is on screen`);
  t.ok(await tabUntil(`${NAV} [aria-expanded="false"]`), `${style}: Tab reaches a folded group`);
  const controls = await page.evaluate(() => document.activeElement?.getAttribute('aria-controls'));
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  t.equal(
    await page.evaluate(() => document.activeElement?.getAttribute('aria-expanded')),
    'true',
    `${style}: Enter opens the group`,
  );
  t.ok(controls && (await tabUntil(`#${controls}`)), `${style}: Tab goes on into the opened group`);
  // Escape closes what the keyboard opened (a flyout, the overlay, the drawer).
  await page.keyboard.press('Escape');
  await page.waitForTimeout(300);
}

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

    // Right to left, in Arabic.
    await page.evaluate(() => window.localStorage.setItem('language', 'ar'));
    await page.reload();
    await page.locator('.layout').first().waitFor();
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
  });

  journey.summary(t);
});
