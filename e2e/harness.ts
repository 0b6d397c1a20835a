/**
 * The end-to-end harness: a server started the way the README starts it (`server/main.ts` with the
 * demo seed, on a fresh data folder), Debian's Chromium driven by playwright-core, and axe-core on
 * every screen visited. A missing Chromium fails in CI and skips, saying why, on a laptop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Test } from 'tap';

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

/** Why the suite cannot run here, or null. In CI a missing browser is a failure, not a skip. */
export function missingBrowser(): string | null {
  if (existsSync(CHROMIUM)) return null;
  return `no Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });

/** `stop({ keepData: true })` leaves the data folder where it is (e2e/template.ts keeps it as the template). */
export type Server = {
  url: string;
  dataDir: string;
  stop(options?: { keepData?: boolean }): Promise<void>;
  output(): string;
};

/**
 * The data folder of a server that has already started once with the demo seed (migrated, seeded,
 * its keys written), made by `e2e/template.ts` at the start of `npm run test:e2e`. With
 * E2E_TEMPLATE=1 each journey's server starts on a copy of it, as `npm start` does on its second
 * start, instead of migrating and seeding again; without it (one journey run by hand) each seeds its own.
 * One folder per checkout, so two checkouts on one machine never copy each other's half-made folder.
 */
export const TEMPLATE_DIR = join(
  tmpdir(),
  `freight-e2e-template-${createHash('sha256')
    .update(new URL('..', import.meta.url).pathname)
    .digest('hex')
    .slice(0, 12)}`,
);

/** `server/main.ts` as `npm start` runs it (the client already built by `npm run build:client`). */
export async function startServer(
  env: Record<string, string> = {},
  dataDir = mkdtempSync(join(tmpdir(), 'freight-e2e-')),
): Promise<Server> {
  const port = await freePort();
  if (process.env.E2E_TEMPLATE === '1' && existsSync(join(TEMPLATE_DIR, 'ready'))) {
    cpSync(TEMPLATE_DIR, dataDir, { recursive: true });
    rmSync(join(dataDir, 'ready'));
  }
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['server/main.ts'], {
    cwd: new URL('..', import.meta.url).pathname,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO: '1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      RATE_LIMIT_PER_MINUTE: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A test process that dies (a timeout, a kill) takes its server and data folder with it.
  const cleanUp = (keepData = false) => {
    if (child.exitCode === null) child.kill('SIGKILL');
    if (!keepData) rmSync(dataDir, { recursive: true, force: true });
  };
  const onExit = () => cleanUp();
  process.once('exit', onExit);
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`the server did not start in 180 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    dataDir,
    output: () => output,
    async stop({ keepData = false } = {}) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        // The 15 s limit is unref'd and cleared: a pending timer would keep this test process alive.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 15_000);
          timer.unref();
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      process.removeListener('exit', onExit);
      cleanUp(keepData);
    },
  };
}

/**
 * The browser. Its pages prefer a dark colour scheme unless a journey asks otherwise (`colorScheme`
 * in `newContext`): the product opens dark whatever the system prefers, and follows the system only
 * once a user picks 'system' in the customizer.
 */
export async function launch(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ colorScheme: 'dark', ...options });
  return browser;
}

/** A page that records uncaught page errors and console errors, so a journey can assert there were none. */
export async function openPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return { page, errors };
}

export type AxeFinding = {
  id: string;
  impact: string;
  help: string;
  nodes: number;
  targets: string[];
};

/** The impacts axe gives a violation, worst first; the first two fail a journey. */
export const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;
export type Impact = (typeof IMPACTS)[number];
export const failing = (finding: AxeFinding) =>
  finding.impact === 'critical' || finding.impact === 'serious';

/** Violations and their nodes counted by impact (a journey's closing figures). */
export type ImpactCounts = Record<Impact, { violations: number; nodes: number }>;
export const emptyCounts = (): ImpactCounts => ({
  critical: { violations: 0, nodes: 0 },
  serious: { violations: 0, nodes: 0 },
  moderate: { violations: 0, nodes: 0 },
  minor: { violations: 0, nodes: 0 },
});
export function countFindings(counts: ImpactCounts, findings: readonly AxeFinding[]): void {
  for (const finding of findings) {
    const row = counts[finding.impact as Impact];
    if (!row) continue;
    row.violations++;
    row.nodes += finding.nodes;
  }
}
export const describeCounts = (counts: ImpactCounts): string =>
  IMPACTS.map(
    (impact) => `${impact} ${counts[impact].violations} (${counts[impact].nodes} nodes)`,
  ).join(', ');

