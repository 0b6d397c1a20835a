/**
 * Every number and date a client sends is range-checked before it reaches SQL, and every field has a
 * sane bound (issue "Trust boundary", items 5 and 6): out-of-range table filters, pages and replay
 * times answer 400 naming the field instead of 500; oversized texts, too many stops, far-off dates,
 * absurd weights, rates and prices answer 400 naming the field, and nothing is written; a price is a
 * JSON number, never coerced from `true`, `[2500]` or `"0x10"`.
 */
import t, { type Test } from 'tap';
import { Role } from '../../domain/permissions.ts';
import { bearer, member, multipart, organization, PDF, superadmin } from '../identity/fixtures.ts';
import { CHICAGO, INDIANAPOLIS, inHours, loadBody, stop } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
const { app, platform, close } = await startTestApp();
t.teardown(close);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper');
const carrier = await organization(app, platform, 'Carrier');
await member(app, platform, carrier.organizationId!, Role.Driver);
const open = await app.inject({
  method: 'POST',
  url: '/api/loads',
  headers: bearer(shipper.token),
  payload: loadBody(),
});
const loadId: string = open.json().id;

const get = (token: string, url: string, query: Record<string, string>) =>
  app.inject({ method: 'GET', url, query, headers: bearer(token) });
const filters = (name: string, value: unknown) => ({
  filters: JSON.stringify([{ name, value: [value] }]),
});
const head = () => platform.store.committedHead();

t.test(
  'item 5: a status filter of 1.5, 2147483648 or 1e308 is a 400 naming the filter, on every table',
  async (t) => {
    // Each table with a status it knows.
    const tables: [string, string, number][] = [
      [shipper.token, '/api/loads/shipper', 2],
      [admin.token, '/api/loads/shipper', 2],
      [admin.token, '/api/users', 2],
      [admin.token, '/api/users/list/carriers', 2],
      [admin.token, '/api/users/list/shippers', 2],
      [admin.token, '/api/proposals', 5],
      [carrier.token, '/api/proposals/carrier', 5],
      [admin.token, '/api/tours', 2],
      [shipper.token, `/api/proposal/${loadId}`, 5],
    ];
    for (const [token, url, known] of tables) {
      for (const value of [1.5, 2147483648, 1e308, '1e308', '0x10', true]) {
        const response = await get(token, url, filters('status', value));
        t.equal(response.statusCode, 400, `${url} status ${JSON.stringify(value)}: 400`);
        t.match(response.json(), {
          statusCode: 400,
          error: 'Bad Request',
          message: 'Unknown status in the status filter',
          errors: [{ path: 'filters' }],
        });
      }
      t.equal(
        (await get(token, url, filters('status', known))).statusCode,
        200,
        `${url}: a real status still filters`,
      );
    }
  },
);

t.test(
  'item 5: pickupFrom and pickupTo outside 1970..2100 are a 400 naming the filter; a real date filters',
  async (t) => {
    for (const name of ['pickupFrom', 'pickupTo']) {
      for (const value of [
        '0000-01-01T00:00:00Z',
        '+275760-09-13T00:00:00Z',
        '-000001-01-01T00:00:00Z',
        '9999-12-31T00:00:00Z',
        'tomorrow',
        1e308,
      ]) {
        const response = await get(carrier.token, '/api/loads/carrier', filters(name, value));
        t.equal(response.statusCode, 400, `${name} ${JSON.stringify(value)}: 400`);
        t.match(response.json(), {
          message: `${name} must be a date and time between 1970 and 2100`,
          errors: [{ path: 'filters' }],
        });
      }
    }
    const ok = await get(carrier.token, '/api/loads/carrier', {
      filters: JSON.stringify([
        { name: 'pickupFrom', value: [inHours(1)] },
        { name: 'pickupTo', value: [inHours(100)] },
      ]),
    });
    t.equal(ok.statusCode, 200);
    t.ok(
      ok.json().data.some((row: { id: string }) => row.id === loadId),
      'the open load is in the window',
    );
  },
);

