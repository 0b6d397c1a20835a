/**
 * T10 (phone pages): the pages people open on a phone in a truck or at a dock, on the demo's data:
 * the driver's page (signed in, a tour in transit, location shared), the receiver's shared tracking
 * page and the dock link of a pickup release (both signed out), and a carrier's marketplace. For each:
 * the bytes of a first visit on the wire (every response as sent, compressed, headers included), the
 * bytes of a second visit in the same browser (what the cache and the driver's service worker do not
 * already hold), and Lighthouse's phone scores. The limits: 400 KB a first visit, every Lighthouse
 * category 0.90 or more.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { seedDemo } from '../../server/identity/bootstrap.ts';
import { seedMarketplaceDemo } from '../../server/demo/marketplaceSeed.ts';
import { report } from '../lib.ts';
import { startBenchApp } from '../setup.ts';
import {
  BYTE_LIMIT,
  breakdown,
  CHROMIUM,
  CHROMIUM_ARGS,
  firstVisit,
  kb,
  type Measure,
  SCORE_LIMIT,
  scoreLine,
  signedInState,
  visitWith,
} from './client.ts';
import { lighthouseScores, type Scores } from './lighthouse.ts';

const PASSWORD = 'demo12345';
const SHIPPER = 'shipper1@demo.freight.local';
const CARRIER = 'carrier1@demo.freight.local';
const DRIVER = 'carrier1.driver1@demo.freight.local';
/** A phone: the viewport Lighthouse's own phone profile emulates. */
const PHONE: BrowserContextOptions = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
  geolocation: { latitude: 38.63, longitude: -90.2 },
  permissions: ['geolocation'],
};

async function api<T>(base: string, path: string, token: string | null, body?: unknown) {
  const response = await fetch(`${base}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const signIn = async (base: string, email: string) =>
  (await api<{ accessToken: string }>(base, '/login', null, { email, password: PASSWORD }))
    .accessToken;

type Page = {
  path: string;
  /** The account a signed-in page is opened with; none for the public pages. */
  email: string | null;
};
type Result = Page & { first: Measure; second: Measure; scores: Scores };

/**
 * A Lighthouse run of a signed-in page: the profile signs in through the page first, then the
 * cache, the cache storage and any service worker are emptied (the session in local storage and
 * IndexedDB stays), so Lighthouse sees a first visit of a signed-in user.
 */
function signInFirst(base: string, email: string) {
  return async (port: number) => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
    try {
      const context = browser.contexts()[0]!;
      const page = await context.newPage();
      await page.goto(`${base}/signin`);
      await page
        .getByLabel(/e-?mail|username/i)
        .first()
        .fill(email);
      await page.locator('input[type="password"]').first().fill(PASSWORD);
      await page.locator('form button[type="submit"], form button').first().click();
      await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.clearBrowserCache');
      await cdp.send('Storage.clearDataForOrigin', {
        origin: base,
        storageTypes: 'cache_storage,service_workers',
      });
      await page.close();
    } finally {
      await browser.close().catch(() => undefined);
    }
  };
}

async function measure(browser: Browser, base: string, page: Page): Promise<Result> {
  const state = page.email ? await signedInState(browser, base, page.email, PASSWORD) : undefined;
  const context = await browser.newContext({ ...PHONE, ...(state ? { storageState: state } : {}) });
  try {
    const first = await firstVisit(context, `${base}${page.path}`);
    // The next visit in the same browser: the service worker (the driver's page installs it) and the
    // cache answer what has not changed.
    const second = await visitWith(await context.newPage(), `${base}${page.path}`);
    const { scores } = await lighthouseScores(
      `${base}${page.path}`,
      CHROMIUM,
      CHROMIUM_ARGS,
      page.email ? signInFirst(base, page.email) : undefined,
    );
    return { ...page, first, second, scores };
  } finally {
    await context.close();
  }
}

export async function t10Phone() {
  if (!existsSync(CHROMIUM)) {
    console.log(
      `T10 phone pages: skipped, no Chromium at ${CHROMIUM} (apt-get install -y chromium)`,
    );
    return;
  }
  execFileSync(process.execPath, ['scripts/buildClient.mjs'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const { chromium } = await import('playwright-core');
  const bench = await startBenchApp('pglite');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    await seedDemo(bench.platform);
    await seedMarketplaceDemo(bench.platform);
    const shipper = await signIn(bench.url, SHIPPER);
    const tours = await api<{ data: { id: string; statusName: string }[] }>(
      bench.url,
      '/tours?pageSize=50',
      shipper,
    );
    const onTheRoad = tours.data.find((row) => row.statusName === 'In Transit');
    const dispatched = tours.data.find((row) => row.statusName === 'Dispatched');
    if (!onTheRoad || !dispatched) throw new Error('the demo has no tour in transit or dispatched');
    const shared = await api<{ token: string }>(
      bench.url,
      `/tours/${onTheRoad.id}/share`,
      shipper,
      {},
    );
    const dock = await api<{ url: string }>(
      bench.url,
      `/tours/${dispatched.id}/dock-link`,
      shipper,
      {},
    );
    const pages: Page[] = [
      { path: '/driver', email: DRIVER },
      { path: `/shared/track/${shared.token}`, email: null },
      { path: dock.url, email: null },
      { path: '/loads/carrier', email: CARRIER },
    ];
    const results: Result[] = [];
    for (const page of pages) results.push(await measure(browser, bench.url, page));

    const name = (path: string) => path.replace(/\/[A-Za-z0-9_-]{16,}$/, '/:token');
    const scoresOk = (scores: Scores) =>
      Object.entries(scores).every(
        ([category, score]) =>
          score !== null && score >= (category === 'performance' ? SCORE_LIMIT : 1),
      );
    const worst = Math.max(...results.map((result) => result.first.bytes));
    report(
      'T10',
      'phone pages: bytes on the wire and Lighthouse',
      BYTE_LIMIT / worst,
      1,
      results
        .map(
          (result) =>
            `${name(result.path)}: first visit ${kb(result.first.bytes)} in ${result.first.requests} (${breakdown(result.first)}; map code ${kb(result.first.mapBytes)}), second ${kb(result.second.bytes)} in ${result.second.requests}; Lighthouse (phone) ${scoreLine(result.scores)}`,
        )
        .join('\n    ') +
        `\n    limits: ${kb(BYTE_LIMIT)} a first visit, performance >= ${SCORE_LIMIT.toFixed(2)} and every other category 1.00`,
      worst <= BYTE_LIMIT && results.every((result) => scoresOk(result.scores)),
    );
  } finally {
    await browser.close().catch(() => undefined);
    await bench.close();
  }
}