/** axe-core on the current screen: every violation, whatever its impact. */
export async function axeAll(page: Page): Promise<AxeFinding[]> {
  let findings = await analyze(page);
  // A toast or a fade that began while axe was reading the page is measured half-faded. Contrast is
  // read again once such animations end: a colour that is really too faint fails the second time too.
  if (findings.some((finding) => finding.id === 'color-contrast' && failing(finding)))
    findings = await analyze(page, 5_000);
  return findings;
}

/** axe-core on the current screen: the serious and critical violations (the ones that fail a journey). */
export async function axe(page: Page): Promise<AxeFinding[]> {
  return (await axeAll(page)).filter(failing);
}

async function analyze(page: Page, settleMs = 2_000): Promise<AxeFinding[]> {
  // Let finite animations end first (a toast fading in has not reached its final contrast yet);
  // endless ones (spinners) are not waited for, and nothing is waited for more than `settleMs`.
  await page.evaluate(
    (limit) =>
      Promise.race([
        Promise.all(
          document
            .getAnimations()
            .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
            .map((animation) => animation.finished.catch(() => undefined)),
        ),
        new Promise((resolve) => setTimeout(resolve, limit)),
      ]),
    settleMs,
  );
  // axe.run in the page itself (legacy mode): the default runs each frame apart and merges the
  // results in a blank page it opens for every analysis, which took two to three times as long as
  // the audit (the product's pages hold no cross-origin frame: the landing page's video embed is
  // only there with a content service, never offline). Only the violations come back with their
  // nodes (the passes' nodes were 94 % of a 0.9 MB answer).
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true)
    .analyze();
  return results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact ?? 'minor',
    help: violation.help,
    nodes: violation.nodes.length,
    targets: violation.nodes
      .slice(0, 3)
      .map(
        (node) =>
          `${node.target.join(' ')}${node.any[0]?.message ? ` (${node.any[0].message})` : ''}`,
      ),
  }));
}

export const describeFindings = (findings: AxeFinding[]): string =>
  findings
    .map(
      (finding) =>
        `${finding.id} (${finding.nodes}): ${finding.help} at ${finding.targets.join(', ')}`,
    )
    .join('; ');

/** Signs in through the sign-in form, by keyboard as a user would, and waits for the role's home screen. */
export async function signIn(
  page: Page,
  url: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${url}/signin`);
  // By id: the labels are in whatever language the browser asked for.
  await page.locator('#signin-email').fill(email);
  await page.locator('#signin-password').fill(password);
  await page.keyboard.press('Enter');
  // The sign-in goes through '/' on its way to the role's home: wait for the home.
  await page.waitForURL(
    (target) => !target.pathname.startsWith('/signin') && target.pathname !== '/',
    { timeout: 30_000 },
  );
  // The signed-in shell (its own chunk) is on the screen: the menus a journey goes on with.
  await page.locator('.layout').first().waitFor({ timeout: 30_000 });
}

/**
 * Unfolds every group of the side menu, groups inside groups too, to collect its links. Each pass
 * clicks the toggles folded at that moment in the page itself: clicking Playwright's `.all()` one
 * by one would leave stale positions once the first unfolded (each then waiting out its timeout).
 */
export async function unfoldMenu(page: Page): Promise<void> {
  for (let pass = 0; pass < 5; pass++) {
    const clicked = await page.locator('nav [aria-expanded="false"]').evaluateAll((toggles) => {
      for (const toggle of toggles) (toggle as HTMLElement).click();
      return toggles.length;
    });
    if (clicked === 0) return;
  }
}

/** Demo accounts of the seed (README "Demo accounts"). */
export const demo = {
  admin: { email: 'admin@freight.local', password: 'admin12345' },
  shipper: { email: 'shipper1@demo.freight.local', password: 'demo12345' },
  carrier: { email: 'carrier1@demo.freight.local', password: 'demo12345' },
  driver: { email: 'carrier1.driver1@demo.freight.local', password: 'demo12345' },
  /** A second carrier and its driver, free of the demo's tours. */
  carrier2: { email: 'carrier2@demo.freight.local', password: 'demo12345' },
  driver2: { email: 'carrier2.driver1@demo.freight.local', password: 'demo12345' },
};

/** Signs in through the API: the access token, for the few checks a journey makes behind the screens. */
export async function apiToken(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`login ${email}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { accessToken: string }).accessToken;
}

