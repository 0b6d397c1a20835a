// @postgres: table pages: filters, sorting and paging in SQL
import t from 'tap';
import {
  bearer,
  member,
  multipart,
  organization,
  PASSWORD,
  PDF,
  signIn,
  superadmin,
} from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { startTestApp } from '../testing/testApp.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Shipping' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Zeta Hauling' });
const otherShipper = await organization(app, platform, 'Shipper', { name: 'Other Shipping' });
const driver = await member(app, platform, carrier.organizationId!, 4, { name: 'Dan Driver' });

const get = (url: string, token?: string) =>
  app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
const table = (url: string, token: string, query: Record<string, unknown> = {}) => {
  const params = new URLSearchParams(
    Object.entries(query).map(([key, value]) => [
      key,
      typeof value === 'string' || typeof value === 'number'
        ? String(value)
        : JSON.stringify(value),
    ]),
  );
  return get(`/api/${url}?${params}`, token);
};

t.test(
  'GET users/activate and users/block: Superadmin only, with the transitions of the domain',
  async (t) => {
    const pending = await organization(app, platform, 'Carrier', {
      status: 1,
      name: 'Pending Carrier',
    });
    const events = await watchEvents(platform.store);
    t.equal((await get(`/api/users/activate/${pending.userId}`)).statusCode, 401, 'no token');
    const forbidden = await get(`/api/users/activate/${pending.userId}`, shipper.token);
    t.equal(forbidden.statusCode, 403, 'a shipper lacks USER_ACTIVATE');
    t.match(forbidden.json().message, /USER_ACTIVATE/);
    t.equal((await get('/api/users/activate/not-a-uuid', admin.token)).statusCode, 400);
    t.equal((await get(`/api/users/activate/${crypto.randomUUID()}`, admin.token)).statusCode, 404);

    const activated = await get(`/api/users/activate/${pending.userId}`, admin.token);
    t.equal(activated.statusCode, 200);
    await events.expect(
      t,
      [
        {
          type: 'UserActivated',
          stream: `user-${pending.userId}`,
          data: { userId: pending.userId },
        },
        { type: 'OrganizationActivated', data: { organizationId: pending.organizationId } },
      ],
      { message: 'the refusals appended nothing; the activation' },
    );
    t.equal((await platform.identity.loadUser(pending.userId))!.status, 2);
    t.equal(
      (await platform.identity.loadOrganization(pending.organizationId!))!.status,
      2,
      'the Pending organization is activated too',
    );
    const again = await get(`/api/users/activate/${pending.userId}`, admin.token);
    t.equal(again.statusCode, 409, 'already Active');
    t.match(again.json().message, /already Active/);

    t.equal((await get(`/api/users/block/${pending.userId}`, carrier.token)).statusCode, 403);
    const blocked = await get(`/api/users/block/${pending.userId}`, admin.token);
    t.equal(blocked.statusCode, 200);
    await events.expect(
      t,
      [{ type: 'UserBlocked', stream: `user-${pending.userId}`, data: { userId: pending.userId } }],
      { message: 'activating again and a refused block appended nothing; the block' },
    );
    t.equal(
      (await get(`/api/users/block/${pending.userId}`, admin.token)).statusCode,
      409,
      'already Blocked',
    );
    // The blocked user's session has ended: its access token is refused.
    t.equal((await get('/api/profile', pending.token)).statusCode, 401, 'sessions revoked');
    const login = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: pending.email, password: PASSWORD },
    });
    t.equal(login.statusCode, 401, 'a blocked user cannot sign in');

    // Blocking a user is not blocking its organization: the list shows the organization's own status.
    const list = await table('users/list/carriers', admin.token, {
      filters: [{ name: 'status', value: [2] }],
    });
    t.match(
      list.json().data.find((row: { id: string }) => row.id === pending.organizationId),
      { status: 2, user: { id: pending.userId, status: 3 } },
      'the list shows the organization Active, its first user Blocked, at once',
    );
  },
);

