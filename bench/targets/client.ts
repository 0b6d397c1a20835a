/** T10: JavaScript a browser loads for /signin and /loads/carrier, gzip-compressed, and whether map code stays off them. */
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { organization, PASSWORD } from '../../server/identity/fixtures.ts';
import { fmt, report } from '../lib.ts';
import { startBenchApp } from '../setup.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Map code: MapView.tsx's chunk (which holds OpenLayers), the map folder's own (map-*) and any chunk named after ol. */
const MAP_SCRIPT = /\bol[-.]|openlayers|MapView|map-/i;

/**
 * Runs in the page before its own scripts: notes when the routed page's heading enters the DOM, i.e.
 * when the page (not the start-up spinner) is first rendered. React commits the heading and the rest
 * of the page's first render at once, so a script requested later was not needed to show the page.
 */
function notePageRendered() {
  const marks = window as unknown as { pageRenderedAt?: number };
  new MutationObserver((_, observer) => {
    if (!document.querySelector('main h1')) return;
    marks.pageRenderedAt = performance.now();
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
}

interface Script {
  url: string;
  gzip: number;
  /** Request start in the page's performance timeline (ms); unknown when the browser kept no timing. */
  startTime?: number;
}

type Measure = { bytes: number; files: number; mapBytes: number; mapFiles: number; map: boolean };

/**
 * What the limit counts: every script the page loads until the network is idle, except map code
 * requested after the page was rendered. /loads/carrier shows its list and a map; the map's code
 * (OpenLayers, about 130 KB gzip) loads once the page has painted and is reported on its own. A map
 * script requested before the page rendered counts, as does any other script, however late.
 */
function tally(scripts: Script[], pageRenderedAt: number | undefined): Measure {
  // Without both times the script cannot be shown to have come later: it counts.
  const lazyMap = (script: Script) => MAP_SCRIPT.test(script.url)
    && pageRenderedAt !== undefined && script.startTime !== undefined && script.startTime > pageRenderedAt;
  const counted = scripts.filter((script) => !lazyMap(script));
  const map = scripts.filter(lazyMap);
  const sum = (list: Script[]) => list.reduce((total, script) => total + script.gzip, 0);
  return {
    bytes: sum(counted), files: counted.length, mapBytes: sum(map), mapFiles: map.length,
    map: scripts.some((script) => MAP_SCRIPT.test(script.url)),
  };
}

/** The page's scripts, each with its gzip size and when the page requested it. */
async function scriptsOf(page: Page, bodies: Map<string, number>): Promise<Script[]> {
  const starts = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => [entry.name, entry.startTime] as const));
  const startOf = new Map(starts);
  return [...bodies].map(([url, gzip]) => ({ url, gzip, startTime: startOf.get(url) }));
}

export async function t10() {
  if (!existsSync(CHROMIUM)) {
    console.log(`T10 client: skipped, no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
    return;
  }
  const { chromium } = await import('playwright-core');
  const bench = await startBenchApp('pglite');
  const carrier = await organization(bench.app, bench.platform, 'Carrier');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  try {
    const measure = async (path: string, signIn: boolean): Promise<Measure> => {
      const context = await browser.newContext();
      await context.addInitScript(notePageRendered);
      const page = await context.newPage();
      const bodies = new Map<string, number>();
      page.on('response', async (response) => {
        if (response.request().resourceType() !== 'script') return;
        try { bodies.set(response.url(), gzipSync(await response.body()).length); } catch { /* redirected */ }
      });
      if (signIn) {
        await page.goto(`${bench.url}/signin`);
        await page.getByLabel(/e-?mail|username/i).first().fill(carrier.email);
        await page.locator('input[type="password"]').first().fill(PASSWORD);
        await page.locator('form button[type="submit"], form button').first().click();
        await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 15_000 }).catch(() => undefined);
        await page.waitForLoadState('networkidle');
        bodies.clear();
        await page.goto(`${bench.url}${path}`);
      } else {
        await page.goto(`${bench.url}${path}`);
      }
      await page.waitForLoadState('networkidle');
      const pageRenderedAt = await page.evaluate(() => (window as unknown as { pageRenderedAt?: number }).pageRenderedAt);
      const scripts = await scriptsOf(page, bodies);
      await context.close();
      return tally(scripts, pageRenderedAt);
    };
    const signin = await measure('/signin', false);
    const carrierPage = await measure('/loads/carrier', true);
    const limit = 300 * 1024;
    const worst = Math.max(signin.bytes, carrierPage.bytes);
    report('T10', 'client JavaScript on first load', limit / worst, 1,
      `/signin ${fmt(signin.bytes / 1024, 1)} KB gzip in ${signin.files} files (map code: ${signin.map ? 'yes' : 'no'}); `
      + `/loads/carrier ${fmt(carrierPage.bytes / 1024, 1)} KB gzip in ${carrierPage.files} files, `
      + `then its map ${fmt(carrierPage.mapBytes / 1024, 1)} KB in ${carrierPage.mapFiles} files after the page rendered; limit 300 KB`,
      worst <= limit && !signin.map);
  } finally {
    await browser.close();
    await bench.close();
  }
}
