/**
 * Every number and date a client sends is range-checked before it reaches SQL, and every field has a
 * sane bound (issue "Trust boundary", items 5 and 6): out-of-range table filters, pages and replay
 * times answer 400 naming the field instead of 500; oversized texts, too many stops, far-off dates,
 * absurd weights, rates and prices answer 400 naming the field, and nothing is written; a price is a
 * JSON number, never coerced from `true`, `[2500]` or `"0x10"`.
 */
import t, { type Test } from 'tap';
import { loadStream } from '../../domain/loads/load.types.ts';
import { loadOffersStream } from '../../domain/offers/loadOffers.ts';
import { offerStream } from '../../domain/offers/offer.types.ts';
import { Role } from '../../domain/permissions.ts';
import { member, organization, PDF, superadmin } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { CHICAGO, INDIANAPOLIS, inHours, loadBody, stop } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
const { app, platform, close } = await startTestApp();
t.teardown(close);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper');
const carrier = await organization(app, platform, 'Carrier');
await member(app, platform, carrier.organizationId!, Role.Driver);
const as = requester(app);
const open = await as(shipper).post('/api/loads', loadBody());
const loadId: string = open.body.id;

const filters = (name: string, value: unknown) => ({
  filters: JSON.stringify([{ name, value: [value] }]),
});
/** The log from now on: a refused request, and a read, append nothing. */
const watch = () => watchEvents(platform.store);

t.test(
  'item 5: a status filter of 1.5, 2147483648 or 1e308 is a 400 naming the filter, on every table',
  async (t) => {
    const events = await watch();
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
        const response = await as(token).get(url, filters('status', value));
        t.equal(response.status, 400, `${url} status ${JSON.stringify(value)}: 400`);
        t.match(response.body, {
          statusCode: 400,
          error: 'Bad Request',
          message: 'Unknown status in the status filter',
          errors: [{ path: 'filters' }],
        });
        await events.expect(t, [], {
          message: `${url} status ${JSON.stringify(value)}: nothing written`,
        });
      }
      t.equal(
        (await as(token).get(url, filters('status', known))).status,
        200,
        `${url}: a real status still filters`,
      );
    }
    await events.expect(t, [], { message: 'the reads appended nothing' });
  },
);

t.test(
  'item 5: pickupFrom and pickupTo outside 1970..2100 are a 400 naming the filter; a real date filters',
  async (t) => {
    const events = await watch();
    for (const name of ['pickupFrom', 'pickupTo']) {
      for (const value of [
        '0000-01-01T00:00:00Z',
        '+275760-09-13T00:00:00Z',
        '-000001-01-01T00:00:00Z',
        '9999-12-31T00:00:00Z',
        'tomorrow',
        1e308,
      ]) {
        const response = await as(carrier).get('/api/loads/carrier', filters(name, value));
        t.equal(response.status, 400, `${name} ${JSON.stringify(value)}: 400`);
        t.match(response.body, {
          message: `${name} must be a date and time between 1970 and 2100`,
          errors: [{ path: 'filters' }],
        });
        await events.expect(t, [], {
          message: `${name} ${JSON.stringify(value)}: nothing written`,
        });
      }
    }
    const ok = await as(carrier).get('/api/loads/carrier', {
      filters: JSON.stringify([
        { name: 'pickupFrom', value: [inHours(1)] },
        { name: 'pickupTo', value: [inHours(100)] },
      ]),
    });
    t.equal(ok.status, 200);
    t.ok(
      ok.body.data.some((row: { id: string }) => row.id === loadId),
      'the open load is in the window',
    );
    await events.expect(t, [], { message: 'the read appended nothing' });
  },
);

