/**
 * The keyboard alone: the shipper posts a load (Tab, Shift+Tab, Enter, Space, arrows and typing), a
 * carrier makes an offer on it, and the driver's page, the shipper's tracking screen (its Share
 * dialog opened with Enter and closed with Escape) and the shared tracking page are toured with Tab.
 * On each screen toured, every control a user could click is reached by Tab; on every screen, each
 * control the keyboard reaches shows where the focus is (an outline or a ring, on the control or
 * on the box PrimeReact draws for it).
 */
import type { BrowserContext, Page } from 'playwright-core';
import tap, { type Test } from 'tap';
import { apiGet, apiToken, demo, openPage, signIn, withBrowser } from './harness.ts';
import { postLoadByKeyboard, press, tabTo } from './steps.ts';

type Stop = { what: string; shown: boolean };
declare global {
  interface Window {
    focusStops: Stop[];
  }
}

/**
 * Records, for every element the keyboard focuses, whether a focus indicator shows (read a moment
 * after the focus moved, once the component has drawn its focus state and its transitions ended). Programmatic focus targets
 * (tabindex -1: the main area a skip link jumps to, a dialog) are not stops a user tabs to.
 */
function recordFocus(): void {
  window.focusStops = [];
  const indicates = (element: Element | null): boolean => {
    if (!element) return false;
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    return outline || (style.boxShadow !== 'none' && style.boxShadow !== '');
  };
  document.addEventListener(
    'focusin',
    (event) => {
      const element = event.target as HTMLElement;
      if (!(element instanceof HTMLElement) || element.tabIndex < 0) return;
      setTimeout(() => {
        if (document.activeElement !== element) return;
        const around = [
          element,
          element.parentElement,
          element.parentElement?.parentElement ?? null,
          element.nextElementSibling,
          element.previousElementSibling,
        ];
        // The indicator as it ends up: a focus ring that fades in (PrimeReact's 0.2 s transitions)
        // may not have started yet on a busy machine, so its transitions are run to their end first.
        for (const near of around)
          for (const animation of near?.getAnimations() ?? [])
            if (animation instanceof CSSTransition) animation.finish();
        const label =
          element.getAttribute('aria-label') ??
          element.textContent?.trim().slice(0, 40) ??
          element.getAttribute('name') ??
          '';
        window.focusStops.push({
          what: `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].slice(0, 2).join('.')} "${label}"`,
          shown: around.some(indicates),
        });
      }, 120);
    },
    true,
  );
}

/** The focus stops recorded since the last call that showed no indicator. */
async function unseenFocus(page: Page): Promise<string[]> {
  await page.waitForTimeout(150);
  return page.evaluate(() => {
    const stops = window.focusStops.splice(0);
    return [...new Set(stops.filter((stop) => !stop.shown).map((stop) => stop.what))];
  });
}

/**
 * Tabs through the whole page once, from the top, and answers the controls of `scope` a user can
 * click that Tab never reached (of a radio group, one radio is enough: arrows move within it).
 */
async function tourByTab(page: Page, scope = 'body'): Promise<{ stops: number; missed: string[] }> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    for (const marked of document.querySelectorAll('[data-kb-reached]'))
      marked.removeAttribute('data-kb-reached');
  });
  let stops = 0;
  for (let presses = 0; presses < 200; presses++) {
    await page.keyboard.press('Tab');
    const fresh = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      if (!active || active === document.body) return false;
      if (active.hasAttribute('data-kb-reached')) return false;
      active.setAttribute('data-kb-reached', '');
      return true;
    });
    if (!fresh) break;
    stops++;
  }
  const missed = await page.evaluate((root) => {
    const candidates = document
      .querySelector(root)!
      .querySelectorAll<HTMLElement>(
        'a[href], button, input:not([type="hidden"]), select, textarea, [tabindex]',
      );
    const radioGroups = new Set<string>();
    const result: string[] = [];
    for (const element of candidates) {
      if (element.tabIndex < 0 || element.matches(':disabled')) continue;
      if (element.closest('[inert], [aria-hidden="true"]')) continue;
      if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      if (element instanceof HTMLInputElement && element.type === 'radio') {
        const group = element.name;
        if (radioGroups.has(group)) continue;
        const reached = [
          ...document.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${group}"]`),
        ].some((radio) => radio.hasAttribute('data-kb-reached'));
        radioGroups.add(group);
        if (reached) continue;
      } else if (element.hasAttribute('data-kb-reached')) continue;
      result.push(
        `${element.tagName.toLowerCase()} "${element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? ''}"`,
      );
    }
    return result;
  }, scope);
  return { stops, missed };
}

