import t from 'tap';
import {
  member,
  organization,
  PASSWORD,
  PDF,
  PNG,
  signIn,
  superadmin,
} from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { startTestApp } from '../testing/testApp.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper', { name: 'Acme Shipping' });
const carrier = await organization(app, platform, 'Carrier', { name: 'Zeta Hauling' });
const driver = await member(app, platform, carrier.organizationId!, 4, { name: 'Dan Driver' });

const as = requester(app);

t.test('GET account: each section only by permission, never the password hash', async (t) => {
  t.equal((await as(null).get('/api/account')).status, 401);

  const ofShipper = (await as(shipper.token).get('/api/account')).body;
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

  const ofCarrier = (await as(carrier.token).get('/api/account')).body;
  t.same(Object.keys(ofCarrier).sort(), ['carrier', 'organization', 'services', 'user']);
  t.match(ofCarrier.carrier, { mcNumber: null, documents: { w9Form: null } });

  const ofDriver = await as(driver.token).get('/api/account');
  t.same(Object.keys(ofDriver.body), ['user'], 'a driver sees only its user');
  t.notMatch(ofDriver.text, /argon2|passwordHash/);
  t.same(
    Object.keys((await as(admin.token).get('/api/account')).body),
    ['user'],
    'a Superadmin has no organization',
  );
});

t.test('PUT users: the own profile, keys and password', async (t) => {
  const me = await member(app, platform, shipper.organizationId!, 2, { name: 'Mia Member' });
  const other = await member(app, platform, shipper.organizationId!, 2);
  const base = { email: me.email, username: me.username, name: 'Mia M.', phone: '555-555-0111' };
  const events = await watchEvents(platform.store);

  t.equal((await as(null).put('/api/users', base)).status, 401);
  const invalid = await as(me.token).put('/api/users', { ...base, phone: '12' });
  t.equal(invalid.status, 400);
  t.equal(invalid.body.errors[0].path, 'phone');
  const noName = await as(me.token).put('/api/users', { ...base, name: ' ' });
  t.same(noName.body.errors[0], {
    path: 'name',
    message: 'Please enter name!',
    code: 'name_required',
  });

  const taken = await as(me.token).put('/api/users', {
    ...base,
    email: other.email,
    oldPassword: PASSWORD,
  });
  t.equal(taken.status, 409);
  t.equal(taken.body.message, 'Email already registered');
  const takenName = await as(me.token).put('/api/users', {
    ...base,
    email: 'mia-new@example.com',
    username: other.username,
    oldPassword: PASSWORD,
  });
  t.equal(takenName.status, 409);
  await events.expect(t, ['KeyReserved', 'KeyReleased', 'KeyReserved', 'KeyReleased'], {
    message: 'a refused change releases every key it reserved',
  });
  t.equal(
    await platform.identity.userIdByEmail('mia-new@example.com'),
    null,
    'a refused change moves no key',
  );

  const unconfirmed = await as(me.token).put('/api/users', {
    ...base,
    email: 'mia-new@example.com',
    username: 'mia-new',
  });
  t.equal(unconfirmed.status, 400, 'a new e-mail needs the current password');
  t.equal(unconfirmed.body.message, 'Please enter your current password');
  const renamed = await as(me.token).put('/api/users', {
    ...base,
    email: 'mia-new@example.com',
    username: 'mia-new',
    oldPassword: PASSWORD,
  });
  t.equal(renamed.status, 200);
  await events.expect(
    t,
    [
      'KeyReserved',
      'KeyReleased',
      'KeyReserved',
      'KeyReleased',
      {
        type: 'UserUpdated',
        data: { userId: me.userId, email: 'mia-new@example.com', username: 'mia-new' },
      },
    ],
    { message: 'the new e-mail and username' },
  );
  t.equal(await platform.identity.userIdByEmail('mia-new@example.com'), me.userId);
  t.equal(await platform.identity.userIdByUsername('mia-new'), me.userId);
  t.equal(await platform.identity.userIdByEmail(me.email), null, 'the old e-mail is released');
  await signIn(app, 'mia-new', PASSWORD);
  const row = (await as(shipper.token).get(`/api/users?search=mia-new`)).body.data[0];
  t.match(
    row,
    { id: me.userId, email: 'mia-new@example.com', name: 'Mia M.' },
    'the list shows the change at once',
  );

  const current = { ...base, email: 'mia-new@example.com', username: 'mia-new' };
  const noOld = await as(me.token).put('/api/users', {
    ...current,
    newPassword: 'brand-new-pass',
  });
  t.equal(noOld.status, 400);
  t.equal(noOld.body.errors[0].path, 'oldPassword');
  const wrongOld = await as(me.token).put('/api/users', {
    ...current,
    oldPassword: 'wrong-password',
    newPassword: 'brand-new-pass',
  });
  t.equal(wrongOld.status, 400);
  t.equal(wrongOld.body.errors[0].path, 'oldPassword');
  t.equal(wrongOld.body.message, 'Current password is incorrect');
  const tooShort = await as(me.token).put('/api/users', {
    ...current,
    oldPassword: PASSWORD,
    newPassword: 'short',
  });
  t.equal(tooShort.body.message, 'Password is too short - should be 8 chars minimum');

  const otherSession = await signIn(app, 'mia-new', PASSWORD);
  const changed = await as(me.token).put('/api/users', {
    ...current,
    oldPassword: PASSWORD,
    newPassword: 'brand-new-pass',
  });
  t.equal(changed.status, 200);
  t.same(changed.body, { message: 'Account successfully updated' });
  await events.expect(t, [{ type: 'PasswordChanged', data: { userId: me.userId } }], {
    types: ['PasswordChanged'],
  });
  t.equal((await as(otherSession).get('/api/profile')).status, 401, 'other sessions are revoked');
  t.equal((await as(me.token).get('/api/profile')).status, 200, "the caller's session goes on");
  await signIn(app, 'mia-new', 'brand-new-pass');
  t.equal(
    (await as(null).post('/api/login', { email: 'mia-new', password: PASSWORD })).status,
    401,
    'the old password no longer works',
  );

  t.equal(
    (
      await as(driver.token).put('/api/users', {
        email: driver.email,
        username: driver.username,
        name: 'Dan D.',
        phone: '555-555-0112',
      })
    ).status,
    200,
    'a driver edits its own profile',
  );
});