t.test(
  'item 5: maxWeight, areas, equipment and pages out of range are 400s naming the field',
  async (t) => {
    const events = await watch();
    for (const value of [1e308, -1, 200_001, '0x10', true]) {
      const response = await as(carrier).get('/api/loads/carrier', filters('maxWeight', value));
      t.equal(response.status, 400, `maxWeight ${JSON.stringify(value)}`);
      t.match(response.body, {
        message: 'maxWeight must be a number from 1 to 200,000',
        errors: [{ path: 'filters' }],
      });
      await events.expect(t, [], {
        message: `maxWeight ${JSON.stringify(value)}: nothing written`,
      });
    }
    t.equal(
      (await as(carrier).get('/api/loads/carrier', filters('maxWeight', 45000))).status,
      200,
      'a real weight filters',
    );
    for (const area of [
      { latitude: 1e308, longitude: 0, radius: 50 },
      { latitude: '0x10', longitude: -87, radius: 50 },
      { latitude: 41, longitude: -87, radius: 2147483648 },
      { latitude: true, longitude: -87, radius: 50 },
    ]) {
      const response = await as(carrier).get('/api/loads/carrier', filters('origin', area));
      t.equal(response.status, 400, `origin ${JSON.stringify(area)}`);
      t.match(response.body, { message: /^origin: /, errors: [{ path: 'filters' }] });
      await events.expect(t, [], { message: `origin ${JSON.stringify(area)}: nothing written` });
    }
    // Subnormal coordinates are places too (rounded to a centimetre: 0): PostgreSQL's float arithmetic
    // must not underflow on them in the distance formula.
    for (const area of [
      { latitude: -3.5e-323, longitude: 2.670412864937759e-286, radius: 100 },
      { latitude: 41.88, longitude: -5e-324, radius: 50 },
    ]) {
      const response = await as(carrier).get('/api/loads/carrier', filters('origin', area));
      t.equal(
        response.status,
        200,
        `origin ${JSON.stringify(area)}: ${response.text.slice(0, 200)}`,
      );
    }
    const subnormal = await as(carrier).get('/api/insights/lanes', {
      origin: `0.${'0'.repeat(50)}1,0.5`,
      destination: '41.88,-87.63',
    });
    t.equal(
      subnormal.status,
      200,
      `a lane from a point a hair off the equator: ${subnormal.text.slice(0, 200)}`,
    );
    t.equal(
      (await as(carrier).get('/api/loads/carrier', filters('equipment', 2147483648))).status,
      400,
      'equipment 2147483648',
    );
    await events.expect(t, [], {
      message: 'the subnormal reads and equipment 2147483648 appended nothing',
    });
    for (const [name, value] of [
      ['page', '1.5'],
      ['page', '1e308'],
      ['page', '0x10'],
      ['page', '0'],
      ['pageSize', '2147483648'],
      ['pageSize', '-1'],
    ]) {
      const response = await as(shipper).get('/api/loads/shipper', { [name]: value });
      t.equal(response.status, 400, `${name}=${value}`);
      t.match(response.body, { errors: [{ path: name }] }, `names ${name}`);
      await events.expect(t, [], { message: `${name}=${value}: nothing written` });
    }
  },
);

t.test(
  'item 5: a history replay and a positions catch-up outside 1970..2100 are 400s naming the field',
  async (t) => {
    const events = await watch();
    const history = await as(shipper).get(`/api/loads/${loadId}/history`, {
      at: '0000-01-01T00:00:00Z',
    });
    t.equal(history.status, 400);
    t.match(history.body, {
      message: 'at must be a date and time between 1970 and 2100',
      errors: [{ path: 'at' }],
    });
    await events.expect(t, [], { message: 'the refused replay appended nothing' });
    t.equal(
      (await as(shipper).get(`/api/loads/${loadId}/history`, { at: new Date().toISOString() }))
        .status,
      200,
      'now replays',
    );
    await events.expect(t, [], { message: 'the replay appended nothing' });
  },
);

/** Sends a load body and expects a 400 naming `path` with `message`, and nothing written. */
const refused = async (
  t: Test,
  body: unknown,
  path: string,
  message: string | RegExp,
  url = '/api/loads',
  method: 'post' | 'put' = 'post',
) => {
  const events = await watch();
  const response = await as(shipper)[method](url, body);
  t.equal(response.status, 400, `${path}: 400`);
  const errors: { path: string; message: string }[] = response.body.errors ?? [];
  t.ok(
    errors.some(
      (error) =>
        error.path === path &&
        (typeof message === 'string' ? error.message === message : message.test(error.message)),
    ),
    `${path}: ${String(message)} (got ${JSON.stringify(errors).slice(0, 300)})`,
  );
  await events.expect(t, [], { message: `${path}: nothing written` });
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
      'put',
    );
    await refused(
      t,
      { loadId, newExpiration: '9999-01-01T10:00:00Z' },
      'newExpiration',
      'Please pick a date within the next 2 years.',
      '/api/loads',
      'put',
    );
    const events = await watch();
    const posted = await as(shipper).post(
      '/api/loads',
      loadBody({
        weight: 200_000,
        commodity: 'c'.repeat(200),
        locations: [
          stop(CHICAGO, 1, 'Mill'),
          ...Array.from({ length: 8 }, (_, index) => stop(CHICAGO, 2, `Dock ${index}`)),
          stop(INDIANAPOLIS, 4, 'Works'),
        ],
      }),
    );
    t.equal(posted.status, 201, 'a load at every bound is posted');
    const [postedEvent] = await events.expect(t, [
      {
        type: 'LoadPosted',
        stream: loadStream(posted.body.id),
        data: {
          loadId: posted.body.id,
          shipperOrganizationId: shipper.organizationId,
          details: { weight: 200_000, commodity: 'c'.repeat(200) },
        },
      },
    ]);
    t.equal(
      (postedEvent?.data as { details: { stops: unknown[] } } | undefined)?.details.stops.length,
      10,
      'with its ten stops',
    );
  },
);

