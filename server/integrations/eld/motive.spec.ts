import t from 'tap';
import { createMotiveProvider } from './motive.ts';
import { CredentialsRefusedError, ProviderUnavailableError } from './provider.ts';
import { startFakeMotive } from './testing/fakeMotive.ts';

const apiKey = 'motive-key-456';
const context = { organizationId: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f' };
const vehicles = [
  {
    id: '1001',
    name: 'T-21',
    latitude: 41.8781,
    longitude: -87.6298,
    heading: 92.5,
    speed: 58,
    time: '2026-12-01T10:00:05Z',
  },
  {
    id: '1002',
    name: 'T-22',
    latitude: 39.7684,
    longitude: -86.1581,
    heading: 180,
    time: '2026-12-01T10:00:10Z',
  },
  {
    id: '1003',
    name: 'T-23',
    latitude: 38.627,
    longitude: -90.1994,
    heading: 270,
    speed: 61,
    time: '2026-12-01T10:00:15Z',
  },
];
const fake = await startFakeMotive({ apiKey, vehicles, maxPerPage: 2 });
t.teardown(() => fake.close());
const motive = createMotiveProvider({ baseUrl: fake.url });

t.test('the catalogue entry asks for an API key only', async (t) => {
  t.equal(motive.id, 'motive');
  t.same(motive.credentialLabels, { clientId: null, clientSecret: 'API key' });
});

t.test(
  'every page of vehicle locations, by page_no, with the page size the provider allows',
  async (t) => {
    fake.requests.length = 0;
    const trucks = await motive.trucks({ clientId: null, clientSecret: apiKey }, context);
    t.same(
      fake.requests.map((request) => request.query.get('page_no')),
      ['1', '2'],
      'two pages: the provider caps per_page at 2',
    );
    t.ok(
      fake.requests.every((request) => request.query.get('per_page') === '100'),
      'asks for 100 a page',
    );
    t.ok(
      fake.requests.every((request) => request.headers['x-api-key'] === apiKey),
      'the key in X-Api-Key',
    );
    t.same(
      trucks,
      [
        {
          id: '1001',
          name: 'T-21',
          latitude: 41.8781,
          longitude: -87.6298,
          speed: 58,
          heading: 92.5,
          updatedAt: '2026-12-01T10:00:05.000Z',
        },
        {
          id: '1002',
          name: 'T-22',
          latitude: 39.7684,
          longitude: -86.1581,
          speed: null,
          heading: 180,
          updatedAt: '2026-12-01T10:00:10.000Z',
        },
        {
          id: '1003',
          name: 'T-23',
          latitude: 38.627,
          longitude: -90.1994,
          speed: 61,
          heading: 270,
          updatedAt: '2026-12-01T10:00:15.000Z',
        },
      ],
      'number as the name, bearing as the heading, located_at as the time; no speed is null',
    );
  },
);

t.test('a refused key', async (t) => {
  t.same(await motive.verify({ clientId: null, clientSecret: 'wrong' }, context), {
    ok: false,
    refused: 'Motive refused the credentials: Invalid API key',
  });
  t.same(await motive.verify({ clientId: null, clientSecret: apiKey }, context), { ok: true });
  await t.rejects(
    motive.trucks({ clientId: null, clientSecret: 'wrong' }, context),
    CredentialsRefusedError,
  );
});

t.test('a 429 with Retry-After: waited out when short, passed on when still limited', async (t) => {
  const waits: number[] = [];
  const recorded = createMotiveProvider({
    baseUrl: fake.url,
    http: {
      sleep: async (ms) => {
        waits.push(ms);
      },
    },
  });
  fake.requests.length = 0;
  fake.queue({
    status: 429,
    headers: { 'retry-after': '3' },
    body: { error_message: 'Too many requests' },
  });
  const trucks = await recorded.trucks({ clientId: null, clientSecret: apiKey }, context);
  t.equal(trucks.length, 3);
  t.same(waits, [3000], 'waited the 3 seconds asked');
  t.same(
    fake.requests.map((request) => request.query.get('page_no')),
    ['1', '1', '2'],
    'the limited page asked again',
  );

  const at = new Date(Date.now() + 45_000).toUTCString();
  fake.queue({ status: 429, headers: { 'retry-after': at } });
  const error = await motive
    .trucks({ clientId: null, clientSecret: apiKey }, context)
    .catch((caught: unknown) => caught);
  t.ok(error instanceof ProviderUnavailableError, 'an HTTP-date too far away is passed on');
  t.ok(
    (error as ProviderUnavailableError).retryAfterSeconds! >= 43 &&
      (error as ProviderUnavailableError).retryAfterSeconds! <= 46,
    `retry after ${(error as ProviderUnavailableError).retryAfterSeconds} s`,
  );
});

t.test('a provider that does not answer in time', async (t) => {
  const impatient = createMotiveProvider({ baseUrl: fake.url, http: { timeoutMs: 100 } });
  fake.queue({
    status: 200,
    body: { vehicles: [], pagination: { per_page: 2, page_no: 1, total: 0 } },
    delayMs: 1000,
  });
  await t.rejects(impatient.verify({ clientId: null, clientSecret: apiKey }, context), {
    name: 'ProviderUnavailableError',
    message: /Motive did not answer/,
  });
});
