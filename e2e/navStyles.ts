/**
 * The steps of the navigation styles journeys (`navStyles.e2e.ts`, `navStyles.rtl.e2e.ts`): the
 * Superadmin's expected menu, choosing a style in the customizer, showing its menu, unfolding every
 * group and flyout to collect the reachable links, and the keyboard's way into the menu.
 */
import type { Page } from 'playwright-core';
import type { Test } from 'tap';
import { filterMenu, menu, menuRoutes } from '../client/src/app/menu.ts';
import { navStyles } from '../client/src/state/settings.ts';
import { permissionsFor, Role } from '../domain/permissions.ts';

export type NavStyle = (typeof navStyles)[number];

/** The app's navigation (not the footer's legal links). */
export const NAV = 'nav:not(.footer-links)';

/** The Superadmin's menu entries: every permission, but not the driver's own page. */
export const expected = [
  ...new Set(menuRoutes(filterMenu(menu, permissionsFor(Role.Superadmin), ['Superadmin']))),
].sort();

export const englishNames: Record<NavStyle, string> = {
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
export const behindButton = (style: NavStyle, phone: boolean) =>
  phone || style === 'overlay' || style === 'drawer';

/** WCAG relative luminance of a computed `rgb(r, g, b)` colour. */
export function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? ['255', '255', '255'])
    .slice(0, 3)
    .map((value) => Number(value) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The menu's links a user can see and click now: on screen, not covered, not hidden. */
export const reachableLinks = (page: Page): Promise<string[]> =>
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
export async function unfoldEverything(page: Page): Promise<string[]> {
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
export const scrollToTop = (page: Page) =>
  page.evaluate(() => {
    window.scrollTo(0, 0);
    for (const panel of document.querySelectorAll('aside, .layout-drawer .p-sidebar-content'))
      panel.scrollTop = 0;
  });

/** Opens the customizer and picks the style (the tiles are in the customizer's order, any language). */
export async function chooseStyle(t: Test, page: Page, style: NavStyle): Promise<void> {
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
export async function showMenu(page: Page, style: NavStyle, phone: boolean, rtl: boolean) {
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
export async function keyboardReachesMenu(t: Test, page: Page, style: NavStyle): Promise<void> {
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
