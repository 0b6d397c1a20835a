import t from 'tap';
import { CredentialsRefusedError, ProviderUnavailableError } from './provider.ts';
import { createSamsaraProvider } from './samsara.ts';
import { startFakeSamsara } from './testing/fakeSamsara.ts';

const token = 'samsara-token-123';
const context = { organizationId: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f' };
const vehicles = [
  {
    id: '212014918732717',
    name: 'T-11',
    latitude: 41.8781,
    longitude: -87.6298,
    heading: 90,
    speed: 54.5,
    time: '2026-12-01T10:00:05Z',
  },
  {
    id: '212014918732718',
    name: 'T-12',
    latitude: 39.7684,
    longitude: -86.1581,
    heading: 180.5,
    speed: 0,
    time: '2026-12-01T10:00:10Z',
  },
  {
    id: '212014918732719',
    name: 'T-13',
    latitude: 38.627,
    longitude: -90.1994,
    heading: 270,
    speed: 61.2,
    time: '2026-12-01T10:00:15Z',
  },
  {
    id: '212014918732720',
    name: 'T-14',
    latitude: 35.1495,
    longitude: -90.049,
    heading: 45,
    speed: 48,
    time: '2026-12-01T10:00:20Z',
  },
  {
    id: '212014918732721',
    name: 'T-15',
    latitude: 33.749,
    longitude: -84.388,
    heading: 0,
    speed: 63,
    time: '2026-12-01T10:00:25Z',
  },
];
const fake = await startFakeSamsara({ token, vehicles, pageSize: 2 });
t.teardown(() => fake.close());
const samsara = createSamsaraProvider({ baseUrl: fake.url });

t.test('the catalogue entry asks for an API token only', async (t) => {
  t.equal(samsara.id, 'samsara');
  t.same(samsara.credentialLabels, { clientId: null, clientSecret: 'API token' });
});

t.test('every page of vehicle locations, following endCursor', async (t) => {
  fake.requests.length = 0;
  const trucks = await samsara.trucks({ clientId: null, clientSecret: token }, context);
  t.equal(fake.requests.length, 3, 'three pages of two');
  t.same(
    fake.requests.map((request) => request.path),
    ['/fleet/vehicles/locations', '/fleet/vehicles/locations', '/fleet/vehicles/locations'],
  );
  t.equal(fake.requests[0]!.query.get('after'), null, 'the first page has no cursor');
  t.ok(fake.requests[1]!.query.get('after'), 'the next pages pass the endCursor as after');
  t.not(fake.requests[1]!.query.get('after'), fake.requests[2]!.query.get('after'));
  t.ok(
    fake.requests.every((request) => request.headers.authorization === `Bearer ${token}`),
    'the token as a bearer',
  );
  t.same(
    trucks.map((truck) => truck.name),
    ['T-11', 'T-12', 'T-13', 'T-14', 'T-15'],
  );
  t.same(
    trucks[0],
    {
      id: '212014918732717',
      name: 'T-11',
      latitude: 41.8781,
      longitude: -87.6298,
      speed: 54.5,
      heading: 90,
      updatedAt: '2026-12-01T10:00:05.000Z',
    },
    'speed in mph as Samsara reports it, heading in degrees, time as ISO',
  );
});

t.test('a refused token', async (t) => {
  const verdict = await samsara.verify({ clientId: null, clientSecret: 'wrong' }, context);
  t.same(
    verdict,
    { ok: false, refused: 'Samsara refused the credentials: Invalid API token' },
    "the provider's reason",
  );
  t.same(await samsara.verify({ clientId: null, clientSecret: token }, context), { ok: true });
  await t.rejects(
    samsara.trucks({ clientId: null, clientSecret: 'wrong' }, context),
    CredentialsRefusedError,
  );
});

t.test('a 429 with Retry-After is waited out, then the request succeeds', async (t) => {
  fake.requests.length = 0;
  fake.queue({
    status: 429,
    headers: { 'retry-after': '1' },
    body: { message: 'Rate limit exceeded' },
  });
  const started = Date.now();
  const trucks = await samsara.trucks({ clientId: null, clientSecret: token }, context);
  const waited = Date.now() - started;
  t.equal(trucks.length, 5, 'the whole fleet after the wait');
  t.ok(waited >= 950, `waited ${waited} ms, as Retry-After asked`);
  t.equal(fake.requests.length, 4, 'the limited request was asked again');
  t.equal(
    fake.requests[0]!.query.get('after'),
    fake.requests[1]!.query.get('after'),
    'the same page',
  );
});

t.test('still limited, or asked to wait too long: 503 with the delay', async (t) => {
  fake.queue({
    status: 429,
    headers: { 'retry-after': '120' },
    body: { message: 'Rate limit exceeded' },
  });
  const error = await samsara
    .trucks({ clientId: null, clientSecret: token }, context)
    .catch((caught: unknown) => caught);
  t.ok(error instanceof ProviderUnavailableError);
  t.equal((error as ProviderUnavailableError).statusCode, 503);
  t.equal((error as ProviderUnavailableError).retryAfterSeconds, 120);
  t.match(
    (error as Error).message,
    /Samsara is limiting requests: please try again in 120 seconds/,
  );

  const waits: number[] = [];
  const patient = createSamsaraProvider({
    baseUrl: fake.url,
    http: {
      sleep: async (ms) => {
        waits.push(ms);
      },
    },
  });
  fake.queue({ status: 429, headers: { 'retry-after': '2' } }, 2);
  const twice = await patient
    .trucks({ clientId: null, clientSecret: token }, context)
    .catch((caught: unknown) => caught);
  t.same(waits, [2000], 'waited once');
  t.equal((twice as ProviderUnavailableError).retryAfterSeconds, 2, 'then passed the delay on');
});

t.test('a provider that does not answer in time, or fails', async (t) => {
  const impatient = createSamsaraProvider({ baseUrl: fake.url, http: { timeoutMs: 100 } });
  fake.queue({
    status: 200,
    body: { data: [], pagination: { endCursor: '', hasNextPage: false } },
    delayMs: 1000,
  });
  await t.rejects(impatient.trucks({ clientId: null, clientSecret: token }, context), {
    name: 'ProviderUnavailableError',
    message: /did not answer within 0.1 seconds/,
  });
  fake.queue({ status: 502, body: { message: 'Bad gateway' } });
  await t.rejects(samsara.trucks({ clientId: null, clientSecret: token }, context), {
    name: 'ProviderUnavailableError',
    message: /502/,
  });
  const nowhere = createSamsaraProvider({ baseUrl: 'http://127.0.0.1:9' });
  await t.rejects(nowhere.verify({ clientId: null, clientSecret: token }, context), {
    name: 'ProviderUnavailableError',
    message: /could not be reached/,
  });
});