t.test('PUT users/organization: the own organization', async (t) => {
  // The same e-mail and phone: the rest applies at once (a new e-mail or phone waits 24 hours,
  // organizationContactHold.spec.ts).
  const { email, phone } = (await as(shipper.token).get('/api/account')).body.organization;
  const body = { name: 'Acme Shipping LLC', address: '2 Main St', person: 'Pat', email, phone };
  t.equal((await as(null).put('/api/users/organization', body)).status, 401);
  t.equal((await as(driver.token).put('/api/users/organization', body)).status, 403);
  const invalid = await as(shipper.token).put('/api/users/organization', {
    ...body,
    address: '',
  });
  t.equal(invalid.status, 400);
  t.same(invalid.body.errors[0], {
    path: 'address',
    message: 'Please enter company address!',
    code: 'company_address_required',
  });
  t.equal(
    (await as(admin.token).put('/api/users/organization', body)).status,
    404,
    'a Superadmin has no own organization',
  );

  const events = await watchEvents(platform.store);
  t.equal((await as(shipper.token).put('/api/users/organization', body)).status, 200);
  await events.expect(t, [
    {
      type: 'OrganizationContactChanged',
      data: { organizationId: shipper.organizationId, name: 'Acme Shipping LLC' },
    },
  ]);
  t.match((await as(shipper.token).get('/api/account')).body.organization, {
    name: 'Acme Shipping LLC',
    address: '2 Main St',
    email,
    pendingContactChange: null,
  });
  const listed = (await as(admin.token).get('/api/users/list/shippers?search=LLC')).body;
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
  t.equal((await as(null).upload('/api/users/carrier', { data: data })).status, 401);
  t.equal((await as(shipper.token).upload('/api/users/carrier', { data: data })).status, 403);
  const invalid = await as(carrier.token).upload('/api/users/carrier', {
    data: { ...data, mcNumber: 'abc' },
  });
  t.equal(invalid.status, 400);
  t.same(invalid.body.errors[0], {
    path: 'mcNumber',
    message: 'Please enter your MC Number',
    code: 'mc_number_required',
  });
  const badTruck = await as(carrier.token).upload('/api/users/carrier', {
    data: { ...data, trucks: [{ type: 99, count: 1 }] },
  });
  t.equal(badTruck.body.errors[0].path, 'trucks.0.type');
  t.equal(
    (
      await as(carrier.token).upload('/api/users/carrier', {
        data: data,
        files: { w9Form: { content: PNG } },
      })
    ).status,
    415,
    'a document must be a PDF',
  );

  const events = await watchEvents(platform.store);
  const saved = await as(carrier.token).upload('/api/users/carrier', {
    data: data,
    files: { w9Form: { content: PDF, filename: 'w9.pdf' } },
  });
  t.equal(saved.status, 200);
  await events.expect(t, [
    {
      type: 'CarrierProfileChanged',
      stream: `organization-${carrier.organizationId}`,
      data: {
        organizationId: carrier.organizationId,
        profile: { mcNumber: 111222, dotNumber: 333444, eldProvider: 'Samsara' },
      },
    },
  ]);
  const account = (await as(carrier.token).get('/api/account')).body;
  t.match(account.carrier, {
    mcNumber: 111222,
    dotNumber: 333444,
    eldProvider: 'Samsara',
    trucks: [{ type: 1, count: 3 }],
  });
  const w9 = account.carrier.documents.w9Form;
  t.ok(w9);

  const again = await as(carrier.token).upload('/api/users/carrier', {
    data: { ...data, eldProvider: 'Motive' },
    files: { mcAuthority: { content: PDF } },
  });
  t.equal(again.status, 200);
  await events.expect(t, [
    { type: 'CarrierProfileChanged', data: { profile: { eldProvider: 'Motive' } } },
  ]);
  const after = (await as(carrier.token).get('/api/account')).body.carrier;
  t.equal(after.documents.w9Form, w9, 'a document not sent stays as it was');
  t.ok(after.documents.mcAuthority);
  t.equal(after.eldProvider, 'Motive');

  const changeMc = await as(carrier.token).upload('/api/users/carrier', {
    data: { ...data, mcNumber: 999 },
  });
  t.equal(changeMc.status, 409);
  t.same(changeMc.body.errors[0], {
    path: 'mcNumber',
    message: 'MC Number cannot be changed once set',
  });
  await events.expect(t, [], { message: 'a refused change appends nothing' });
  const changeDot = await as(carrier.token).upload('/api/users/carrier', {
    data: { ...data, dotNumber: 999 },
  });
  t.equal(changeDot.body.errors[0].path, 'dotNumber');

  const row = (await as(admin.token).get('/api/users/list/carriers?search=Zeta')).body.data[0];
  t.match(
    row,
    { mcNumber: 111222, documents: { w9Form: w9 } },
    'the carriers list shows the documents',
  );
});

