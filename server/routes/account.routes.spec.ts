import t from 'tap';
import {
  bearer,
  member,
  multipart,
  organization,
  PASSWORD,
  PDF,
  PNG,
  signIn,
  superadmin,
} from '../identity/fixtures.ts';
import { startTestApp } from '../testing/testApp.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Shipping' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Zeta Hauling' });
const driver = await member(app, platform, carrier.organizationId!, 4, { name: 'Dan Driver' });

const get = (url: string, token?: string) =>
  app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
const send = (method: 'PUT' | 'POST', url: string, token: string | null, payload: object) =>
  app.inject({ method, url, headers: token ? bearer(token) : {}, payload });
const upload = (url: string, token: string | null, form: ReturnType<typeof multipart>) =>
  app.inject({
    method: 'POST',
    url,
    headers: { ...form.headers, ...(token ? bearer(token) : {}) },
    payload: form.payload,
  });

t.test('GET account: each section only by permission, never the password hash', async (t) => {
  t.equal((await get('/api/account')).statusCode, 401);

  const ofShipper = (await get('/api/account', shipper.token)).json();
  t.same(Object.keys(ofShipper).sort(), ['organization', 'shipper', 'user']);
  t.match(ofShipper.user, {
    id: shipper.userId,
    email: shipper.email,
    role: { id: 2, name: 'Shipper' },
    status: 2,
  });
  t.match(ofShipper.organization, {
    id: shipper.organizationId,
    name: 'Acme Shipping',
    type: 'Shipper',
    address: '1 Main St, Chicago, IL',
  });
  t.same(ofShipper.shipper, { insuredAmount: 1, signatureFileId: null });

  const ofCarrier = (await get('/api/account', carrier.token)).json();
  t.same(Object.keys(ofCarrier).sort(), ['carrier', 'organization', 'services', 'user']);
  t.match(ofCarrier.carrier, { mcNumber: null, documents: { w9Form: null } });

  const ofDriver = await get('/api/account', driver.token);
  t.same(Object.keys(ofDriver.json()), ['user'], 'a driver sees only its user');
  t.notMatch(ofDriver.body, /argon2|passwordHash/);
  t.same(
    Object.keys((await get('/api/account', admin.token)).json()),
    ['user'],
    'a Superadmin has no organization',
  );
});

t.test('PUT users: the own profile, keys and password', async (t) => {
  const me = await member(app, platform, shipper.organizationId!, 2, { name: 'Mia Member' });
  const other = await member(app, platform, shipper.organizationId!, 2);
  const base = { email: me.email, username: me.username, name: 'Mia M.', phone: '555-555-0111' };

  t.equal((await send('PUT', '/api/users', null, base)).statusCode, 401);
  const invalid = await send('PUT', '/api/users', me.token, { ...base, phone: '12' });
  t.equal(invalid.statusCode, 400);
  t.equal(invalid.json().errors[0].path, 'phone');
  const noName = await send('PUT', '/api/users', me.token, { ...base, name: ' ' });
  t.same(noName.json().errors[0], {
    path: 'name',
    message: 'Please enter name!',
    code: 'name_required',
  });

  const taken = await send('PUT', '/api/users', me.token, {
    ...base,
    email: other.email,
    oldPassword: PASSWORD,
  });
  t.equal(taken.statusCode, 409);
  t.equal(taken.json().message, 'Email already registered');
  const takenName = await send('PUT', '/api/users', me.token, {
    ...base,
    email: 'mia-new@example.com',
    username: other.username,
    oldPassword: PASSWORD,
  });
  t.equal(takenName.statusCode, 409);
  t.equal(
    await platform.identity.userIdByEmail('mia-new@example.com'),
    null,
    'a refused change moves no key',
  );

  const unconfirmed = await send('PUT', '/api/users', me.token, {
    ...base,
    email: 'mia-new@example.com',
    username: 'mia-new',
  });
  t.equal(unconfirmed.statusCode, 400, 'a new e-mail needs the current password');
  t.equal(unconfirmed.json().message, 'Please enter your current password');
  const renamed = await send('PUT', '/api/users', me.token, {
    ...base,
    email: 'mia-new@example.com',
    username: 'mia-new',
    oldPassword: PASSWORD,
  });
  t.equal(renamed.statusCode, 200);
  t.equal(await platform.identity.userIdByEmail('mia-new@example.com'), me.userId);
  t.equal(await platform.identity.userIdByUsername('mia-new'), me.userId);
  t.equal(await platform.identity.userIdByEmail(me.email), null, 'the old e-mail is released');
  await signIn(app, 'mia-new', PASSWORD);
  const row = (
    await app.inject({
      method: 'GET',
      url: `/api/users?search=mia-new`,
      headers: bearer(shipper.token),
    })
  ).json().data[0];
  t.match(
    row,
    { id: me.userId, email: 'mia-new@example.com', name: 'Mia M.' },
    'the list shows the change at once',
  );

  const current = { ...base, email: 'mia-new@example.com', username: 'mia-new' };
  const noOld = await send('PUT', '/api/users', me.token, {
    ...current,
    newPassword: 'brand-new-pass',
  });
  t.equal(noOld.statusCode, 400);
  t.equal(noOld.json().errors[0].path, 'oldPassword');
  const wrongOld = await send('PUT', '/api/users', me.token, {
    ...current,
    oldPassword: 'wrong-password',
    newPassword: 'brand-new-pass',
  });
  t.equal(wrongOld.statusCode, 400);
  t.equal(wrongOld.json().errors[0].path, 'oldPassword');
  t.equal(wrongOld.json().message, 'Current password is incorrect');
  const tooShort = await send('PUT', '/api/users', me.token, {
    ...current,
    oldPassword: PASSWORD,
    newPassword: 'short',
  });
  t.equal(tooShort.json().message, 'Password is too short - should be 8 chars minimum');

  const otherSession = await signIn(app, 'mia-new', PASSWORD);
  const changed = await send('PUT', '/api/users', me.token, {
    ...current,
    oldPassword: PASSWORD,
    newPassword: 'brand-new-pass',
  });
  t.equal(changed.statusCode, 200);
  t.same(changed.json(), { message: 'Account successfully updated' });
  t.equal((await get('/api/profile', otherSession)).statusCode, 401, 'other sessions are revoked');
  t.equal((await get('/api/profile', me.token)).statusCode, 200, "the caller's session goes on");
  await signIn(app, 'mia-new', 'brand-new-pass');
  t.equal(
    (
      await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'mia-new', password: PASSWORD },
      })
    ).statusCode,
    401,
    'the old password no longer works',
  );

  t.equal(
    (
      await send('PUT', '/api/users', driver.token, {
        email: driver.email,
        username: driver.username,
        name: 'Dan D.',
        phone: '555-555-0112',
      })
    ).statusCode,
    200,
    'a driver edits its own profile',
  );
});

