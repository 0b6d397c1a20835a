/**
 * The end-to-end harness: a server started the way the README starts it (`server/main.ts` with the
 * demo seed, on a fresh data folder), Debian's Chromium driven by playwright-core, and axe-core on
 * every screen visited. A missing Chromium fails in CI and skips, saying why, on a laptop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Why the suite cannot run here, or null. In CI a missing browser is a failure, not a skip. */
export function missingBrowser(): string | null {
  if (existsSync(CHROMIUM)) return null;
  return `no Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`;
}

const freePort = () => new Promise<number>((resolve, reject) => {
  const server = createServer();
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
  });
});

export type Server = { url: string; dataDir: string; stop(): Promise<void>; output(): string };

/** `server/main.ts` as `npm start` runs it (the client already built by `npm run build:client`). */
export async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'freight-e2e-'));
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DEMO: '1', LOG_LEVEL: 'warn', DATABASE_URL: '', RATE_LIMIT_PER_MINUTE: '100000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => { output += chunk; });
  child.stderr!.on('data', (chunk) => { output += chunk; });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) throw new Error(`the server did not start in 120 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url, dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => { child.once('exit', resolve); setTimeout(resolve, 15_000); });
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launch(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A page that records uncaught page errors and console errors, so a journey can assert there were none. */
export async function openPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return { page, errors };
}

export type AxeFinding = { id: string; impact: string; help: string; nodes: number };

/** axe-core on the current screen: the serious and critical violations (the ones that fail a journey). */
export async function axe(page: Page): Promise<AxeFinding[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, impact: violation.impact ?? '', help: violation.help, nodes: violation.nodes.length }));
}

/** Signs in through the sign-in form, by keyboard as a user would, and waits to leave /signin. */
export async function signIn(page: Page, url: string, email: string, password: string): Promise<void> {
  await page.goto(`${url}/signin`);
  await page.getByLabel(/e-?mail|username/i).first().fill(email);
  await page.locator('input[type="password"]').first().fill(password);
  await page.keyboard.press('Enter');
  await page.waitForURL((target) => !target.pathname.startsWith('/signin'), { timeout: 20_000 });
}

/** Demo accounts of the seed (README "Demo accounts"). */
export const demo = {
  admin: { email: 'admin@freight.local', password: 'admin12345' },
  shipper: { email: 'shipper1@demo.freight.local', password: 'demo12345' },
  carrier: { email: 'carrier1@demo.freight.local', password: 'demo12345' },
  driver: { email: 'carrier1.driver1@demo.freight.local', password: 'demo12345' },
};