t.test(
  'item 5: maxWeight, areas, equipment and pages out of range are 400s naming the field',
  async (t) => {
    for (const value of [1e308, -1, 200_001, '0x10', true]) {
      const response = await get(carrier.token, '/api/loads/carrier', filters('maxWeight', value));
      t.equal(response.statusCode, 400, `maxWeight ${JSON.stringify(value)}`);
      t.match(response.json(), {
        message: 'maxWeight must be a number from 1 to 200,000',
        errors: [{ path: 'filters' }],
      });
    }
    t.equal(
      (await get(carrier.token, '/api/loads/carrier', filters('maxWeight', 45000))).statusCode,
      200,
      'a real weight filters',
    );
    for (const area of [
      { latitude: 1e308, longitude: 0, radius: 50 },
      { latitude: '0x10', longitude: -87, radius: 50 },
      { latitude: 41, longitude: -87, radius: 2147483648 },
      { latitude: true, longitude: -87, radius: 50 },
    ]) {
      const response = await get(carrier.token, '/api/loads/carrier', filters('origin', area));
      t.equal(response.statusCode, 400, `origin ${JSON.stringify(area)}`);
      t.match(response.json(), { message: /^origin: /, errors: [{ path: 'filters' }] });
    }
    // Subnormal coordinates are places too (rounded to a centimetre: 0): PostgreSQL's float arithmetic
    // must not underflow on them in the distance formula.
    for (const area of [
      { latitude: -3.5e-323, longitude: 2.670412864937759e-286, radius: 100 },
      { latitude: 41.88, longitude: -5e-324, radius: 50 },
    ]) {
      const response = await get(carrier.token, '/api/loads/carrier', filters('origin', area));
      t.equal(
        response.statusCode,
        200,
        `origin ${JSON.stringify(area)}: ${response.body.slice(0, 200)}`,
      );
    }
    const subnormal = await app.inject({
      method: 'GET',
      url: '/api/insights/lanes',
      query: { origin: `0.${'0'.repeat(50)}1,0.5`, destination: '41.88,-87.63' },
      headers: bearer(carrier.token),
    });
    t.equal(
      subnormal.statusCode,
      200,
      `a lane from a point a hair off the equator: ${subnormal.body.slice(0, 200)}`,
    );
    t.equal(
      (await get(carrier.token, '/api/loads/carrier', filters('equipment', 2147483648))).statusCode,
      400,
      'equipment 2147483648',
    );
    for (const [name, value] of [
      ['page', '1.5'],
      ['page', '1e308'],
      ['page', '0x10'],
      ['page', '0'],
      ['pageSize', '2147483648'],
      ['pageSize', '-1'],
    ]) {
      const response = await get(shipper.token, '/api/loads/shipper', { [name]: value });
      t.equal(response.statusCode, 400, `${name}=${value}`);
      t.match(response.json(), { errors: [{ path: name }] }, `names ${name}`);
    }
  },
);

t.test(
  'item 5: a history replay and a positions catch-up outside 1970..2100 are 400s naming the field',
  async (t) => {
    const history = await get(shipper.token, `/api/loads/${loadId}/history`, {
      at: '0000-01-01T00:00:00Z',
    });
    t.equal(history.statusCode, 400);
    t.match(history.json(), {
      message: 'at must be a date and time between 1970 and 2100',
      errors: [{ path: 'at' }],
    });
    t.equal(
      (await get(shipper.token, `/api/loads/${loadId}/history`, { at: new Date().toISOString() }))
        .statusCode,
      200,
      'now replays',
    );
  },
);

/** Posts a load body and expects a 400 naming `path` with `message`, and nothing written. */
const refused = async (
  t: Test,
  body: unknown,
  path: string,
  message: string | RegExp,
  url = '/api/loads',
  method: 'POST' | 'PUT' = 'POST',
) => {
  const before = await head();
  const response = await app.inject({
    method,
    url,
    headers: bearer(shipper.token),
    payload: body as object,
  });
  t.equal(response.statusCode, 400, `${path}: 400`);
  const errors: { path: string; message: string }[] = response.json().errors ?? [];
  t.ok(
    errors.some(
      (error) =>
        error.path === path &&
        (typeof message === 'string' ? error.message === message : message.test(error.message)),
    ),
    `${path}: ${String(message)} (got ${JSON.stringify(errors).slice(0, 300)})`,
  );
  t.same(await head(), before, `${path}: nothing written`);
};