t.test('PUT users/organization: the own organization', async (t) => {
  const body = {
    name: 'Acme Shipping LLC',
    address: '2 Main St',
    person: 'Pat',
    email: 'office@acme.example.com',
    phone: '555-555-0120',
  };
  t.equal((await send('PUT', '/api/users/organization', null, body)).statusCode, 401);
  t.equal((await send('PUT', '/api/users/organization', driver.token, body)).statusCode, 403);
  const invalid = await send('PUT', '/api/users/organization', shipper.token, {
    ...body,
    address: '',
  });
  t.equal(invalid.statusCode, 400);
  t.same(invalid.json().errors[0], {
    path: 'address',
    message: 'Please enter company address!',
    code: 'company_address_required',
  });
  t.equal(
    (await send('PUT', '/api/users/organization', admin.token, body)).statusCode,
    404,
    'a Superadmin has no own organization',
  );

  t.equal((await send('PUT', '/api/users/organization', shipper.token, body)).statusCode, 200);
  t.match((await get('/api/account', shipper.token)).json().organization, {
    name: 'Acme Shipping LLC',
    address: '2 Main St',
    email: 'office@acme.example.com',
  });
  const listed = (
    await app.inject({
      method: 'GET',
      url: '/api/users/list/shippers?search=LLC',
      headers: bearer(admin.token),
    })
  ).json();
  t.equal(listed.data[0].id, shipper.organizationId, 'the list shows the change at once');
});

