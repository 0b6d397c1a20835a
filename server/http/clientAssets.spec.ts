import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gunzipSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import t from 'tap';
import { startTestApp } from '../testing/testApp.ts';

// A small per-minute budget, so that the API's limit shows within a few requests.
process.env.RATE_LIMIT_PER_MINUTE = '40';

// A built client in miniature: what `npm run build:client` writes, each compressible file with its .br and .gz.
const clientDir = mkdtempSync(path.join(tmpdir(), 'client-'));
t.teardown(() => rmSync(clientDir, { recursive: true, force: true }));
mkdirSync(path.join(clientDir, 'assets'));
mkdirSync(path.join(clientDir, 'content'));
const page = `<!doctype html><html lang="en"><head><title>Freight Marketplace</title><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>${' '.repeat(2048)}`;
const script = `export const greeting = ${JSON.stringify('hello '.repeat(500))};\n`;
const withCompressed = (file: string, text: string) => {
  writeFileSync(path.join(clientDir, file), text);
  writeFileSync(path.join(clientDir, `${file}.br`), brotliCompressSync(text));
  writeFileSync(path.join(clientDir, `${file}.gz`), gzipSync(text));
};
withCompressed('index.html', page);
withCompressed('assets/index-Ab12Cd34.js', script);
writeFileSync(path.join(clientDir, 'robots.txt'), 'User-agent: *\nAllow: /\n');
writeFileSync(
  path.join(clientDir, 'content/truck.svg'),
  '<svg xmlns="http://www.w3.org/2000/svg"/>',
);

const { app, close } = await startTestApp({ clientDir });
t.teardown(close);