t.test('POST users/shipper: insured amount and a signature checked by its bytes', async (t) => {
  t.equal(
    (await as(null).upload('/api/users/shipper', { data: { insuredAmount: 2 } })).status,
    401,
  );
  t.equal(
    (await as(carrier.token).upload('/api/users/shipper', { data: { insuredAmount: 2 } })).status,
    403,
  );
  const invalid = await as(shipper.token).upload('/api/users/shipper', {
    data: { insuredAmount: 5 },
  });
  t.equal(invalid.status, 400);
  t.same(invalid.body.errors[0], {
    path: 'insuredAmount',
    message: 'Please select an insurance amount',
    code: 'insured_amount_required',
  });
  const disguised = await as(shipper.token).upload('/api/users/shipper', {
    data: { insuredAmount: 2 },
    files: { signature: { content: PDF, filename: 'sig.png', type: 'image/png' } },
  });
  t.equal(disguised.status, 415, 'a PDF named .png is refused');

  const events = await watchEvents(platform.store);
  const saved = await as(shipper.token).upload('/api/users/shipper', {
    data: { insuredAmount: '> $100,000.00' },
    files: { signature: { content: PNG, filename: 'sig.png' } },
  });
  t.equal(saved.status, 200);
  const signatureFileId = saved.body.signatureFileId;
  await events.expect(t, [
    {
      type: 'ShipperProfileChanged',
      data: {
        organizationId: shipper.organizationId,
        profile: { insuredAmount: 2, signatureFileId },
      },
    },
  ]);
  t.same((await as(shipper.token).get('/api/account')).body.shipper, {
    insuredAmount: 2,
    signatureFileId,
  });
  t.equal(
    (await as(shipper.token).upload('/api/users/shipper', { data: { insuredAmount: 1 } })).status,
    200,
  );
  t.same(
    (await as(shipper.token).get('/api/account')).body.shipper,
    { insuredAmount: 1, signatureFileId },
    'no file keeps the signature',
  );
});

t.test(
  "GET files/{id}: the organization's documents to its users who see its account, and a Superadmin",
  async (t) => {
    const documents = (await as(carrier.token).get('/api/account')).body.carrier.documents;
    const id = documents.w9Form as string;
    t.equal((await as(null).get(`/api/files/${id}`)).status, 401);
    t.equal(
      (await as(shipper.token).get(`/api/files/${id}`)).status,
      404,
      "another organization's file",
    );
    t.equal((await as(carrier.token).get(`/api/files/${crypto.randomUUID()}`)).status, 404);
    t.equal((await as(carrier.token).get('/api/files/nope')).status, 400);

    const file = await as(carrier.token).get(`/api/files/${id}`);
    t.equal(file.status, 200);
    t.equal(file.headers['content-type'], 'application/pdf');
    t.match(file.headers['content-disposition'], /^attachment; filename="w9Form\.pdf"/);
    t.equal(file.headers['x-content-type-options'], 'nosniff');
    t.same(file.raw, PDF);
    t.equal(
      (await as(driver.token).get(`/api/files/${id}`)).status,
      404,
      "not the organization's drivers",
    );
    t.equal((await as(admin.token).get(`/api/files/${id}`)).status, 200, 'a Superadmin');
  },
);
