/** T10: JavaScript a browser loads for /signin and /loads/carrier, gzip-compressed, and whether map code stays off them. */
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { organization, PASSWORD } from '../../server/identity/fixtures.ts';
import { fmt, report } from '../lib.ts';
import { startBenchApp } from '../setup.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
    const measure = async (path: string, signIn: boolean) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts = new Map<string, number>();
      page.on('response', async (response) => {
        if (response.request().resourceType() !== 'script') return;
        try { scripts.set(response.url(), gzipSync(await response.body()).length); } catch { /* redirected */ }
      });
      if (signIn) {
        await page.goto(`${bench.url}/signin`);
        await page.getByLabel(/e-?mail|username/i).first().fill(carrier.email);
        await page.locator('input[type="password"]').first().fill(PASSWORD);
        await page.locator('form button[type="submit"], form button').first().click();
        await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 15_000 }).catch(() => undefined);
        scripts.clear();
        await page.goto(`${bench.url}${path}`);
      } else {
        await page.goto(`${bench.url}${path}`);
      }
      await page.waitForLoadState('networkidle');
      await context.close();
      const bytes = [...scripts.values()].reduce((sum, size) => sum + size, 0);
      const map = [...scripts.keys()].some((url) => /\bol[-.]|openlayers|MapView|map-/i.test(url));
      return { bytes, files: scripts.size, map };
    };
    const signin = await measure('/signin', false);
    const carrierPage = await measure('/loads/carrier', true);
    const limit = 300 * 1024;
    const worst = Math.max(signin.bytes, carrierPage.bytes);
    report('T10', 'client JavaScript on first load', limit / worst, 1,
      `/signin ${fmt(signin.bytes / 1024, 1)} KB gzip in ${signin.files} files (map code: ${signin.map ? 'yes' : 'no'}); /loads/carrier ${fmt(carrierPage.bytes / 1024, 1)} KB gzip in ${carrierPage.files} files; limit 300 KB`,
      worst <= limit && !signin.map);
  } finally {
    await browser.close();
    await bench.close();
  }
}