export async function apiGet<T>(url: string, token: string, path: string): Promise<T> {
  const response = await fetch(`${url}/api${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A small, valid one-page PDF saying what it is. */
export async function pdf(title: string): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  document.addPage([612, 792]).drawText(title, { x: 72, y: 700, size: 18, font });
  document.setTitle(title);
  return Buffer.from(await document.save());
}

export const pdfFile = async (name: string) => ({
  name,
  mimeType: 'application/pdf',
  buffer: await pdf(name.replace(/\.pdf$/, '')),
});

/** Screenshots land in e2e/shots/<journey>/ (git-ignored) for people to look at. */
export const SHOTS = new URL('./shots/', import.meta.url).pathname;

/**
 * One journey's bookkeeping: every screen it checks runs axe (serious and critical violations
 * fail, with no exception; moderate and minor ones are counted) and is photographed; the figures,
 * by impact, are printed at the end.
 */
export class Journey {
  readonly started = Date.now();
  screens = 0;
  /** The serious and critical violations (each fails its step). */
  findings: AxeFinding[] = [];
  /** Every violation counted by impact, the moderate and minor ones too (reported, not failed). */
  readonly counts = emptyCounts();
  private readonly folder: string;

  readonly name: string;

  constructor(name: string) {
    this.name = name;
    this.folder = join(SHOTS, name);
    rmSync(this.folder, { recursive: true, force: true });
    mkdirSync(this.folder, { recursive: true });
  }

  /** axe on the screen as it stands, asserted clean, and a screenshot named `shot`. */
  async check(t: Test, page: Page, shot: string): Promise<void> {
    // Let a lazy page and its first requests settle; sockets keep the network busy, so no networkidle.
    await page.waitForLoadState('load');
    await page
      .locator('.p-skeleton, [aria-busy="true"]')
      .first()
      .waitFor({ state: 'detached', timeout: 10_000 })
      .catch(() => undefined);
    // The screen at rest: route transitions (300 ms fades) finished, so colours are the final ones...
    await page
      .waitForFunction(
        () =>
          document
            .getAnimations()
            .every(
              (animation) =>
                animation.playState !== 'running' ||
                animation.effect?.getComputedTiming().iterations === Infinity,
            ),
        null,
        { timeout: 5_000 },
      )
      .catch(() => undefined);
    // ...and the pointer off whatever it last clicked (hover colours are reported apart).
    await page.mouse.move(0, page.viewportSize()?.height ? page.viewportSize()!.height - 1 : 0);
    const all = await axeAll(page);
    countFindings(this.counts, all);
    const violations = all.filter(failing);
    this.screens++;
    this.findings.push(...violations);
    t.same(
      violations.map((v) => v.id),
      [],
      `${shot}: no serious or critical accessibility violations${violations.length ? `: ${describeFindings(violations)}` : ''}`,
    );
    await page
      .screenshot({
        path: join(this.folder, `${String(this.screens).padStart(2, '0')}-${shot}.png`),
      })
      .catch(() => undefined);
  }

  /** A screenshot in the journey's folder without axe, for moments a shared component owns (a toast). */
  async photo(page: Page, shot: string): Promise<void> {
    await page.screenshot({ path: join(this.folder, `${shot}.png`) }).catch(() => undefined);
  }

  summary(t: Test): void {
    t.comment(
      `${this.name}: ${this.screens} screens checked, ${this.findings.length} serious or critical accessibility violations; by impact: ${describeCounts(this.counts)}; ${((Date.now() - this.started) / 1000).toFixed(1)} s`,
    );
  }
}

/** Runs `body` with a server (started with `env` on top of the defaults) and a browser, or skips (laptop) / fails (CI) without Chromium. */
export async function withBrowser(
  t: Test,
  body: (server: Server, browser: Browser) => Promise<void>,
  env: Record<string, string> = {},
): Promise<void> {
  const missing = missingBrowser();
  if (missing) {
    if (process.env.CI) t.fail(missing);
    else t.plan(0, missing);
    return;
  }
  // E2E_URL runs a journey against a server already running (while writing one): nothing is started.
  const server: Server = process.env.E2E_URL
    ? { url: process.env.E2E_URL, dataDir: '', output: () => '', stop: async () => undefined }
    : await startServer(env);
  const browser = await launch();
  t.teardown(async () => {
    await browser.close().catch(() => undefined);
    await server.stop();
  });
  await body(server, browser);
}