t.test(
  'item 6: a load with oversized texts, too many stops, absurd numbers or a far-off date is refused, naming the field',
  async (t) => {
    await refused(
      t,
      loadBody({ commodity: 'x'.repeat(500_000) }),
      'commodity',
      'The commodity can have at most 200 characters',
    );
    await refused(
      t,
      loadBody({ description: 'x'.repeat(2001) }),
      'description',
      'The description can have at most 2,000 characters',
    );
    await refused(
      t,
      loadBody({ refNumber: 'x'.repeat(101) }),
      'refNumber',
      'The reference number can have at most 100 characters',
    );
    await refused(
      t,
      loadBody({
        locations: [
          stop({ ...CHICAGO, address: 'x'.repeat(301) }, 1, 'Mill'),
          stop(INDIANAPOLIS, 4, 'Works'),
        ],
      }),
      'locations.0.address',
      'The address can have at most 300 characters',
    );
    await refused(
      t,
      loadBody({ locations: [stop(CHICAGO, 1, 'M'.repeat(201)), stop(INDIANAPOLIS, 4, 'Works')] }),
      'locations.0.name',
      'The facility name can have at most 200 characters',
    );
    await refused(
      t,
      loadBody({
        locations: [
          stop(CHICAGO, 1, 'Mill', { contactName: 'c'.repeat(101) }),
          stop(INDIANAPOLIS, 4, 'Works'),
        ],
      }),
      'locations.0.contactName',
      'The contact name can have at most 100 characters',
    );
    const many = [
      stop(CHICAGO, 1, 'Mill'),
      ...Array.from({ length: 498 }, (_, index) => stop(CHICAGO, 2, `Dock ${index}`)),
      stop(INDIANAPOLIS, 4, 'Works'),
    ];
    await refused(t, loadBody({ locations: many }), 'locations', 'A load has at most 10 stops');
    await refused(
      t,
      loadBody({ weight: 1e308 }),
      'weight',
      'Please enter a weight of at most 200,000 lb',
    );
    await refused(t, loadBody({ rate: 1e308 }), 'rate', 'Please enter a rate of at most 1,000,000');
    await refused(t, loadBody({ rateTypeId: 2147483648 }), 'rateTypeId', /rate type/i);
    await refused(
      t,
      loadBody({ loadEquipment: Array.from({ length: 600 }, () => 5) }),
      'loadEquipment',
      /equipment/i,
    );
    await refused(
      t,
      loadBody({
        pickupTimestampStart: '9999-01-01T10:00:00Z',
        dropOffTimestampStart: '9999-01-02T10:00:00Z',
      }),
      'pickupTimestampStart',
      'Please pick a date within the next 2 years.',
    );
    await refused(
      t,
      loadBody({ dropOffTimestampStart: inHours(24 * 365 * 3) }),
      'dropOffTimestampStart',
      'Please pick a date within the next 2 years.',
    );
    await refused(
      t,
      loadBody({ pickupTimestampStart: '+275760-09-13T00:00:00Z' }),
      'pickupTimestampStart',
      'Please enter a valid date and time',
    );
    // The same bounds on an edit and on extending the offer.
    await refused(
      t,
      { ...loadBody({ commodity: 'x'.repeat(201) }), loadId },
      'commodity',
      'The commodity can have at most 200 characters',
      '/api/loads',
      'PUT',
    );
    await refused(
      t,
      { loadId, newExpiration: '9999-01-01T10:00:00Z' },
      'newExpiration',
      'Please pick a date within the next 2 years.',
      '/api/loads',
      'PUT',
    );
    const posted = await app.inject({
      method: 'POST',
      url: '/api/loads',
      headers: bearer(shipper.token),
      payload: loadBody({
        weight: 200_000,
        commodity: 'c'.repeat(200),
        locations: [
          stop(CHICAGO, 1, 'Mill'),
          ...Array.from({ length: 8 }, (_, index) => stop(CHICAGO, 2, `Dock ${index}`)),
          stop(INDIANAPOLIS, 4, 'Works'),
        ],
      }),
    });
    t.equal(posted.statusCode, 201, 'a load at every bound is posted');
  },
);

t.test(
  'item 6: an offer price is a JSON number from 0.01 to 1,000,000; true, [2500] and "0x10" are refused and nothing is written',
  async (t) => {
    for (const price of [true, [2500], '0x10', '2500', 1e308, 1_000_000.01, 0, -1, null]) {
      const before = await head();
      const response = await app.inject({
        method: 'POST',
        url: `/api/proposal/${loadId}`,
        headers: bearer(carrier.token),
        payload: { price, message: 'hi' },
      });
      t.equal(response.statusCode, 400, `price ${JSON.stringify(price)}: 400`);
      t.match(response.json(), { statusCode: 400, errors: [{ path: 'price' }] });
      t.same(await head(), before, `price ${JSON.stringify(price)}: nothing written`);
    }
    const long = await app.inject({
      method: 'POST',
      url: `/api/proposal/${loadId}`,
      headers: bearer(carrier.token),
      payload: { price: 2500, message: 'm'.repeat(2001) },
    });
    t.match(long.json(), {
      statusCode: 400,
      errors: [{ path: 'message', message: 'A message can have at most 2000 characters' }],
    });
    const made = await app.inject({
      method: 'POST',
      url: `/api/proposal/${loadId}`,
      headers: bearer(carrier.token),
      payload: { price: 1_000_000, message: 'Top dollar' },
    });
    t.equal(made.statusCode, 201, 'the largest price is an offer');
    const counter = await app.inject({
      method: 'PUT',
      url: `/api/proposal/${made.json().id}`,
      headers: bearer(shipper.token),
      payload: { status: 11, price: [900_000] },
    });
    t.match(
      counter.json(),
      { statusCode: 400, errors: [{ path: 'price' }] },
      'a counter price is a number too',
    );
  },
);