t.test('GET users: the table protocol, scoped to the organization', async (t) => {
  t.equal((await get('/api/users')).statusCode, 401);
  t.equal((await table('users', driver.token)).statusCode, 403, 'a driver has no users list');

  const own = await table('users', carrier.token);
  t.equal(own.statusCode, 200);
  const ownIds = own
    .json()
    .data.map((row: { id: string }) => row.id)
    .sort();
  t.same(ownIds, [carrier.userId, driver.userId].sort(), 'a carrier sees only its own users');
  const row = own.json().data.find((r: { id: string }) => r.id === driver.userId);
  t.match(row, {
    status: 2,
    statusName: 'Active',
    role: 'Driver',
    roleId: 4,
    organization: { id: carrier.organizationId, name: 'Zeta Hauling' },
  });
  t.notOk('passwordHash' in row);
  t.same(
    row.actions,
    [2, 17],
    'a carrier may edit and delete its driver, not activate or block it',
  );
  t.same(
    own.json().data.find((r: { id: string }) => r.id === carrier.userId).actions,
    [2],
    'only a driver offers Delete',
  );

  const all = await table('users', admin.token, {
    pageSize: 2,
    page: 1,
    order: { column: 'email', direction: 'ASC' },
  });
  t.equal(all.statusCode, 200);
  const body = all.json();
  t.equal(body.pageSize, 2);
  t.equal(body.data.length, 2);
  t.ok(body.total >= 5);
  t.equal(body.totalPages, Math.ceil(body.total / 2));
  const second = (
    await table('users', admin.token, {
      pageSize: 2,
      page: 2,
      order: { column: 'email', direction: 'ASC' },
    })
  ).json();
  t.ok(second.data[0].email > body.data[1].email, 'page 2 continues the order');

  const searched = (await table('users', admin.token, { search: 'dan driv' })).json();
  t.same(
    searched.data.map((r: { id: string }) => r.id),
    [driver.userId],
    'search over the name',
  );
  const byUsername = (await table('users', admin.token, { search: shipper.username })).json();
  t.same(
    byUsername.data.map((r: { id: string }) => r.id),
    [shipper.userId],
    'search over the username',
  );
  t.equal(
    (await table('users', admin.token, { search: '%' })).json().total,
    0,
    'wildcards are literal',
  );

  const drivers = (
    await table('users', admin.token, { filters: [{ name: 'role', value: [4] }] })
  ).json();
  t.same(
    drivers.data.map((r: { id: string }) => r.id),
    [driver.userId],
    'role filter',
  );
  const byOrganization = (
    await table('users', admin.token, {
      filters: [{ name: 'organization', value: [otherShipper.organizationId] }],
    })
  ).json();
  t.same(
    byOrganization.data.map((r: { id: string }) => r.id),
    [otherShipper.userId],
    'organization filter',
  );
  const ignored = (
    await table('users', carrier.token, { filters: [{ name: 'status', value: [0] }] })
  ).json();
  t.equal(ignored.total, 2, 'a filter of 0 is ignored');
  const columns = (await table('users', carrier.token, { columns: ['email'] })).json();
  t.same(Object.keys(columns.data[0]).sort(), ['actions', 'email', 'id', 'status', 'statusName']);

  const badOrder = await table('users', admin.token, {
    order: { column: 'passwordHash', direction: 'ASC' },
  });
  t.equal(badOrder.statusCode, 400);
  t.equal(badOrder.json().errors[0].path, 'order');
  const badFilter = await table('users', admin.token, {
    filters: [{ name: 'status', value: [9] }],
  });
  t.equal(badFilter.statusCode, 400);
  t.equal(badFilter.json().errors[0].path, 'filters');
  const badPage = await get('/api/users?page=0', admin.token);
  t.equal(badPage.statusCode, 400);
  t.equal(badPage.json().message, 'page must be a whole number from 1 to 100000');
});