const asset = '/assets/index-Ab12Cd34.js';
const get = (url: string, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
  app.inject({ method: 'GET', url, headers, remoteAddress });

t.test(
  'a hashed asset: brotli, gzip or identity by Accept-Encoding, cached for a year as immutable',
  async (t) => {
    const br = await get(asset, { 'accept-encoding': 'br, gzip' });
    t.equal(br.statusCode, 200);
    t.equal(br.headers['content-encoding'], 'br');
    t.equal(brotliDecompressSync(br.rawPayload).toString(), script, 'the brotli body is the file');
    t.match(br.headers['content-type'], /javascript/);

    const gz = await get(asset, { 'accept-encoding': 'gzip' });
    t.equal(gz.headers['content-encoding'], 'gzip');
    t.equal(gunzipSync(gz.rawPayload).toString(), script, 'the gzip body is the file');

    const identity = await get(asset);
    t.notOk(identity.headers['content-encoding'], 'no encoding asked, none sent');
    t.equal(identity.body, script);

    for (const answer of [br, gz, identity]) {
      t.match(answer.headers.vary, /accept-encoding/i, 'Vary: Accept-Encoding');
      t.equal(answer.headers['cache-control'], 'public, max-age=31536000, immutable');
    }
    t.ok(
      br.rawPayload.length < script.length && gz.rawPayload.length < script.length,
      'compressed bodies are smaller',
    );
  },
);

t.test('security headers by what is answered: a page, a script, an API answer', async (t) => {
  const page = await get('/signin');
  const script = await get(asset);
  const api = await get('/api/health');
  for (const answer of [page, script, api]) {
    t.equal(answer.headers['x-content-type-options'], 'nosniff');
    t.match(answer.headers['strict-transport-security'], /max-age=31536000/);
    t.equal(answer.headers['cross-origin-resource-policy'], 'same-origin');
  }
  t.match(
    page.headers['content-security-policy'],
    /default-src 'self'.*frame-ancestors 'none'/,
    "the page's policy",
  );
  t.equal(page.headers['x-frame-options'], 'SAMEORIGIN');
  t.equal(
    script.headers['content-security-policy'],
    undefined,
    'a script ignores a policy: none sent',
  );
  t.equal(script.headers['x-frame-options'], undefined);
  t.equal(
    api.headers['content-security-policy'],
    "default-src 'none'; frame-ancestors 'none'",
    'an API answer opens nothing',
  );
  t.equal(api.headers['x-frame-options'], 'DENY');
  const bytes = (answer: typeof page) =>
    Object.entries(answer.headers).reduce(
      (sum, [name, value]) => sum + name.length + String(value).length + 4,
      0,
    );
  t.ok(
    bytes(api) < bytes(page) - 300,
    `API answer headers ${bytes(api)} B, a page's ${bytes(page)} B`,
  );
});

t.test(
  'index.html, client-routed pages and unhashed files are revalidated, not cached blindly',
  async (t) => {
    for (const url of ['/', '/signin', '/loads/carrier', '/index.html']) {
      const answer = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      t.equal(answer.statusCode, 200, url);
      t.equal(answer.headers['cache-control'], 'no-cache', `${url}: no-cache`);
      t.equal(answer.headers['content-encoding'], 'br', `${url}: compressed`);
      t.match(answer.headers.vary, /accept-encoding/i);
      t.ok(
        answer.headers.etag && answer.headers['last-modified'],
        `${url}: a validator to revalidate with`,
      );
      t.equal(
        brotliDecompressSync(answer.rawPayload).toString(),
        page,
        `${url}: the client's page`,
      );
    }
    const first = await get('/signin');
    const again = await get('/signin', { 'if-none-match': String(first.headers.etag) });
    t.equal(again.statusCode, 304, 'an unchanged page answers 304 Not Modified');

    // HEAD, as uptime checks and link checkers ask: the page's answer without its body, on every client route.
    for (const url of ['/', '/signin', '/loads/carrier']) {
      const head = await app.inject({ method: 'HEAD', url, headers: { 'accept-encoding': 'br' } });
      const got = await get(url, { 'accept-encoding': 'br' });
      t.equal(head.statusCode, 200, `HEAD ${url}`);
      t.match(head.headers['content-type'], /text\/html/, `HEAD ${url}: the page's type`);
      t.equal(head.headers['cache-control'], 'no-cache', `HEAD ${url}: revalidated like GET`);
      t.equal(head.headers['content-encoding'], 'br', `HEAD ${url}: the encoding GET would send`);
      t.equal(head.headers.etag, got.headers.etag, `HEAD ${url}: the same validator as GET`);
      t.equal(head.rawPayload.length, 0, `HEAD ${url}: no body`);
    }
    const headUnknown = await app.inject({ method: 'HEAD', url: '/api/no-such-thing' });
    t.equal(headUnknown.statusCode, 404, 'HEAD of an unknown API path: 404');
    t.equal(headUnknown.rawPayload.length, 0, 'HEAD of an unknown API path: no body');

    const robots = await get('/robots.txt');
    t.equal(robots.statusCode, 200);
    t.equal(robots.headers['cache-control'], 'no-cache');
    const svg = await get('/content/truck.svg');
    t.equal(svg.statusCode, 200);
    t.equal(svg.headers['cache-control'], 'no-cache');
  },
);

t.test(
  'missing files and unknown API paths answer 404, never the page or a file outside the client',
  async (t) => {
    t.equal((await get('/assets/missing-0000.js')).statusCode, 404);
    const unknown = await get('/api/no-such-thing');
    t.equal(unknown.statusCode, 404);
    t.equal(unknown.json().code, 'not_found');
    for (const url of [
      '/assets/../../package.json',
      '/assets/%2e%2e/%2e%2e/package.json',
      '/content/..%2f..%2fpackage.json',
    ]) {
      const answer = await get(url);
      t.not(answer.statusCode, 200, url);
      t.notMatch(answer.body, /freight-marketplace/, `${url}: not the repository's file`);
    }
  },
);

t.test('static files are outside the API rate limit; the API stays limited', async (t) => {
  const address = '10.20.30.40';
  const statuses = new Map<number, number>();
  for (let i = 0; i < 2000; i++) {
    const url = [asset, '/', '/signin', '/robots.txt'][i % 4]!;
    const answer = await get(url, { 'accept-encoding': 'br' }, address);
    statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
  }
  t.same([...statuses], [[200, 2000]], '2,000 asset and page requests from one address, all 200');

  let last;
  for (let i = 0; i < 45; i++) last = await get('/api/catalog', {}, address);
  t.equal(last?.statusCode, 429, 'the same address is limited on the API after its 40 requests');
  t.equal(last?.json().code, 'too_many_requests');
  t.equal((await get(asset, {}, address)).statusCode, 200, 'and still gets its assets');
});