t.test('POST users/carrier: profile and documents; MC and DOT are set once', async (t) => {
  const data = {
    mcNumber: 111222,
    dotNumber: 333444,
    eldProvider: 'Samsara',
    trucks: [{ type: 1, count: 3 }],
    trailers: [],
    driverTeams: [],
  };
  t.equal((await upload('/api/users/carrier', null, multipart(data))).statusCode, 401);
  t.equal((await upload('/api/users/carrier', shipper.token, multipart(data))).statusCode, 403);
  const invalid = await upload(
    '/api/users/carrier',
    carrier.token,
    multipart({ ...data, mcNumber: 'abc' }),
  );
  t.equal(invalid.statusCode, 400);
  t.same(invalid.json().errors[0], {
    path: 'mcNumber',
    message: 'Please enter your MC Number',
    code: 'mc_number_required',
  });
  const badTruck = await upload(
    '/api/users/carrier',
    carrier.token,
    multipart({ ...data, trucks: [{ type: 99, count: 1 }] }),
  );
  t.equal(badTruck.json().errors[0].path, 'trucks.0.type');
  t.equal(
    (
      await upload(
        '/api/users/carrier',
        carrier.token,
        multipart(data, { w9Form: { content: PNG } }),
      )
    ).statusCode,
    415,
    'a document must be a PDF',
  );

  const saved = await upload(
    '/api/users/carrier',
    carrier.token,
    multipart(data, { w9Form: { content: PDF, filename: 'w9.pdf' } }),
  );
  t.equal(saved.statusCode, 200);
  const account = (await get('/api/account', carrier.token)).json();
  t.match(account.carrier, {
    mcNumber: 111222,
    dotNumber: 333444,
    eldProvider: 'Samsara',
    trucks: [{ type: 1, count: 3 }],
  });
  const w9 = account.carrier.documents.w9Form;
  t.ok(w9);

  const again = await upload(
    '/api/users/carrier',
    carrier.token,
    multipart({ ...data, eldProvider: 'Motive' }, { mcAuthority: { content: PDF } }),
  );
  t.equal(again.statusCode, 200);
  const after = (await get('/api/account', carrier.token)).json().carrier;
  t.equal(after.documents.w9Form, w9, 'a document not sent stays as it was');
  t.ok(after.documents.mcAuthority);
  t.equal(after.eldProvider, 'Motive');

  const changeMc = await upload(
    '/api/users/carrier',
    carrier.token,
    multipart({ ...data, mcNumber: 999 }),
  );
  t.equal(changeMc.statusCode, 409);
  t.same(changeMc.json().errors[0], {
    path: 'mcNumber',
    message: 'MC Number cannot be changed once set',
  });
  const changeDot = await upload(
    '/api/users/carrier',
    carrier.token,
    multipart({ ...data, dotNumber: 999 }),
  );
  t.equal(changeDot.json().errors[0].path, 'dotNumber');

  const row = (
    await app.inject({
      method: 'GET',
      url: '/api/users/list/carriers?search=Zeta',
      headers: bearer(admin.token),
    })
  ).json().data[0];
  t.match(
    row,
    { mcNumber: 111222, documents: { w9Form: w9 } },
    'the carriers list shows the documents',
  );
});

t.test('POST users/shipper: insured amount and a signature checked by its bytes', async (t) => {
  t.equal(
    (await upload('/api/users/shipper', null, multipart({ insuredAmount: 2 }))).statusCode,
    401,
  );
  t.equal(
    (await upload('/api/users/shipper', carrier.token, multipart({ insuredAmount: 2 }))).statusCode,
    403,
  );
  const invalid = await upload(
    '/api/users/shipper',
    shipper.token,
    multipart({ insuredAmount: 5 }),
  );
  t.equal(invalid.statusCode, 400);
  t.same(invalid.json().errors[0], {
    path: 'insuredAmount',
    message: 'Please select an insurance amount',
    code: 'insured_amount_required',
  });
  const disguised = await upload(
    '/api/users/shipper',
    shipper.token,
    multipart(
      { insuredAmount: 2 },
      { signature: { content: PDF, filename: 'sig.png', type: 'image/png' } },
    ),
  );
  t.equal(disguised.statusCode, 415, 'a PDF named .png is refused');

  const saved = await upload(
    '/api/users/shipper',
    shipper.token,
    multipart(
      { insuredAmount: '> $100,000.00' },
      { signature: { content: PNG, filename: 'sig.png' } },
    ),
  );
  t.equal(saved.statusCode, 200);
  const signatureFileId = saved.json().signatureFileId;
  t.same((await get('/api/account', shipper.token)).json().shipper, {
    insuredAmount: 2,
    signatureFileId,
  });
  t.equal(
    (await upload('/api/users/shipper', shipper.token, multipart({ insuredAmount: 1 }))).statusCode,
    200,
  );
  t.same(
    (await get('/api/account', shipper.token)).json().shipper,
    { insuredAmount: 1, signatureFileId },
    'no file keeps the signature',
  );
});

t.test(
  "GET files/{id}: the organization's documents to its users who see its account, and a Superadmin",
  async (t) => {
    const documents = (await get('/api/account', carrier.token)).json().carrier.documents;
    const id = documents.w9Form as string;
    t.equal((await get(`/api/files/${id}`)).statusCode, 401);
    t.equal(
      (await get(`/api/files/${id}`, shipper.token)).statusCode,
      404,
      "another organization's file",
    );
    t.equal((await get(`/api/files/${crypto.randomUUID()}`, carrier.token)).statusCode, 404);
    t.equal((await get('/api/files/nope', carrier.token)).statusCode, 400);

    const file = await get(`/api/files/${id}`, carrier.token);
    t.equal(file.statusCode, 200);
    t.equal(file.headers['content-type'], 'application/pdf');
    t.match(file.headers['content-disposition'], /^attachment; filename="w9Form\.pdf"/);
    t.equal(file.headers['x-content-type-options'], 'nosniff');
    t.same(file.rawPayload, PDF);
    t.equal(
      (await get(`/api/files/${id}`, driver.token)).statusCode,
      404,
      "not the organization's drivers",
    );
    t.equal((await get(`/api/files/${id}`, admin.token)).statusCode, 200, 'a Superadmin');
  },
);