t.test(
  "GET users with role 4 and a status: the drivers lists, filtered by the driver's own status",
  async (t) => {
    const otherCarrier = await organization(app, platform, 'Carrier', { name: 'Omega Freight' });
    const theirs = await member(app, platform, otherCarrier.organizationId!, 4, {
      name: 'Olga Omega',
    });
    const blockedDriver = await member(app, platform, carrier.organizationId!, 4, {
      name: 'Bob Blocked',
    });
    t.equal((await get(`/api/users/block/${blockedDriver.userId}`, admin.token)).statusCode, 200);
    const drivers = (token: string, status: number) =>
      table('users', token, {
        filters: [
          { name: 'role', value: [4] },
          { name: 'status', value: [status] },
        ],
        order: { column: 'name', direction: 'ASC' },
      });

    const allActive = (await drivers(admin.token, 2)).json();
    t.same(
      allActive.data.map((r: { id: string }) => r.id),
      [driver.userId, theirs.userId],
      'a Superadmin: every active driver',
    );
    t.match(
      allActive.data[0],
      {
        name: 'Dan Driver',
        role: 'Driver',
        status: 2,
        organization: { id: carrier.organizationId, name: 'Zeta Hauling', type: 'Carrier' },
      },
      'with its carrier',
    );
    t.same(
      allActive.data[0].actions,
      [2, 14, 17],
      'a Superadmin may edit, block and delete a driver',
    );
    const allBlocked = (await drivers(admin.token, 3)).json();
    t.same(
      allBlocked.data.map((r: { id: string }) => r.id),
      [blockedDriver.userId],
      "the blocked list: the driver's status, its carrier Active",
    );
    t.same(allBlocked.data[0].actions, [2, 13, 17]);
    t.equal((await drivers(admin.token, 1)).json().total, 0, 'no pending driver');

    const ownActive = (await drivers(carrier.token, 2)).json();
    t.same(
      ownActive.data.map((r: { id: string }) => r.id),
      [driver.userId],
      "a carrier: its own drivers, not another carrier's",
    );
    t.same(
      (await drivers(carrier.token, 3)).json().data.map((r: { id: string }) => r.id),
      [blockedDriver.userId],
    );
    t.same(
      (await drivers(otherCarrier.token, 2)).json().data.map((r: { id: string }) => r.id),
      [theirs.userId],
    );
    t.equal((await drivers(shipper.token, 2)).json().total, 0, 'a shipper has no drivers');

    // Activated again, the driver moves back to the active list at once.
    t.equal(
      (await get(`/api/users/activate/${blockedDriver.userId}`, admin.token)).statusCode,
      200,
    );
    t.same(
      (await drivers(carrier.token, 2)).json().data.map((r: { id: string }) => r.id),
      [blockedDriver.userId, driver.userId],
    );
    t.equal((await drivers(carrier.token, 3)).json().total, 0);
  },
);

t.test(
  'GET users/list/shippers and users/list/carriers: organizations with their first user',
  async (t) => {
    t.equal((await get('/api/users/list/shippers')).statusCode, 401);
    t.equal((await table('users/list/shippers', shipper.token)).statusCode, 403);
    t.equal((await table('users/list/carriers', carrier.token)).statusCode, 403);

    const shippers = (
      await table('users/list/shippers', admin.token, {
        order: { column: 'name', direction: 'ASC' },
      })
    ).json();
    t.ok(shippers.data.every((row: { type: string }) => row.type === 'Shipper'));
    const acme = shippers.data.find((row: { id: string }) => row.id === shipper.organizationId);
    t.match(acme, {
      name: 'Acme Shipping',
      status: 2,
      statusName: 'Active',
      insuredAmount: 1,
      user: { id: shipper.userId, email: shipper.email },
    });
    t.same(acme.actions, [14], 'an Active row may be blocked');
    t.same(
      shippers.actions.map((a: { id: number }) => a.id),
      [13, 14],
    );

    const carriers = (await table('users/list/carriers', admin.token, { search: 'zeta' })).json();
    t.equal(carriers.total, 1);
    t.match(carriers.data[0], {
      id: carrier.organizationId,
      user: { id: carrier.userId },
      documents: { mcAuthority: null },
    });

    const pendingShipper = await organization(app, platform, 'Shipper', {
      status: 1,
      name: 'Pending Shipper',
    });
    const pending = (
      await table('users/list/shippers', admin.token, { filters: [{ name: 'status', value: [1] }] })
    ).json();
    t.same(
      pending.data.map((row: { id: string }) => row.id),
      [pendingShipper.organizationId],
      'status filter',
    );
    t.same(pending.data[0].actions, [13, 14]);
    const paged = (
      await table('users/list/shippers', admin.token, {
        pageSize: 1,
        page: 2,
        order: { column: 'name', direction: 'ASC' },
      })
    ).json();
    t.equal(paged.data.length, 1);
    t.equal(paged.totalPages, paged.total);
    t.equal(
      (
        await table('users/list/shippers', admin.token, {
          filters: [{ name: 'status', value: [7] }],
        })
      ).statusCode,
      400,
    );
  },
);

