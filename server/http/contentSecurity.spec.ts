/**
 * MAP_TILE_URL reaches the browser (GET /api/client-settings) and the Content-Security-Policy opens
 * exactly the tiles' origin, and Contentful's image host only when Contentful is configured;
 * without them the policy names no outside origin. That is the pages' policy; the API's answers
 * carry the API's own, which opens nothing.
 */
import t from 'tap';
import { loadConfig } from '../config.ts';
import { startTestApp } from '../testing/testApp.ts';
import { CONTENTFUL_IMAGES, tileOrigin } from './contentSecurity.ts';

const imgSrcOf = (header: string | string[] | number | undefined) =>
  String(header)
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith('img-src'))
    ?.split(/\s+/)
    .slice(1) ?? [];

t.test('offline default: no tiles, no outside origin in the policy', async (t) => {
  const { app, close } = await startTestApp();
  t.teardown(close);
  const settings = await app.inject({ method: 'GET', url: '/api/client-settings' });
  t.equal(settings.statusCode, 200);
  t.same(settings.json(), { map: { tileUrl: null, attribution: null } });
  const page = await app.inject({ method: 'GET', url: '/signin' });
  t.same(imgSrcOf(page.headers['content-security-policy']), ["'self'", 'data:', 'blob:']);
  t.equal(
    settings.headers['content-security-policy'],
    "default-src 'none'; frame-ancestors 'none'",
    "the API's answers open nothing",
  );
});

t.test('MAP_TILE_URL and Contentful: the policy opens exactly their image origins', async (t) => {
  const tiles = 'https://{a-c}.tiles.example.com/osm/{z}/{x}/{y}.png?key=abc';
  const { app, close } = await startTestApp({
    mapTileUrl: tiles,
    mapAttribution: '© Example Maps contributors',
    contentfulSpaceId: 'space',
    contentfulAccessToken: 'token',
  });
  t.teardown(close);
  const settings = await app.inject({ method: 'GET', url: '/api/client-settings' });
  t.same(settings.json(), { map: { tileUrl: tiles, attribution: '© Example Maps contributors' } });
  const page = await app.inject({ method: 'GET', url: '/signin' });
  const imgSrc = imgSrcOf(page.headers['content-security-policy']);
  t.same(imgSrc, ["'self'", 'data:', 'blob:', 'https://*.tiles.example.com', CONTENTFUL_IMAGES]);
  const other = await app.inject({ method: 'GET', url: '/loads/carrier' });
  t.same(imgSrcOf(other.headers['content-security-policy']), imgSrc, 'on every page');
  t.notMatch(
    String(page.headers['content-security-policy']),
    /key=abc|\{/,
    'no path, query or placeholder in the policy',
  );
  t.equal(
    settings.headers['content-security-policy'],
    "default-src 'none'; frame-ancestors 'none'",
    "the API's answers keep their own",
  );
});

t.test('MAP_TILE_URL is checked at start', async (t) => {
  t.equal(tileOrigin('https://tile.example.com/{z}/{x}/{y}.png'), 'https://tile.example.com');
  t.equal(tileOrigin('http://127.0.0.1:8080/tiles/{z}/{x}/{-y}.png'), 'http://127.0.0.1:8080');
  const config = (MAP_TILE_URL: string, MAP_ATTRIBUTION?: string) =>
    loadConfig({ MAP_TILE_URL, MAP_ATTRIBUTION }, { inMemory: true });
  t.equal(config('https://tile.example.com/{z}/{x}/{y}.png', 'OSM').mapAttribution, 'OSM');
  t.equal(config('').mapTileUrl, null);
  t.equal(config('', 'orphan credit').mapAttribution, null, 'no attribution without tiles');
  for (const wrong of [
    'tile.example.com/{z}/{x}/{y}.png',
    'https://tile.example.com/tiles.png',
    'ftp://tile.example.com/{z}/{x}/{y}',
    'https://user:pw@tile.example.com/{z}/{x}/{y}.png',
    'javascript:alert(1)//{z}{x}{y}',
  ]) {
    t.throws(() => config(wrong), /MAP_TILE_URL must be an http\(s\) XYZ template/, wrong);
  }
});