t.test(
  'item 6: an offer price is a JSON number from 0.01 to 1,000,000; true, [2500] and "0x10" are refused and nothing is written',
  async (t) => {
    const events = await watch();
    for (const price of [true, [2500], '0x10', '2500', 1e308, 1_000_000.01, 0, -1, null]) {
      const response = await as(carrier).post(`/api/proposal/${loadId}`, { price, message: 'hi' });
      t.equal(response.status, 400, `price ${JSON.stringify(price)}: 400`);
      t.match(response.body, { statusCode: 400, errors: [{ path: 'price' }] });
      await events.expect(t, [], { message: `price ${JSON.stringify(price)}: nothing written` });
    }
    const long = await as(carrier).post(`/api/proposal/${loadId}`, {
      price: 2500,
      message: 'm'.repeat(2001),
    });
    t.match(long.body, {
      statusCode: 400,
      errors: [{ path: 'message', message: 'A message can have at most 2000 characters' }],
    });
    await events.expect(t, [], { message: 'a message too long: nothing written' });
    const made = await as(carrier).post(`/api/proposal/${loadId}`, {
      price: 1_000_000,
      message: 'Top dollar',
    });
    t.equal(made.status, 201, 'the largest price is an offer');
    const offerId: string = made.body.id;
    await events.expect(t, [
      {
        type: 'ProposalSubmitted',
        stream: offerStream(offerId),
        data: {
          proposalId: offerId,
          loadId,
          carrierOrganizationId: carrier.organizationId,
          price: 1_000_000,
        },
      },
      { type: 'ProposalListed', stream: loadOffersStream(loadId), data: { proposalId: offerId } },
    ]);
    const counter = await as(shipper).put(`/api/proposal/${offerId}`, {
      status: 11,
      price: [900_000],
    });
    t.match(
      counter.body,
      { statusCode: 400, errors: [{ path: 'price' }] },
      'a counter price is a number too',
    );
    await events.expect(t, [], { message: 'the refused counter appended nothing' });
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
    const events = await watch();
    const response = await as(null).upload('/api/register/carrier', {
      data: registration(extra),
      files: documents,
    });
    t.equal(response.status, 400, `${path}: 400`);
    t.ok(
      (response.body.errors ?? []).some((error: { path: string }) => error.path === path),
      `${path} named (${JSON.stringify(response.body.errors).slice(0, 200)})`,
    );
    await events.expect(t, [], { message: `${path}: nothing written` });
  }
});

t.test('item 6: lists are bounded, and an insured amount is 1 or 2, not "0x1"', async (t) => {
  const events = await watch();
  const ratings = Array.from({ length: 600 }, () => ({ criteria: 1, rating: 5 }));
  const rated = await as(shipper).post(`/api/tours/${loadId}/rate`, { ratings });
  t.match(
    rated.body,
    { statusCode: 400, errors: [{ path: 'ratings', message: 'Rate every criterion once' }] },
    '600 ratings: 400 naming ratings',
  );
  await events.expect(t, [], { message: '600 ratings: nothing written' });
  const search = await as(carrier).post('/api/searches', {
    name: 'Lane',
    equipment: Array.from({ length: 600 }, () => 5),
  });
  t.match(
    search.body,
    { statusCode: 400, errors: [{ path: 'equipment' }] },
    '600 equipment ids: 400 naming equipment',
  );
  await events.expect(t, [], { message: '600 equipment ids: nothing written' });
  const shipperProfile = await as(shipper).upload('/api/users/shipper', {
    data: { insuredAmount: '0x1' },
  });
  t.match(
    shipperProfile.body,
    { statusCode: 400, errors: [{ path: 'insuredAmount' }] },
    'insuredAmount "0x1": 400',
  );
  await events.expect(t, [], { message: 'insuredAmount "0x1": nothing written' });
});