t.test('POST users: creatable roles in the own organization, Active at once', async (t) => {
  const body = (tag: string, roleId: number, extra: Record<string, unknown> = {}) => ({
    email: `new-${tag}@example.com`,
    username: `new-${tag}`,
    userDetails: { name: `New ${tag}`, phone: '555-555-0199' },
    password: 'password-123',
    roleId,
    ...extra,
  });
  const post = (token: string | null, payload: unknown) =>
    app.inject({
      method: 'POST',
      url: '/api/users',
      headers: token ? bearer(token) : {},
      payload: payload as object,
    });

  t.equal((await post(null, body('a', 4))).statusCode, 401);
  t.equal((await post(driver.token, body('a', 4))).statusCode, 403, 'a driver cannot create users');

  const events = await watchEvents(platform.store);
  const created = await post(carrier.token, body('dispatcher', 4));
  t.equal(created.statusCode, 201);
  t.equal(created.json().message, 'User successfully created');
  await events.expect(
    t,
    [
      'KeyReserved',
      'KeyReserved',
      {
        type: 'UserRegistered',
        stream: `user-${created.json().id}`,
        data: {
          userId: created.json().id,
          roleId: 4,
          organizationId: carrier.organizationId,
          email: 'new-dispatcher@example.com',
        },
      },
    ],
    { message: 'the refusals appended nothing; the new user and its keys' },
  );
  const user = await platform.identity.loadUser(created.json().id);
  t.match(user, { status: 2, roleId: 4, organizationId: carrier.organizationId });
  await signIn(app, 'new-dispatcher@example.com', 'password-123');
  const listed = (await table('users', carrier.token, { search: 'new-dispatcher' })).json();
  t.equal(listed.total, 1, 'the list shows the new user at once');

  const shipperRole = await post(carrier.token, body('b', 2));
  t.equal(shipperRole.statusCode, 403, 'a carrier cannot create a Shipper');
  t.equal(shipperRole.json().errors[0].path, 'roleId');
  const foreign = await post(
    carrier.token,
    body('c', 3, { organizationId: otherShipper.organizationId }),
  );
  t.equal(foreign.statusCode, 404, "another organization's id");

  const invalid = await post(carrier.token, { ...body('d', 4), email: 'nope' });
  t.equal(invalid.statusCode, 400);
  t.equal(invalid.json().message, 'The Email you entered is not a valid format!');
  t.equal(invalid.json().errors[0].path, 'email');
  const short = await post(carrier.token, { ...body('e', 4), password: 'short' });
  t.equal(short.json().message, 'Password is too short - should be 8 chars minimum');
  const duplicate = await post(carrier.token, {
    ...body('f', 4),
    email: 'new-dispatcher@example.com',
  });
  t.equal(duplicate.statusCode, 409);
  t.equal(duplicate.json().message, 'Email already registered');

  const bySuperadmin = await post(
    admin.token,
    body('g', 2, { organizationId: otherShipper.organizationId }),
  );
  t.equal(bySuperadmin.statusCode, 201);
  t.equal(
    (await platform.identity.loadUser(bySuperadmin.json().id))!.organizationId,
    otherShipper.organizationId,
  );
  const wrongType = await post(
    admin.token,
    body('h', 4, { organizationId: otherShipper.organizationId }),
  );
  t.equal(wrongType.statusCode, 400, 'a driver belongs to a carrier');
  t.equal(wrongType.json().errors[0].path, 'organizationId');
  const noOrganization = await post(admin.token, body('i', 3));
  t.equal(noOrganization.statusCode, 400);
  t.equal(noOrganization.json().errors[0].path, 'organizationId');
});