t.test('item 6: the multipart data of a registration is bounded too', async (t) => {
  const registration = (extra: Record<string, unknown>) => ({
    email: `bounds-${Math.random().toString(36).slice(2)}@example.com`,
    username: `bounds-${Math.random().toString(36).slice(2)}`,
    password: 'password-123',
    userDetails: { name: 'New Registrant', phone: '555-555-0108' },
    acceptTerms: true,
    mcNumber: 123456,
    dotNumber: 654321,
    organization: {
      name: 'Bounded Freight',
      organizationContactInfo: {
        address: '1 Main St, Springfield, IL',
        person: 'Pat',
        email: 'pat@example.com',
        phone: '555-555-0109',
      },
    },
    ...extra,
  });
  const documents = {
    mcAuthority: { content: PDF, type: 'application/pdf' },
    certificateOfInsurance: { content: PDF, type: 'application/pdf' },
    w9Form: { content: PDF, type: 'application/pdf' },
  };
  const cases: [Record<string, unknown>, string][] = [
    [{ mcNumber: 1e308 }, 'mcNumber'],
    [{ dotNumber: 2147483648 }, 'dotNumber'],
    [{ trucks: [{ type: 1, count: 1e308 }] }, 'trucks.0.count'],
    [{ password: 'p'.repeat(100_000) }, 'password'],
    [{ username: 'u'.repeat(201) }, 'username'],
    [
      {
        organization: {
          name: 'n'.repeat(201),
          organizationContactInfo: {
            address: 'a',
            person: 'p',
            email: 'pat@example.com',
            phone: '555-555-0109',
          },
        },
      },
      'organization.name',
    ],
  ];
  for (const [extra, path] of cases) {
    const before = await head();
    const form = multipart(registration(extra), documents);
    const response = await app.inject({
      method: 'POST',
      url: '/api/register/carrier',
      headers: form.headers,
      payload: form.payload,
    });
    t.equal(response.statusCode, 400, `${path}: 400`);
    t.ok(
      (response.json().errors ?? []).some((error: { path: string }) => error.path === path),
      `${path} named (${JSON.stringify(response.json().errors).slice(0, 200)})`,
    );
    t.same(await head(), before, `${path}: nothing written`);
  }
});

t.test('item 6: lists are bounded, and an insured amount is 1 or 2, not "0x1"', async (t) => {
  const ratings = Array.from({ length: 600 }, () => ({ criteria: 1, rating: 5 }));
  const rated = await app.inject({
    method: 'POST',
    url: `/api/tours/${loadId}/rate`,
    headers: bearer(shipper.token),
    payload: { ratings },
  });
  t.match(
    rated.json(),
    { statusCode: 400, errors: [{ path: 'ratings', message: 'Rate every criterion once' }] },
    '600 ratings: 400 naming ratings',
  );
  const search = await app.inject({
    method: 'POST',
    url: '/api/searches',
    headers: bearer(carrier.token),
    payload: { name: 'Lane', equipment: Array.from({ length: 600 }, () => 5) },
  });
  t.match(
    search.json(),
    { statusCode: 400, errors: [{ path: 'equipment' }] },
    '600 equipment ids: 400 naming equipment',
  );
  const form = multipart({ insuredAmount: '0x1' });
  const shipperProfile = await app.inject({
    method: 'POST',
    url: '/api/users/shipper',
    headers: { ...bearer(shipper.token), ...form.headers },
    payload: form.payload,
  });
  t.match(
    shipperProfile.json(),
    { statusCode: 400, errors: [{ path: 'insuredAmount' }] },
    'insuredAmount "0x1": 400',
  );
});
