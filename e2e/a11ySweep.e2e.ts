/**
 * The accessibility sweep: axe on every route of every role's menu (shipper, carrier, driver,
 * Superadmin), a tour's tracking screen and a load's offer screen, the dialogs they open (`dialogs`),
 * the public pages, the shared tracking page and the dock link page, in two passes that between them cover both themes, right
 * to left and a phone: the light theme on a phone (390 × 844), and Arabic in the dark theme on a
 * desktop. Any serious or critical finding fails its screen; the moderate and minor ones are listed
 * by rule at the end, with the count of screens and of findings by impact for each pass.
 *
 * Cheap by design: one browser context per role and pass, signed in once; every further screen is
 * reached by the app's own navigation to its URL (no reload), and is checked as soon as its page
 * has put its heading up and its placeholders have gone. Two contexts work at once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import tap, { type Test } from 'tap';
import { filterMenu, menu, menuRoutes } from '../client/src/app/menu.ts';
import { permissionsFor, Role, roles } from '../domain/permissions.ts';
import {
  type AxeFinding,
  apiGet,
  apiToken,
  axeAll,
  countFindings,
  demo,
  describeCounts,
  describeFindings,
  emptyCounts,
  failing,
  type ImpactCounts,
  openPage,
  SHOTS,
  signIn,
  withBrowser,
} from './harness.ts';

type Mode = {
  name: string;
  context: BrowserContextOptions;
  /** The theme settings and the language the browser remembers before the app loads. */
  settings: { mode: 'light' | 'dark' };
  language: 'en' | 'ar';
};

const modes: Mode[] = [
  {
    name: 'light, phone',
    context: {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      colorScheme: 'light',
      locale: 'en-US',
    },
    settings: { mode: 'light' },
    language: 'en',
  },
  {
    name: 'Arabic (right to left), dark',
    context: { viewport: { width: 1366, height: 900 }, colorScheme: 'dark', locale: 'ar' },
    settings: { mode: 'dark' },
    language: 'ar',
  },
];

const roleName = (id: number) => roles.find((role) => role.id === id)!.name;
/** The routes of a role's menu, as the shell lists them. */
const menuOf = (id: number) => [
  ...new Set(menuRoutes(filterMenu(menu, permissionsFor(id), [roleName(id)]))),
];

const FOLDER = join(SHOTS, 'a11y-sweep');

/** The app's texts in one language (the main file and every area's), to find a control by its label. */
const I18N = join(import.meta.dirname, '../client/src/i18n');
const textsOf = (language: string): Record<string, unknown>[] => [
  JSON.parse(readFileSync(join(I18N, `${language}.json`), 'utf8')),
  ...readdirSync(join(I18N, 'areas')).map((area) =>
    JSON.parse(readFileSync(join(I18N, 'areas', area, `${language}.json`), 'utf8')),
  ),
];
const texts = { en: textsOf('en'), ar: textsOf('ar') };
function label(language: 'en' | 'ar', key: string): string {
  for (const file of texts[language]) {
    const found = key
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], file);
    if (typeof found === 'string') return found;
  }
  throw new Error(`no text ${key} in ${language}`);
}

/**
 * The dialogs a screen opens, by the label of the control that opens them: each is swept open, in
 * both passes, then closed with Escape. The theme settings panel opens from every signed-in screen.
 */
const dialogs: Record<string, Record<string, string[]>> = {
  shipper: { '/track/tour/': ['sharedTrack.share'], '/tours': ['tours.actions.view'] },
  carrier: {
    '/loads/carrier': ['marketplace.search.save'],
    '/tours': ['tours.actions.view', 'tours.actions.assign'],
  },
  superadmin: { '/admin/projections': ['readModels.rebuild', 'customizer.open'] },
  driver: { '/driver': ['customizer.open'] },
};