t.test('PUT users/{id}: edit a user of the own organization', async (t) => {
  const target = await member(app, platform, shipper.organizationId!, 2, { name: 'Sam Shipper' });
  const put = (token: string | null, id: string, payload: object) =>
    app.inject({
      method: 'PUT',
      url: `/api/users/${id}`,
      headers: token ? bearer(token) : {},
      payload,
    });
  const payload = {
    email: `sam-${Date.now()}@example.com`,
    name: 'Samuel Shipper',
    phone: '(555) 555-0150',
  };

  t.equal((await put(null, target.userId, payload)).statusCode, 401);
  t.equal((await put(driver.token, target.userId, payload)).statusCode, 403);
  t.equal(
    (await put(carrier.token, target.userId, payload)).statusCode,
    404,
    "another organization's user",
  );
  t.equal((await put(otherShipper.token, target.userId, payload)).statusCode, 404);
  const invalid = await put(shipper.token, target.userId, { ...payload, name: '' });
  t.equal(invalid.statusCode, 400);
  t.equal(invalid.json().message, 'Please enter name!');
  t.equal(invalid.json().errors[0].path, 'name');
  t.equal(
    (await put(shipper.token, target.userId, { ...payload, email: carrier.email })).statusCode,
    409,
    'e-mail taken',
  );

  const updated = await put(shipper.token, target.userId, {
    ...payload,
    newPassword: 'another-pass-1',
  });
  t.equal(updated.statusCode, 200);
  t.match(await platform.identity.loadUser(target.userId), {
    email: payload.email,
    name: 'Samuel Shipper',
  });
  await signIn(app, payload.email, 'another-pass-1');
  t.equal(
    await platform.identity.userIdByEmail(target.email),
    null,
    'the old e-mail is free again',
  );
  const row = (await table('users', shipper.token, { search: 'Samuel' })).json().data[0];
  t.equal(row.email, payload.email, 'the list shows the change at once');
  t.equal(
    (await put(admin.token, target.userId, { ...payload, name: 'By Admin' })).statusCode,
    200,
    'a Superadmin edits anyone',
  );
});

t.test('DELETE users/deleteDriver: only a driver of the own organization', async (t) => {
  const doomed = await member(app, platform, carrier.organizationId!, 4);
  const events = await watchEvents(platform.store);
  const del = (token: string | null, payload: object) =>
    app.inject({
      method: 'DELETE',
      url: '/api/users/deleteDriver',
      headers: token ? bearer(token) : {},
      payload,
    });
  t.equal((await del(null, { id: doomed.userId })).statusCode, 401);
  t.equal((await del(driver.token, { id: doomed.userId })).statusCode, 403);
  t.equal(
    (await del(shipper.token, { id: doomed.userId })).statusCode,
    404,
    "another organization's driver",
  );
  const invalid = await del(carrier.token, { id: 'x' });
  t.equal(invalid.statusCode, 400);
  t.equal(invalid.json().errors[0].path, 'id');
  const notDriver = await del(carrier.token, { id: carrier.userId });
  t.equal(notDriver.statusCode, 409);
  t.match(notDriver.json().message, /Only a Driver/);

  t.equal((await del(carrier.token, { id: doomed.userId })).statusCode, 204);
  await events.expect(
    t,
    [
      { type: 'UserDeleted', stream: `user-${doomed.userId}`, data: { userId: doomed.userId } },
      'KeyReleased',
      'KeyReleased',
    ],
    { message: 'the refusals appended nothing; the deletion releases its keys' },
  );
  t.equal(await platform.identity.loadUser(doomed.userId), null);
  t.equal((await del(carrier.token, { id: doomed.userId })).statusCode, 404, 'gone');
  t.equal((await get('/api/profile', doomed.token)).statusCode, 401, 'its session ended');
  t.equal((await table('users', carrier.token, { search: doomed.username })).json().total, 0);
});

