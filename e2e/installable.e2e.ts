/**
 * The driver's app installs and opens without a network. The demo driver signs in on a phone and
 * opens /driver: the page links the manifest, which parses with the app's name, start URL, scope,
 * display and four PNG icons (192 and 512, plain and maskable) that load; Chromium reports no
 * installability errors (what Lighthouse's installability check asked). The service worker controls
 * the page after a reload; offline, /driver still opens with the driver's page header (the cached
 * shell, not Chromium's offline page), and no cache holds an /api/ answer. Signing out empties the
 * runtime cache.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  demo,
  Journey,
  openPage,
  signIn,
  withBrowser,
} from './harness.ts';

const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
  locale: 'en-US',
};

type Manifest = {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
};

await withBrowser(t, async (server) => {
  const journey = new Journey('installable');
  t.teardown(() => journey.summary(t));

  await t.test(
    "the driver's page installs, and opens offline from the service worker's shell",
    async (t) => {
      // A persistent profile: Chromium never offers to install from an incognito context (a plain newContext is one).
      const profile = mkdtempSync(join(tmpdir(), 'freight-installable-'));
      const { chromium } = await import('playwright-core');
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        args: CHROMIUM_ARGS,
        colorScheme: 'dark',
        ...PHONE,
      });
      t.teardown(async () => {
        await context.close().catch(() => undefined);
        rmSync(profile, { recursive: true, force: true });
      });
      const { page, errors } = await openPage(context);
      await signIn(page, server.url, demo.driver.email, demo.driver.password);
      await page.goto(`${server.url}/driver`);
      const header = page.getByRole('heading', { level: 1, name: 'My tour' });
      await header.waitFor({ timeout: 30_000 });

      // The manifest: linked, served as a web app manifest, with the fields an installed app needs.
      const href = await page.locator('link[rel="manifest"]').getAttribute('href');
      t.equal(href, '/manifest.webmanifest', 'the page links the manifest');
      const response = await page.request.get(`${server.url}${href}`);
      t.equal(response.status(), 200, 'the manifest answers 200');
      t.match(
        response.headers()['content-type'],
        /^application\/manifest\+json/,
        'as application/manifest+json',
      );
      const manifest = (await response.json()) as Manifest;
      t.match(
        manifest,
        {
          name: /Freight Marketplace/,
          short_name: String,
          start_url: '/driver',
          scope: '/',
          display: 'standalone',
          theme_color: /^#/,
          background_color: /^#/,
        },
        'name, start URL, scope, display and colours',
      );
      for (const size of ['192x192', '512x512']) {
        for (const purpose of ['any', 'maskable']) {
          const icon = manifest.icons.find(
            (entry) =>
              entry.sizes === size && (entry.purpose ?? 'any').split(' ').includes(purpose),
          );
          t.ok(icon, `a ${purpose} icon of ${size}`);
          if (!icon) continue;
          t.equal(icon.type, 'image/png', `the ${purpose} ${size} icon is a PNG`);
          const image = await page.request.get(`${server.url}${icon.src}`);
          t.equal(image.status(), 200, `${icon.src} answers 200`);
          t.equal(image.headers()['content-type'], 'image/png', `${icon.src} is image/png`);
          const bytes = await image.body();
          t.equal(
            bytes.readUInt32BE(16),
            Number(size.split('x')[0]),
            `${icon.src} is ${size} pixels`,
          );
        }
      }
      const worker = await page.request.get(`${server.url}/sw.js`);
      t.equal(worker.status(), 200, '/sw.js answers 200');
      t.equal(worker.headers()['cache-control'], 'no-cache', 'and is revalidated on every visit');
      t.match(worker.headers()['content-type'], /javascript/, 'as a script');

      // The service worker: ready, and controlling the page after a reload.
      const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
      t.equal(scope, `${server.url}/`, 'the service worker is ready, its scope the whole app');
      await page.reload();
      await header.waitFor({ timeout: 30_000 });
      t.equal(
        await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null),
        `${server.url}/sw.js`,
        'after a reload it controls the page',
      );

      // What Lighthouse's installability audit read: Chromium's own verdict on the manifest and worker.
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      t.same(
        installabilityErrors.map((error) => error.errorId),
        [],
        'Chromium finds nothing standing in the way of installing',
      );
      const { url: manifestUrl, errors: manifestErrors } = await cdp.send('Page.getAppManifest');
      t.equal(manifestUrl, `${server.url}/manifest.webmanifest`, 'Chromium fetched the manifest');
      t.same(manifestErrors, [], 'and parsed it without errors');
      await journey.check(t, page, 'driver-online');

      // Offline: the shell opens /driver, the page header shows.
      await context.setOffline(true);
      await page.reload();
      await t.resolves(
        header.waitFor({ timeout: 30_000 }),
        "offline, /driver shows the driver's page header from the cached shell",
      );
      t.notOk(
        await page.locator('#main-frame-error, .offline').count(),
        "not Chromium's offline page",
      );
      await journey.check(t, page, 'driver-offline');

      const cached = await page.evaluate(async () => {
        const entries: string[] = [];
        for (const name of await caches.keys()) {
          for (const request of await (await caches.open(name)).keys())
            entries.push(`${name} ${new URL(request.url).pathname}`);
        }
        return entries;
      });
      t.ok(
        cached.some((entry) => / \/index\.html$/.test(entry)),
        'the shell (index.html) is cached',
      );
      t.ok(
        cached.some((entry) => / \/assets\/DriverPage-[\w-]+\.js$/.test(entry)),
        "and the driver page's code",
      );
      t.same(
        cached.filter((entry) => entry.includes(' /api/')),
        [],
        'no cache holds an /api/ answer',
      );
      await context.setOffline(false);

      // Sign-out empties the runtime cache: what was cached while signed in is gone. The sign-in page
      // that follows may cache its own files again (public, hashed), which the worker does as it loads them.
      await page.goto(`${server.url}/driver`);
      await header.waitFor({ timeout: 30_000 });
      const runtimeEntries = () =>
        page.evaluate(async () =>
          (await caches.has('runtime-assets'))
            ? (await (await caches.open('runtime-assets')).keys()).map(
                (request) => new URL(request.url).pathname,
              )
            : [],
        );
      const signedIn = await runtimeEntries();
      t.ok(signedIn.length > 0, `${signedIn.length} files in the runtime cache while signed in`);
      await page.getByRole('button', { name: /^User menu of/ }).click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      await page.waitForURL((target) => target.pathname.startsWith('/signin'), { timeout: 30_000 });
      await page
        .getByRole('button', { name: /sign in/i })
        .first()
        .waitFor({ timeout: 30_000 });
      const left = await page
        .waitForFunction(
          async (before) => {
            const now = (await caches.has('runtime-assets'))
              ? (await (await caches.open('runtime-assets')).keys()).map(
                  (request) => new URL(request.url).pathname,
                )
              : [];
            return now.filter((path) => before.includes(path)).length === 0 ? true : null;
          },
          signedIn,
          { timeout: 10_000 },
        )
        .then(
          () => [] as string[],
          async () => (await runtimeEntries()).filter((path) => signedIn.includes(path)),
        );
      t.same(left, [], 'after signing out nothing cached while signed in is left');
      const afterwards = await runtimeEntries();
      t.same(
        afterwards.filter((path) => !path.startsWith('/assets/')),
        [],
        `only the sign-in page's own files are cached again (${afterwards.length})`,
      );
      t.equal(
        await page.evaluate(() => localStorage.getItem('user')),
        null,
        'nor the user kept for offline starts',
      );
      t.same(errors, [], 'no page errors');
    },
  );
});
