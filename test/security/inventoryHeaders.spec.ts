/**
 * Every route the app registers is documented in its OpenAPI document, declared in the access table
 * and guarded; every answer carries the security headers; CORS answers only the allowed origins;
 * content types that try to slip past the JSON parser are still validated.
 * Figures: undocumented 0, unguarded 0; headers missing 0, CORS leaks 0, content-type bypasses 0.
 */
import t from 'tap';
import { accessTable } from '../../server/testing/accessTable.ts';
import { apiRoutes, fillPath, routeKey } from '../../server/testing/routeInventory.ts';
import { startTestApp } from '../../server/testing/testApp.ts';
import { bearer, organization } from '../../server/identity/fixtures.ts';

t.setTimeout(600_000);
const { app, platform, close } = await startTestApp();
t.teardown(close);

const routes = apiRoutes(app);
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

t.test(
  'route inventory: documented in OpenAPI, declared in the access table, guarded',
  async (t) => {
    const docs = await app.inject({ method: 'GET', url: '/api/docs/json' });
    t.equal(docs.statusCode, 200);
    const paths = docs.json().paths as Record<string, Record<string, unknown>>;
    const undocumented = routes
      .filter((route) => !paths[openApiPath(route.url)]?.[route.method.toLowerCase()])
      .map(routeKey);
    const undeclared = routes.map(routeKey).filter((key) => !Object.hasOwn(accessTable, key));
    // Public by `config.public` (open, or a trading partner's key), or a `can(...)` guard in onRequest (before the body is read): nothing else.
    const unguarded = routes
      .filter((route) =>
        route.public
          ? route.permissions !== null
          : route.permissions === null || route.guardHook !== 'onRequest',
      )
      .map(routeKey);
    const publicByTable = routes
      .filter(
        (route) =>
          route.public !==
          ['public', 'partnerKey'].includes(
            String((accessTable as Record<string, { access: unknown }>)[routeKey(route)]?.access),
          ),
      )
      .map(routeKey);
    t.same(undocumented, [], 'every route is in /api/docs/json');
    t.same(undeclared, [], 'every route has a row in the access table');
    t.same(unguarded, [], 'every route is public or guarded in onRequest');
    t.same(publicByTable, [], 'public in the app exactly where public in the table');
    t.ok(routes.length > 50, `${routes.length} routes`);
    t.comment(
      `route inventory: ${routes.length} routes, undocumented ${undocumented.length}, unguarded ${unguarded.length}, undeclared ${undeclared.length}`,
    );
  },
);

const SECURITY_HEADERS: Record<string, RegExp> = {
  'x-content-type-options': /^nosniff$/,
  'x-frame-options': /^(DENY|SAMEORIGIN)$/,
  'content-security-policy': /frame-ancestors 'none'/,
  'strict-transport-security': /max-age=\d{7,}/,
  'referrer-policy': /no-referrer/,
  'cross-origin-opener-policy': /same-origin/,
  'cross-origin-resource-policy': /same-origin/,
};

t.test('security headers on every route, signed in or not, and on unknown paths', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  let requests = 0;
  const missing: string[] = [];
  for (const route of [...routes, { method: 'GET', url: '/api/no-such-route' }]) {
    for (const headers of [{}, bearer(shipper.token)]) {
      // The event stream never ends for a permitted caller: sent anonymously only.
      if (route.url === '/api/events/stream' && 'authorization' in headers) continue;
      const response = await app.inject({
        method: route.method as 'GET',
        url: fillPath(route.url),
        headers,
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      requests += 1;
      t.ok(response.statusCode < 500, `${route.method} ${route.url}: ${response.statusCode}`);
      for (const [name, pattern] of Object.entries(SECURITY_HEADERS)) {
        if (!pattern.test(String(response.headers[name] ?? '')))
          missing.push(`${route.method} ${route.url} ${name}`);
      }
      if (response.headers['access-control-allow-origin'])
        missing.push(`${route.method} ${route.url} has ACAO without CORS_ORIGINS`);
    }
  }
  t.same(missing, [], 'no header missing');
  t.comment(`headers: ${requests} requests, missing ${missing.length}`);
});

t.test('content types that try to pass the JSON parser are still validated', async (t) => {
  // An invalid sign-in body: 400 (parsed and validated) or 415 (refused), never a sign-in or a 5xx.
  const body = JSON.stringify({ email: { $ne: null }, password: ['x'] });
  const types = [
    'application/json\t;',
    'Application/JSON',
    'APPLICATION/JSON; charset=UTF-8',
    'application/json ; charset=utf-8',
    'application/json;charset=latin1',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/jsonp',
    'application/json, text/plain',
    '',
  ];
  let bypasses = 0;
  for (const type of types) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: type ? { 'content-type': type } : {},
      payload: body,
    });
    const refused = response.statusCode === 400 || response.statusCode === 415;
    if (!refused) bypasses += 1;
    t.ok(refused, `${JSON.stringify(type)}: ${response.statusCode}`);
  }
  const shipper = await organization(app, platform, 'Shipper');
  for (const type of [
    'application/json\t;',
    'Application/Json',
    'application/JSON; charset=utf-8',
  ]) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { ...bearer(shipper.token), 'content-type': type },
      payload: JSON.stringify({ email: 'x', roleId: 1 }),
    });
    if (![400, 415].includes(response.statusCode)) bypasses += 1;
    t.ok(
      [400, 415].includes(response.statusCode),
      `POST /api/users with ${JSON.stringify(type)}: ${response.statusCode}`,
    );
  }
  t.equal(bypasses, 0);
  t.comment(`content-type: ${types.length + 3} variants, bypasses ${bypasses}`);
});

t.test('CORS: without CORS_ORIGINS no origin is allowed; with it, only those listed', async (t) => {
  const allowed = 'https://app.freight.example';
  const cors = await startTestApp({ corsOrigins: [allowed] });
  t.teardown(cors.close);
  let leaks = 0;
  const origins = [
    'https://evil.example',
    'null',
    `${allowed}.evil.example`,
    'https://app.freight.example:8443',
    'http://app.freight.example',
    allowed,
  ];
  for (const [name, target] of [
    ['default', app],
    ['CORS_ORIGINS', cors.app],
  ] as const) {
    for (const origin of origins) {
      const simple = await target.inject({
        method: 'GET',
        url: '/api/health',
        headers: { origin },
      });
      const preflight = await target.inject({
        method: 'OPTIONS',
        url: '/api/loads',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      const expected = name === 'CORS_ORIGINS' && origin === allowed ? allowed : undefined;
      for (const response of [simple, preflight]) {
        const acao = response.headers['access-control-allow-origin'];
        if (acao !== expected) leaks += 1;
        t.equal(acao, expected, `${name}, Origin ${origin}: ACAO ${acao}`);
        t.not(
          response.headers['access-control-allow-credentials'],
          'true',
          'never with credentials',
        );
      }
    }
  }
  t.equal(leaks, 0);
  t.comment(`CORS: ${origins.length * 4} requests, wrong ACAO ${leaks}`);
});
