/**
 * T10: the bytes a browser receives on the first visit of /signin and /loads/carrier (every resource,
 * as sent: compressed, headers included), whether map code stays off the pages without a map, and
 * Lighthouse's phone scores of / and /signin. /loads/carrier is also measured with its map opened
 * (the map beside the list opens on request; a carrier who opened it has it open on the next visit).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { organization, PASSWORD } from '../../server/identity/fixtures.ts';
import { fmt, report } from '../lib.ts';
import { startBenchApp } from '../setup.ts';
import { lighthouseScores, type Scores } from './lighthouse.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Map code: MapView.tsx's chunk (which holds OpenLayers), the map folder's own (map-*) and any chunk named after ol. */
const MAP_SCRIPT = /\bol[-.]|openlayers|MapView|map-/i;
/** At most this many bytes on the wire for each page's first visit. */
export const BYTE_LIMIT = 400 * 1024;
/** Every Lighthouse category at least this, on / and /signin. */
export const SCORE_LIMIT = 0.9;

type Received = { url: string; type: string; bytes: number };
export type Measure = {
  bytes: number;
  requests: number;
  byType: Map<string, number>;
  map: boolean;
  mapBytes: number;
};

/**
 * Loads `path` in `context` (a fresh one: nothing cached) and adds up what the browser received until
 * the network was idle: Chromium's encodedDataLength of every finished request (the body as sent,
 * compressed, plus the response headers) and the frames of any WebSocket.
 */
export async function firstVisit(context: BrowserContext, url: string): Promise<Measure> {
  return visitWith(await context.newPage(), url);
}

/** The same measure on a page of a context that may hold a cache and a service worker already (a second visit). */
export async function visitWith(page: Page, url: string): Promise<Measure> {
  const context = page.context();
  const cdp = await context.newCDPSession(page);
  const requests = new Map<string, { url: string; type: string }>();
  const received: Received[] = [];
  cdp.on('Network.requestWillBeSent', (event) =>
    requests.set(event.requestId, { url: event.request.url, type: event.type ?? 'Other' }),
  );
  cdp.on('Network.loadingFinished', (event) => {
    const request = requests.get(event.requestId);
    if (request) received.push({ ...request, bytes: event.encodedDataLength });
  });
  cdp.on('Network.webSocketFrameReceived', (event) =>
    received.push({
      url: 'websocket',
      type: 'WebSocket',
      bytes: event.response.payloadData.length,
    }),
  );
  await cdp.send('Network.enable');
  await page.goto(url);
  await page.waitForLoadState('networkidle');
  // The page's own scripts and a render; then the late requests (fonts, lazy chunks) have had their turn.
  await page.waitForSelector('main h1, h1', { timeout: 15_000 }).catch(() => undefined);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  await page.close();
  const byType = new Map<string, number>();
  for (const item of received) byType.set(item.type, (byType.get(item.type) ?? 0) + item.bytes);
  const maps = received.filter((item) => item.type === 'Script' && MAP_SCRIPT.test(item.url));
  return {
    bytes: received.reduce((total, item) => total + item.bytes, 0),
    requests: received.length,
    byType,
    map: maps.length > 0,
    mapBytes: maps.reduce((total, item) => total + item.bytes, 0),
  };
}

/** /loads/carrier's first visit is a signed-in one: the session comes from a sign-in in another context, the cache does not. */
export async function signedInState(
  browser: Browser,
  baseUrl: string,
  email: string,
  password = PASSWORD,
) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${baseUrl}/signin`);
  await page
    .getByLabel(/e-?mail|username/i)
    .first()
    .fill(email);
  await page.locator('input[type="password"]').first().fill(password);
  await page.locator('form button[type="submit"], form button').first().click();
  await page
    .waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 15_000 })
    .catch(() => undefined);
  await page.waitForLoadState('networkidle');
  const state = await context.storageState();
  await context.close();
  return state;
}

export const kb = (bytes: number) => `${fmt(bytes / 1024, 1)} KB`;
export const breakdown = (measure: Measure) =>
  [...measure.byType]
    .sort((a, b) => b[1] - a[1])
    .map(([type, bytes]) => `${type.toLowerCase()} ${kb(bytes)}`)
    .join(', ');
export const scoreLine = (scores: Scores) =>
  Object.entries(scores)
    .map(([category, score]) => `${category} ${score === null ? '?' : score.toFixed(2)}`)
    .join(', ');

export async function t10() {
  if (!existsSync(CHROMIUM)) {
    console.log(`T10 client: skipped, no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
    return;
  }
  // The pages are the built client's, as `npm start` serves them: build it first (skipped when dist/client is newer than its sources).
  execFileSync(process.execPath, ['scripts/buildClient.mjs'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const { chromium } = await import('playwright-core');
  const bench = await startBenchApp('pglite');
  const carrier = await organization(bench.app, bench.platform, 'Carrier');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const visit = async (
      path: string,
      storageState?: Awaited<ReturnType<typeof signedInState>>,
    ) => {
      const context = await browser.newContext(storageState ? { storageState } : {});
      try {
        return await firstVisit(context, `${bench.url}${path}`);
      } finally {
        await context.close();
      }
    };
    const signin = await visit('/signin');
    const carrierState = await signedInState(browser, bench.url, carrier.email);
    const carrierPage = await visit('/loads/carrier', carrierState);
    // The same visit by a carrier who opened the marketplace's map before (the browser remembers it): OpenLayers and the outline load too.
    const withMap = {
      ...carrierState,
      origins: carrierState.origins.map((origin) => ({
        ...origin,
        localStorage: [...origin.localStorage, { name: 'map-open:marketplace', value: '1' }],
      })),
    };
    const carrierMapPage = await visit('/loads/carrier', withMap);
    await browser.close();

    const pages = ['/', '/signin'];
    const lighthouse: Record<string, Scores> = {};
    const benchmarkIndex: Record<string, number | null> = {};
    for (const path of pages) {
      const result = await lighthouseScores(`${bench.url}${path}`, CHROMIUM, CHROMIUM_ARGS);
      lighthouse[path] = result.scores;
      benchmarkIndex[path] = result.benchmarkIndex;
    }
    const scoresOk = pages.every((path) =>
      Object.values(lighthouse[path]!).every((score) => score !== null && score >= SCORE_LIMIT),
    );

    const worst = Math.max(signin.bytes, carrierPage.bytes);
    report(
      'T10',
      'client: bytes on the wire, first visit',
      BYTE_LIMIT / worst,
      1,
      `/signin ${kb(signin.bytes)} in ${signin.requests} responses (${breakdown(signin)}; map code: ${signin.map ? 'yes' : 'no'}); ` +
        `/loads/carrier ${kb(carrierPage.bytes)} in ${carrierPage.requests} (${breakdown(carrierPage)}; map code ${kb(carrierPage.mapBytes)}); limit ${kb(BYTE_LIMIT)} each; ` +
        `/loads/carrier with the map opened ${kb(carrierMapPage.bytes)} in ${carrierMapPage.requests} (map code ${kb(carrierMapPage.mapBytes)})\n` +
        pages
          .map(
            (path) =>
              `    Lighthouse (phone) ${path}: ${scoreLine(lighthouse[path]!)} (machine's benchmark index ${benchmarkIndex[path] === null ? '?' : fmt(benchmarkIndex[path]!)})`,
          )
          .join('\n') +
        `; every category >= ${SCORE_LIMIT} on both: ${scoresOk ? 'yes' : 'no'}`,
      worst <= BYTE_LIMIT && !signin.map && scoresOk,
    );
  } finally {
    await browser.close().catch(() => undefined);
    await bench.close();
  }
}