await withBrowser(tap, async (server, browser) => {
  const started = Date.now();
  const contexts: BrowserContext[] = [];
  tap.teardown(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
  });
  const open = async (options: Parameters<typeof browser.newContext>[0] = {}) => {
    const context = await browser.newContext({
      viewport: { width: 1366, height: 900 },
      locale: 'en-US',
      timezoneId: 'America/Chicago',
      ...options,
    });
    contexts.push(context);
    await context.addInitScript(recordFocus);
    return openPage(context);
  };
  const tag = `KB${Date.now().toString(36).toUpperCase()}`;
  const shipper = await open();
  const day = 24 * 3600_000;

  await tap.test('the shipper posts a load with the keyboard', async (t: Test) => {
    await signIn(shipper.page, server.url, demo.shipper.email, demo.shipper.password);
    await unseenFocus(shipper.page);
    const now = Date.now();
    await postLoadByKeyboard(shipper.page, server.url, {
      commodity: `Keyboard parts ${tag}`,
      refNumber: tag,
      weight: '21000',
      timeZone: 'America/Chicago',
      pickupAt: new Date(now + 3 * day),
      dropoffAt: new Date(now + 5 * day),
      expiresAt: new Date(now + 2 * day),
      stops: [
        { place: 'Chicago', facility: `Dock ${tag}` },
        { place: 'Indianapolis', facility: 'Cross-dock' },
        { place: 'Louisville', facility: 'Foods DC' },
      ],
    });
    t.pass('the load is posted, and the form went back to the loads');
    t.same(
      await unseenFocus(shipper.page),
      [],
      'every focused control of the load form shows its focus',
    );
  });

  await tap.test('a carrier makes an offer with the keyboard', async (t: Test) => {
    const carrier = await open();
    await signIn(carrier.page, server.url, demo.carrier.email, demo.carrier.password);
    const token = await apiToken(server.url, demo.carrier.email, demo.carrier.password);
    const loads = await apiGet<{ data: { id: string }[] }>(
      server.url,
      token,
      `/loads/carrier?pageSize=5&search=${tag}`,
    );
    t.equal(loads.data.length, 1, 'the posted load is on the marketplace');
    await unseenFocus(carrier.page);
    // From the marketplace's row to the offer screen: the row's action by Tab and Enter.
    const row = carrier.page.getByRole('row').filter({ hasText: tag }).first();
    await row.waitFor({ timeout: 30_000 });
    await press(carrier.page, row.getByRole('button', { name: 'Make an offer' }));
    await carrier.page.waitForURL(/\/offer\/load/, { timeout: 30_000 });
    const price = carrier.page.getByLabel('Price (USD)');
    await price.waitFor({ timeout: 30_000 });
    // The map comes in its own chunk after the form: tour the page once its controls are up, as a
    // user who waits for the screen would.
    await carrier.page.locator('main .ol-zoom-in').waitFor({ timeout: 30_000 });
    const { missed } = await tourByTab(carrier.page, 'main');
    t.same(missed, [], 'every control of the offer screen is reached by Tab');
    await tabTo(carrier.page, price);
    await carrier.page.keyboard.type('2750');
    await tabTo(carrier.page, carrier.page.getByLabel('Truck'));
    await carrier.page.keyboard.type('KB-7');
    await press(carrier.page, carrier.page.getByRole('button', { name: 'Send the offer' }));
    await carrier.page
      .getByRole('heading', { name: 'Your offer' })
      .first()
      .waitFor({ timeout: 30_000 });
    t.pass('the offer is sent');
    t.same(
      await unseenFocus(carrier.page),
      [],
      'every focused control of the offer screen shows its focus',
    );
    t.same(carrier.errors, [], 'no page errors');
  });

  await tap.test("the driver's page, by Tab", async (t: Test) => {
    const driver = await open({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await signIn(driver.page, server.url, demo.driver.email, demo.driver.password);
    await driver.page.goto(`${server.url}/driver`);
    await driver.page.locator('main h1').first().waitFor({ timeout: 30_000 });
    await driver.page
      .locator('.p-skeleton')
      .first()
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    await unseenFocus(driver.page);
    const { stops, missed } = await tourByTab(driver.page);
    t.ok(stops > 3, `${stops} stops by Tab`);
    t.same(missed, [], "every control of the driver's page is reached by Tab");
    t.same(
      await unseenFocus(driver.page),
      [],
      "every focused control of the driver's page shows its focus",
    );
    t.same(driver.errors, [], 'no page errors');
  });

  await tap.test('the tracking screen and the shared tracking page, by Tab', async (t: Test) => {
    const token = await apiToken(server.url, demo.shipper.email, demo.shipper.password);
    const tours = await apiGet<{ data: { id: string; statusName: string }[] }>(
      server.url,
      token,
      '/tours?pageSize=50',
    );
    const tourId = tours.data.find((row) => row.statusName === 'In Transit')!.id;
    await shipper.page.goto(`${server.url}/track/tour/${tourId}`);
    await shipper.page.locator('.live-badge.is-live').waitFor({ timeout: 30_000 });
    await unseenFocus(shipper.page);
    const inside = await tourByTab(shipper.page, 'main');
    t.same(inside.missed, [], 'every control of the tracking screen is reached by Tab');
    const share = shipper.page.getByRole('button', { name: 'Share' });
    await press(shipper.page, share);
    const dialog = shipper.page.getByRole('dialog', { name: 'Share the tracking' });
    await dialog.waitFor();
    await press(shipper.page, dialog.getByRole('button', { name: 'Create link' }));
    const link = await dialog.getByRole('textbox', { name: 'Tracking link' }).inputValue();
    await shipper.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    t.ok(
      await share.evaluate((element) => element === document.activeElement),
      'Escape closes the dialog and the focus goes back to Share',
    );
    t.same(
      await unseenFocus(shipper.page),
      [],
      'every focused control of the tracking screen shows its focus',
    );

    const receiver = await open({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await receiver.page.goto(link);
    await receiver.page.locator('.live-badge.is-live').waitFor({ timeout: 30_000 });
    await unseenFocus(receiver.page);
    const shared = await tourByTab(receiver.page);
    t.ok(shared.stops > 1, `${shared.stops} stops by Tab on the shared page`);
    t.same(shared.missed, [], 'every control of the shared page is reached by Tab');
    t.same(
      await unseenFocus(receiver.page),
      [],
      'every focused control of the shared page shows its focus',
    );
    t.same(shipper.errors, [], 'no page errors');
  });

  tap.comment(`keyboard: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});