/** The app's own navigation to `path` (wouter follows pushState), then its page at rest. */
async function visit(page: Page, path: string): Promise<void> {
  // Each route renders in its own keyed container: the old one is marked, the new one awaited.
  // (A page already there, such as the role's home after signing in, is checked as it is.)
  await page.evaluate((target) => {
    if (window.location.pathname === target) return;
    for (const old of document.querySelectorAll('.route-transition'))
      old.setAttribute('data-sweep-seen', '');
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page
    .locator('.route-transition:not([data-sweep-seen]) :is(h1, h2):visible')
    .first()
    .waitFor({ timeout: 20_000 });
  await page
    .locator('.p-skeleton, [aria-busy="true"]')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
}

type Tally = { screens: number; counts: ImpactCounts; rules: Map<string, number> };

await withBrowser(tap, async (server, browser: Browser) => {
  await tap.test('every screen of every role, the public pages and the shared links', (t: Test) =>
    sweepAll(t, server.url, browser),
  );
});

async function sweepAll(t: Test, url: string, browser: Browser): Promise<void> {
  const started = Date.now();
  const shipperToken = await apiToken(url, demo.shipper.email, demo.shipper.password);
  const carrierToken = await apiToken(url, demo.carrier.email, demo.carrier.password);
  const tours = await apiGet<{ data: { id: string; statusName: string }[] }>(
    url,
    shipperToken,
    '/tours?pageSize=50',
  );
  const inTransit = tours.data.find((row) => row.statusName === 'In Transit')!.id;
  const dispatched = tours.data.find((row) => row.statusName === 'Dispatched')!.id;
  const openLoad = (
    await apiGet<{ data: { id: string }[] }>(url, carrierToken, '/loads/carrier?pageSize=1')
  ).data[0]!.id;
  const post = async (path: string) => {
    const response = await fetch(`${url}/api${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shipperToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    if (!response.ok) throw new Error(`POST ${path}: ${response.status}`);
    return (await response.json()) as { url: string };
  };
  const shared = (await post(`/tours/${inTransit}/share`)).url;
  const dock = (await post(`/tours/${dispatched}/dock-link`)).url;

  const publicPages = [
    '/',
    '/signin',
    '/signup/select',
    '/signup/shipper',
    '/signup/carrier',
    '/forget-password',
    '/terms',
    '/privacy',
    '/error-pages/error-404',
    shared,
    dock,
  ];
  const units = [
    {
      who: 'superadmin',
      account: demo.admin,
      paths: menuOf(Role.Superadmin),
    },
    {
      who: 'shipper',
      account: demo.shipper,
      paths: [...menuOf(Role.Shipper), `/track/tour/${inTransit}`],
    },
    {
      who: 'carrier',
      account: demo.carrier,
      paths: [...menuOf(Role.Carrier), `/offer/load/${openLoad}`],
    },
    { who: 'driver', account: demo.driver, paths: menuOf(Role.Driver) },
    { who: 'public', account: null, paths: publicPages },
  ];
  const tallies = new Map<string, Tally>(
    modes.map((mode) => [mode.name, { screens: 0, counts: emptyCounts(), rules: new Map() }]),
  );

  const sweep = async (mode: Mode, unit: (typeof units)[number]) => {
    const tally = tallies.get(mode.name)!;
    const context = await browser.newContext(mode.context);
    await context.addInitScript(
      ({ settings, language }) => {
        window.localStorage.setItem('settings', JSON.stringify(settings));
        window.localStorage.setItem('language', language);
      },
      { settings: mode.settings, language: mode.language },
    );
    const { page, errors } = await openPage(context);
    /** axe on the screen as it stands; serious and critical findings fail it, the rest are tallied. */
    const check = async (what: string) => {
      const findings: AxeFinding[] = await axeAll(page);
      tally.screens++;
      countFindings(tally.counts, findings);
      for (const finding of findings.filter((finding) => !failing(finding)))
        tally.rules.set(
          `${finding.impact} ${finding.id}`,
          (tally.rules.get(`${finding.impact} ${finding.id}`) ?? 0) + finding.nodes,
        );
      const serious = findings.filter(failing);
      t.same(
        serious.map((finding) => finding.id),
        [],
        `${mode.name}, ${unit.who} ${what}: no serious or critical finding${serious.length ? `: ${describeFindings(serious)}` : ''}`,
      );
      if (serious.length)
        await page
          .screenshot({
            path: join(
              FOLDER,
              `${mode.language}-${mode.settings.mode}-${unit.who}${what.replace(/[^\w.-]+/g, '-').slice(0, 60)}.png`,
            ),
          })
          .catch(() => undefined);
    };
    try {
      const [first, ...rest] = unit.paths;
      if (unit.account) {
        await signIn(page, url, unit.account.email, unit.account.password);
        await visit(page, first!);
      } else {
        await page.goto(`${url}${first}`);
        await page.locator(':is(h1, h2):visible').first().waitFor({ timeout: 20_000 });
      }
      t.same(
        await page.evaluate(() => [
          document.documentElement.dataset.mode,
          document.documentElement.dir,
        ]),
        [mode.settings.mode, mode.language === 'ar' ? 'rtl' : 'ltr'],
        `${mode.name}, ${unit.who}: the theme and the direction asked for`,
      );
      for (const [index, path] of [first!, ...rest].entries()) {
        if (index > 0 && unit.account) await visit(page, path);
        else if (index > 0) {
          // Signed out, each public page is loaded by its address (the landing page has its own layout).
          await page.goto(`${url}${path}`);
          await page.locator(':is(h1, h2):visible').first().waitFor({ timeout: 20_000 });
        }
        if (!path.includes('error-404'))
          t.notMatch(new URL(page.url()).pathname, /error-404/, `${path} is not the 404 page`);
        await check(path);
        const opened = Object.entries(dialogs[unit.who] ?? {}).find(([prefix]) =>
          prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix,
        );
        for (const key of opened?.[1] ?? []) {
          const text = label(mode.language, key);
          const control = page
            .getByRole('button', { name: text })
            .or(page.locator('main button').filter({ hasText: text }))
            .first();
          await control.click({ timeout: 20_000 });
          const dialog = page.locator('[role="dialog"]:visible').first();
          await dialog.waitFor({ timeout: 20_000 });
          await page.waitForTimeout(400); // its opening transition
          await check(`${path} (${key})`);
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'hidden', timeout: 20_000 });
        }
      }
      t.same(errors, [], `${mode.name}, ${unit.who}: no page errors`);
    } catch (error) {
      await page
        .screenshot({ path: join(FOLDER, `${mode.language}-${unit.who}-stuck.png`) })
        .catch(() => undefined);
      throw new Error(`${mode.name}, ${unit.who} at ${page.url()}: ${(error as Error).message}`);
    } finally {
      await context.close();
    }
  };

  // Two contexts at once (the machine's two cores): the biggest menus first.
  const queue = modes.flatMap((mode) => units.map((unit) => () => sweep(mode, unit)));
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift())
      await job().catch((error: Error) => t.fail(error.message.split('\n')[0]!));
  };
  await Promise.all([worker(), worker()]);

  let screens = 0;
  for (const [name, tally] of tallies) {
    screens += tally.screens;
    const listed = [...tally.rules]
      .sort((a, b) => b[1] - a[1])
      .map(([rule, nodes]) => `${rule} (${nodes})`)
      .join(', ');
    t.comment(
      `a11y sweep, ${name}: ${tally.screens} screens; ${describeCounts(tally.counts)}${listed ? `; moderate and minor: ${listed}` : ''}`,
    );
  }
  t.comment(
    `a11y sweep: ${screens} screens checked in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}
