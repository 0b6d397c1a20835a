/**
 * Schema fuzz: every write route gets random and mutated JSON bodies (fast-check). No answer is a
 * 5xx or carries a stack trace. FUZZ_RUNS sets the runs per route (200 here; the slow suite raises it).
 * Figure: runs, 5xx 0.
 */
import fc from 'fast-check';
import t from 'tap';
import { bearer, organization, superadmin } from '../../server/identity/fixtures.ts';
import { loadBody } from '../../server/testing/loadBodies.ts';
import { apiRoutes, fillPath, routeKey } from '../../server/testing/routeInventory.ts';
import { startTestApp } from '../../server/testing/testApp.ts';

t.setTimeout(1_800_000);
const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS || 200));
const { app, platform, close } = await startTestApp();
t.teardown(close);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper');
const posted = await app.inject({ method: 'POST', url: '/api/loads', headers: bearer(shipper.token), payload: loadBody() });
const loadId: string = posted.json().id;

const writes = apiRoutes(app).filter((route) => route.method !== 'GET' && route.method !== 'HEAD');
/** Valid-looking seeds to mutate: what the routes expect, roughly. */
const seeds: unknown[] = [
  loadBody(), { email: 'a@example.com', password: 'x'.repeat(12) }, { refreshToken: 'x'.repeat(43) }, { code: '123456', newPassword: 'long-enough-1', email: 'a@example.com' },
  { status: 5, price: 1200, message: 'hi' }, { name: 'lane', origin: { latitude: 41.8, longitude: -87.6, radius: 50 } },
  { message: 'hello' }, [{ latitude: 41.8, longitude: -87.6, speed: 50 }], { criteria: [{ id: 1, value: 5 }] },
  { email: 'b@example.com', username: 'bee', password: 'long-enough-1', roleId: 2, userDetails: { name: 'B', phone: '555-555-0100' } },
];
const mutate = (seed: unknown) => fc.tuple(fc.constant(seed), fc.string(), fc.jsonValue()).map(([value, key, replacement]) => {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const target = keys.length ? keys[Math.abs(key.length * 7919) % keys.length] : key;
    return { ...(value as object), [target]: replacement, ...(key ? { [key]: replacement } : {}) };
  }
  return replacement;
});
const bodies = fc.oneof(
  fc.jsonValue(),
  fc.object({ maxDepth: 3 }).map((value) => JSON.parse(JSON.stringify(value, (_key, inner) => (typeof inner === 'bigint' ? String(inner) : inner)) ?? 'null')),
  fc.constantFrom(...seeds).chain(mutate),
  fc.string().map((text) => ({ raw: text })),
);

let requests = 0;
let serverErrors = 0;
let traces = 0;
let address = 0;

for (const route of writes) {
  t.test(`${routeKey(route)}: ${RUNS} runs`, async (t) => {
    await fc.assert(fc.asyncProperty(bodies, fc.boolean(), async (body, asShipper) => {
      address += 1;
      const raw = body !== null && typeof body === 'object' && 'raw' in (body as object) && Object.keys(body as object).length === 1;
      const response = await app.inject({
        method: route.method as 'POST',
        url: fillPath(route.url, { id: loadId, loadId }),
        headers: { ...bearer(asShipper ? shipper.token : admin.token), 'content-type': 'application/json' },
        payload: raw ? String((body as { raw: string }).raw) : JSON.stringify(body),
        remoteAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
      });
      requests += 1;
      const trace = /\n\s+at |\.ts:\d+|node_modules/.test(response.body);
      if (response.statusCode >= 500) serverErrors += 1;
      if (trace) traces += 1;
      return response.statusCode < 500 && !trace;
    }), { numRuns: RUNS, endOnFailure: true });
  });
}

t.test('figure', async (t) => {
  t.equal(serverErrors, 0);
  t.comment(`schema fuzz: ${writes.length} write routes × ${RUNS} runs = ${requests} requests, 5xx ${serverErrors}, stack traces ${traces}`);
});