t.test('POST users/organization: a Superadmin creates an Active organization', async (t) => {
  const contact = {
    address: '9 Dock Rd, Newark, NJ',
    person: 'Chris',
    email: 'office@fleet.example.com',
    phone: '555-555-0177',
  };
  const carrierData = {
    type: 'Carrier',
    name: 'Fleet Ltd',
    organizationContactInfo: contact,
    mcNumber: 123456,
    dotNumber: '654321',
    trucks: [{ type: 1, count: 2 }],
  };
  const documents = {
    mcAuthority: { content: PDF },
    certificateOfInsurance: { content: PDF },
    w9Form: { content: PDF },
  };
  const post = (token: string | null, form: ReturnType<typeof multipart>) =>
    app.inject({
      method: 'POST',
      url: '/api/users/organization',
      headers: { ...form.headers, ...(token ? bearer(token) : {}) },
      payload: form.payload,
    });

  t.equal((await post(null, multipart(carrierData, documents))).statusCode, 401);
  t.equal((await post(carrier.token, multipart(carrierData, documents))).statusCode, 403);
  const missing = await post(
    admin.token,
    multipart(carrierData, { mcAuthority: { content: PDF } }),
  );
  t.equal(missing.statusCode, 400);
  t.equal(missing.json().message, 'A file is required');
  t.equal(missing.json().errors[0].path, 'certificateOfInsurance');
  const noName = await post(admin.token, multipart({ ...carrierData, name: '' }, documents));
  t.equal(noName.statusCode, 400);
  t.same(noName.json().errors[0], {
    path: 'name',
    message: 'Please enter company name!',
    code: 'company_name_required',
  });
  const badType = await post(admin.token, multipart({ ...carrierData, type: 'Broker' }, documents));
  t.equal(badType.json().message, 'Please select an organization type');
  const notPdf = await post(
    admin.token,
    multipart(carrierData, {
      ...documents,
      w9Form: { content: Buffer.from('hello'), type: 'application/pdf' },
    }),
  );
  t.equal(notPdf.statusCode, 415);

  const events = await watchEvents(platform.store);
  const created = await post(
    admin.token,
    multipart(carrierData, { ...documents, noticeOfAssignment: { content: PDF } }),
  );
  t.equal(created.statusCode, 201);
  t.equal(created.json().message, 'Organization successfully created');
  const organizationId = created.json().id;
  await events.expect(
    t,
    [
      {
        type: 'OrganizationRegistered',
        stream: `organization-${organizationId}`,
        data: { organizationId, type: 'Carrier', name: 'Fleet Ltd' },
      },
      {
        type: 'CarrierAuthorityChecked',
        stream: `organization-${organizationId}`,
        data: { organizationId, dotNumber: 654321, mcNumber: 123456, status: 'unknown' },
      },
    ],
    { message: 'the refusals appended nothing; the new organization and its authority check' },
  );
  const stored = await platform.identity.loadOrganization(organizationId);
  t.match(stored, {
    status: 2,
    type: 'Carrier',
    name: 'Fleet Ltd',
    carrier: { mcNumber: 123456, dotNumber: 654321 },
  });
  t.ok(
    stored!.registered && stored!.carrier!.documents.noticeOfAssignment,
    'the optional notice is stored',
  );
  const row = (await table('users/list/carriers', admin.token, { search: 'Fleet Ltd' })).json()
    .data[0];
  t.match(
    row,
    { id: organizationId, status: 2, user: null, actions: [14] },
    "an organization without users can be blocked too: the action is the organization's",
  );

  const shipperCreated = await post(
    admin.token,
    multipart({
      type: 'Shipper',
      name: 'Ship Inc',
      organizationContactInfo: contact,
      insuredAmount: 2,
    }),
  );
  t.equal(shipperCreated.statusCode, 201);
  t.match(await platform.identity.loadOrganization(shipperCreated.json().id), {
    type: 'Shipper',
    shipper: { insuredAmount: 2 },
  });
  // The new organization is offered for new users at once.
  const organizations = (await get('/api/users/organization', admin.token)).json();
  t.ok(
    organizations.some(
      (entry: { id: string; type: string }) =>
        entry.id === shipperCreated.json().id && entry.type === 'Shipper',
    ),
  );
});

t.test('GET users/organization and the role pick lists', async (t) => {
  t.equal((await get('/api/users/organization')).statusCode, 401);
  t.equal(
    (await get('/api/users/organization', shipper.token)).statusCode,
    403,
    'a shipper lacks USER_ASSIGN_ORGANIZATION',
  );
  const own = (await get('/api/users/organization', carrier.token)).json();
  t.same(own, [{ id: carrier.organizationId, name: 'Zeta Hauling', type: 'Carrier' }]);
  const all = (await get('/api/users/organization', admin.token)).json();
  t.ok(all.length >= 4);

  t.same((await get('/api/users/roles/creatable', carrier.token)).json(), [
    { id: 3, name: 'Carrier' },
    { id: 4, name: 'Driver' },
  ]);
  t.same((await get('/api/users/roles/creatable', shipper.token)).json(), [
    { id: 2, name: 'Shipper' },
  ]);
  t.equal((await get('/api/users/roles/creatable', admin.token)).json().length, 4);
  t.equal((await get('/api/users/roles/creatable', driver.token)).statusCode, 403);
  t.equal((await get('/api/users/roles/creatable')).statusCode, 401);
  t.equal((await get('/api/users/roles/filterable', admin.token)).json().length, 4);
  t.equal((await get('/api/users/roles/filterable', carrier.token)).statusCode, 403);
});
