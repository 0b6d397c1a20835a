import t from 'tap';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { organizationStream } from '../../domain/organizations/organization.ts';
import { emailKeyStream, usernameKeyStream } from '../../domain/uniqueKeys/uniqueKey.ts';
import { userStream } from '../../domain/users/user.ts';
import { startTestApp } from '../testing/testApp.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { ensureSuperadmin } from '../identity/bootstrap.ts';
import { hashCode } from '../auth/codes.ts';
import { callerOf as causeOf } from '../commands/caller.ts';
import { createOrganizationWithUser } from '../commands/organizations.ts';

// A real SMTP peer on loopback: the codes are read from the messages it receives.
const inbox: string[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    let raw = '';
    stream.on('data', (chunk) => {
      raw += chunk.toString();
    });
    stream.on('end', () => {
      inbox.push(raw);
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const smtpPort = (smtp.server.address() as AddressInfo).port;
const { app, platform, close } = await startTestApp({
  smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
  adminEmail: 'root@freight.test',
  adminPassword: 'root-password-1',
});
t.teardown(async () => {
  await close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const now = () => new Date().toISOString();
const pdf = () =>
  new Blob([Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')], {
    type: 'application/pdf',
  });
const exe = () =>
  new Blob([Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)])], { type: 'application/pdf' });
const waitForMail = async (to: string) => {
  for (let i = 0; i < 100; i++) {
    const message = inbox.find((raw) => raw.includes(to));
    if (message) return message;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no e-mail to ${to}`);
};
// Sign-in is limited per client address: each sign-in names the socket's address, which the shared
// request helper cannot set, so it goes through app.inject.
const login = (
  email: string,
  password: string,
  address = '127.0.0.1',
  headers: Record<string, string> = {},
) =>
  app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password },
    remoteAddress: address,
    headers,
  });

const carrierData = (overrides: Record<string, unknown> = {}) => ({
  email: 'dispatch@haulers.test',
  username: 'haulers',
  password: 'long-enough-1',
  userDetails: { name: 'Pat Hauler', phone: '(555) 555-1234' },
  organization: {
    name: 'Haulers Inc',
    organizationContactInfo: {
      address: '1 Main St, Dallas, TX',
      person: 'Pat Hauler',
      email: 'office@haulers.test',
      phone: '555-555-1234',
    },
  },
  mcNumber: 123456,
  dotNumber: 654321,
  trucks: [{ type: 4, count: 2 }],
  trailers: [{ type: 5, count: 1 }],
  driverTeams: [{ type: 1, count: 2 }],
  acceptTerms: true,
  ...overrides,
});
const registerCarrier = (
  data: unknown,
  files: Record<string, Blob> = {
    mcAuthority: pdf(),
    certificateOfInsurance: pdf(),
    w9Form: pdf(),
  },
) => {
  const form = new FormData();
  form.set('data', JSON.stringify(data));
  for (const [name, blob] of Object.entries(files)) form.set(name, blob, `${name}.pdf`);
  return fetch(`${address}/api/register/carrier`, { method: 'POST', body: form });
};
await app.listen({ port: 0, host: '127.0.0.1' });
const address = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const as = requester(app);

t.test('the first Superadmin is created at start from ADMIN_EMAIL, once', async (t) => {
  const events = await watchEvents(platform.store);
  const id = await ensureSuperadmin(platform);
  t.ok(id, 'created');
  await events.expect(t, [
    { type: 'KeyReserved', stream: emailKeyStream('root@freight.test'), data: { ownerId: id } },
    { type: 'KeyReserved', stream: usernameKeyStream('admin'), data: { ownerId: id } },
    {
      type: 'UserRegistered',
      stream: userStream(id!),
      data: { userId: id, email: 'root@freight.test', roleId: 1, organizationId: null, status: 2 },
    },
  ]);
  t.equal(await ensureSuperadmin(platform), null, 'not twice');
  await events.expect(t, [], { message: 'the second start appended' });
  const response = await login('root@freight.test', 'root-password-1');
  t.equal(response.statusCode, 200);
  t.equal(response.json().user.role.name, 'Superadmin');
  t.ok(response.json().user.permissions.includes(406), 'holds every code');
  // Sign-in keeps no event: the session is a refresh-token row (the refresh-token test uses one).
  await events.expect(t, [], { message: 'the sign-in appended' });
});

t.test(
  'a carrier registers with its documents, confirms the e-mailed code, a Superadmin activates it',
  async (t) => {
    const events = await watchEvents(platform.store);
    const response = await registerCarrier(carrierData());
    t.equal(response.status, 201);
    const { userId, organizationId } = (await response.json()) as {
      userId: string;
      organizationId: string;
    };
    await events.expect(t, [
      {
        type: 'KeyReserved',
        stream: emailKeyStream('dispatch@haulers.test'),
        data: { ownerId: userId },
      },
      { type: 'KeyReserved', stream: usernameKeyStream('haulers'), data: { ownerId: userId } },
      {
        type: 'OrganizationRegistered',
        stream: organizationStream(organizationId),
        data: { organizationId, type: 'Carrier', name: 'Haulers Inc', status: 1 },
      },
      {
        type: 'UserRegistered',
        stream: userStream(userId),
        data: {
          userId,
          organizationId,
          email: 'dispatch@haulers.test',
          username: 'haulers',
          roleId: 3,
          status: 1,
        },
      },
      {
        type: 'CarrierAuthorityChecked',
        stream: organizationStream(organizationId),
        data: { organizationId, dotNumber: 654321, status: 'unknown', source: 'import' },
      },
    ]);
    const mail = await waitForMail('dispatch@haulers.test');
    const code = /sign-up code is (\d{6})/.exec(mail)?.[1];
    t.ok(code, 'a 6-digit code was e-mailed');

    const wrong = await as(null).post('/api/confirm-signup', {
      email: 'dispatch@haulers.test',
      code: code === '000000' ? '111111' : '000000',
    });
    t.equal(wrong.status, 400);
    t.equal(wrong.body.message, 'Invalid confirmation code');
    await events.expect(t, [], { message: 'the wrong code appended' });
    const right = await as(null).post('/api/confirm-signup', {
      email: 'dispatch@haulers.test',
      code,
    });
    t.equal(right.status, 200);
    await events.expect(t, [
      { type: 'SignupConfirmed', stream: userStream(userId), data: { userId } },
    ]);

    const pending = await login('haulers', 'long-enough-1');
    t.equal(pending.statusCode, 200, 'a Pending user can sign in');
    t.match(pending.json().user.organization, { id: organizationId, status: 1, type: 'Carrier' });
    // Sign-in keeps no event: the session is a refresh-token row.
    await events.expect(t, [], { message: 'the sign-in appended' });
    const row = await platform.database.db
      .selectFrom('organizations_view')
      .selectAll()
      .where('id', '=', organizationId)
      .executeTakeFirstOrThrow();
    t.equal(Number(row.mc_number), 123456);
    t.equal(Object.values(row.documents).filter(Boolean).length, 3, 'three documents stored');
    const user = await platform.database.db
      .selectFrom('users_view')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    t.match(user, { status: 1, email_confirmed: true, role_id: 3 });
  },
);

t.test(
  'registration validates every field and file, and writes nothing when refused',
  async (t) => {
    const events = await watchEvents(platform.store);
    const cases: [unknown, Record<string, Blob> | undefined, number, string][] = [
      [
        carrierData({ mcNumber: -5, email: 'a1@x.test', username: 'a1' }),
        undefined,
        400,
        'Please enter your MC Number',
      ],
      [
        carrierData({ dotNumber: 'abc', email: 'a2@x.test', username: 'a2' }),
        undefined,
        400,
        'Please enter your DOT Number',
      ],
      [
        carrierData({ acceptTerms: false, email: 'a3@x.test', username: 'a3' }),
        undefined,
        400,
        'Accept Terms & Conditions is required',
      ],
      [
        carrierData({ password: 'short', email: 'a4@x.test', username: 'a4' }),
        undefined,
        400,
        'Password is too short - should be 8 chars minimum',
      ],
      [
        carrierData({
          userDetails: { name: 'X', phone: '12' },
          email: 'a5@x.test',
          username: 'a5',
        }),
        undefined,
        400,
        'Please enter a valid US phone number (e.g. (555) 555-5555, 555-555-5555, or 5555555555)',
      ],
      [
        carrierData({ email: 'a6@x.test', username: 'a6' }),
        { mcAuthority: pdf(), certificateOfInsurance: pdf() },
        400,
        'A file is required',
      ],
      [
        carrierData({ email: 'a7@x.test', username: 'a7' }),
        { mcAuthority: exe(), certificateOfInsurance: pdf(), w9Form: pdf() },
        415,
        'Unsupported Format',
      ],
      [
        carrierData({ email: 'a8@x.test', username: 'a8' }),
        {
          mcAuthority: new Blob([
            Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(5_242_881 - 9)]),
          ]),
          certificateOfInsurance: pdf(),
          w9Form: pdf(),
        },
        413,
        'File too large',
      ],
      // The username is checked first, whatever the e-mail; a registered e-mail with a free username
      // answers 201 and writes nothing (registration.enumeration.spec.ts).
      [carrierData(), undefined, 409, 'Username already taken'],
    ];
    for (const [data, files, status, message] of cases) {
      const response = await registerCarrier(data, files);
      const body = (await response.json()) as {
        message: string;
        errors?: { path: string; message: string }[];
      };
      t.equal(response.status, status, message);
      t.ok(
        body.message === message || body.errors?.some((error) => error.message === message),
        `says '${message}'`,
      );
      // Not even a key is reserved: no user, organization or key is written.
      await events.expect(t, [], { message: `'${message}' appended` });
    }
    const { count } = await platform.database.db
      .selectFrom('files')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    t.equal(Number(count), 3, "no orphan files: only the first registration's three");
  },
);

t.test('an expired sign-up code answers 410', async (t) => {
  const created = await createOrganizationWithUser(
    platform,
    {
      type: 'Shipper',
      name: 'Late Co',
      contact: { address: '1 A St', person: 'Lee', email: 'late@co.test', phone: '555-555-0000' },
      carrier: null,
      shipper: { insuredAmount: 1, signatureFileId: null },
      status: 1,
    },
    null,
    causeOf(null),
    now(),
  );
  const userId = crypto.randomUUID();
  await platform.identity.reserveIdentity('late@co.test', 'lateco', userId, causeOf(null), now());
  await platform.identity.user(
    {
      type: 'RegisterUser',
      data: {
        userId,
        email: 'late@co.test',
        username: 'lateco',
        name: 'Lee',
        phone: '555-555-0000',
        roleId: 2,
        organizationId: created.organizationId,
        passwordHash: 'x',
        status: 1,
        confirmation: {
          codeHash: hashCode('123456'),
          expiresAt: new Date(Date.now() - 1000).toISOString(),
        },
        now: now(),
      },
    },
    causeOf(null),
    now(),
  );
  const events = await watchEvents(platform.store);
  const response = await as(null).post('/api/confirm-signup', {
    email: 'late@co.test',
    code: '123456',
  });
  t.equal(response.status, 410);
  const badPin = await as(null).post('/api/confirm-signup', {
    email: 'late@co.test',
    code: '12ab',
  });
  t.equal(badPin.status, 400);
  await events.expect(t, [], { message: 'the refused confirmations appended' });
  t.equal(
    (await platform.identity.loadUser(userId))!.emailConfirmed,
    false,
    'the e-mail stays unconfirmed',
  );
});

t.test('sign-in: e-mail or username, wrong password, blocked user', async (t) => {
  const events = await watchEvents(platform.store);
  t.equal((await login('dispatch@haulers.test', 'long-enough-1')).statusCode, 200, 'by e-mail');
  const wrong = await login('haulers', 'wrong-password', '10.0.0.9');
  t.equal(wrong.statusCode, 401);
  t.equal(wrong.json().message, 'Invalid email or password');
  t.equal(
    (await login('nobody@nowhere.test', 'whatever1', '10.0.0.9')).json().message,
    'Invalid email or password',
    'unknown account: same answer',
  );
  // Sign-in keeps no event, a refused one neither: the failures count in the limiter's memory.
  await events.expect(t, [], { message: 'the sign-ins appended' });
  const profile = await as(null).get('/api/profile');
  t.equal(profile.status, 401, 'profile needs a token');
  const forged = await as('eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.').get('/api/profile');
  t.equal(forged.status, 401, 'alg none refused');
});

t.test(
  'sign-in is rate limited per account and per address; X-Forwarded-For does not reset it',
  async (t) => {
    const events = await watchEvents(platform.store);
    for (let i = 0; i < 10; i++)
      await login('haulers', `bad-password-${i}`, '10.1.1.1', {
        'x-forwarded-for': `203.0.113.${i}`,
      });
    const limited = await login('haulers', 'long-enough-1', '10.1.1.2', {
      'x-forwarded-for': '198.51.100.7',
    });
    t.equal(
      limited.statusCode,
      429,
      'even the right password, from another address, while the account is limited',
    );
    t.ok(Number(limited.headers['retry-after']) > 0, 'Retry-After');
    await events.expect(t, [], { message: 'the refused and limited sign-ins appended' });
    platform.loginLimiter.succeed(['haulers', 'dispatch@haulers.test']);
  },
);

t.test(
  'a known account is one account to the limiter, whichever of its names the guesses use',
  async (t) => {
    const events = await watchEvents(platform.store);
    // Five guesses by username and five by e-mail, each from its own address: ten failures of one account.
    for (let i = 0; i < 10; i++) {
      const wrong = await login(
        i % 2 ? 'haulers' : 'Dispatch@Haulers.test',
        `bad-password-${i}`,
        `10.2.0.${i}`,
      );
      t.equal(wrong.statusCode, 401, `guess ${i + 1} is refused as a wrong password`);
    }
    for (const name of ['haulers', 'dispatch@haulers.test']) {
      const limited = await login(name, 'long-enough-1', '10.2.1.1');
      t.equal(
        limited.statusCode,
        429,
        `signing in as ${name} is limited, even with the right password`,
      );
      t.ok(Number(limited.headers['retry-after']) > 0, 'with Retry-After');
    }
    await events.expect(t, [], { message: 'the refused and limited sign-ins appended' });
    platform.loginLimiter.succeed(['haulers', 'dispatch@haulers.test']);
    t.equal(
      (await login('haulers', 'long-enough-1', '10.2.1.2')).statusCode,
      200,
      'once cleared, the account signs in',
    );
    // Sign-in keeps no event: the session is a refresh-token row.
    await events.expect(t, [], { message: 'the sign-in appended' });
  },
);

t.test(
  'refresh tokens rotate; a reused one revokes its family; logout ends the session',
  async (t) => {
    const events = await watchEvents(platform.store);
    const signedIn = (await login('dispatch@haulers.test', 'long-enough-1', '10.2.2.2')).json();
    const first = await as(null).post('/api/refresh-token', {
      refreshToken: signedIn.refreshToken,
    });
    t.equal(first.status, 200);
    t.not(first.body.refreshToken, signedIn.refreshToken, 'a new pair');
    const reuse = await as(null).post('/api/refresh-token', {
      refreshToken: signedIn.refreshToken,
    });
    t.equal(reuse.status, 401, 'a used token is refused');
    const newest = await as(null).post('/api/refresh-token', {
      refreshToken: first.body.refreshToken,
    });
    t.equal(newest.status, 401, 'and its whole family is revoked');

    const again = (await login('dispatch@haulers.test', 'long-enough-1', '10.2.2.2')).json();
    const me = await as(again.accessToken).get('/api/profile');
    t.equal(me.status, 200);
    t.equal(me.body.email, 'dispatch@haulers.test');
    t.ok(me.body.permissions.includes(204), 'carrier permissions');
    t.equal((await as(null).post('/api/logout', { refreshToken: again.refreshToken })).status, 204);
    t.equal(
      (await as(null).post('/api/refresh-token', { refreshToken: again.refreshToken })).status,
      401,
      'refresh stops at once',
    );
    t.equal(
      (await as(again.accessToken).get('/api/profile')).status,
      401,
      'the access token stops too',
    );
    // Sessions are refresh-token rows, not events: sign-in, rotation, revocation and sign-out
    // append nothing (what they write shows in the statuses above).
    await events.expect(t, [], { message: 'the sessions appended' });
  },
);

t.test(
  'password recovery: same answer for unknown addresses, single-use code, sessions revoked',
  async (t) => {
    const session = (await login('dispatch@haulers.test', 'long-enough-1', '10.3.3.3')).json();
    const userId: string = session.user.id;
    const events = await watchEvents(platform.store);
    const known = await as(null).post('/api/users/forgot-password', {
      email: 'dispatch@haulers.test',
    });
    await events.expect(t, [
      { type: 'PasswordResetRequested', stream: userStream(userId), data: { userId } },
    ]);
    const unknown = await as(null).post('/api/users/forgot-password', {
      email: 'ghost@haulers.test',
    });
    await events.expect(t, [], { message: 'an unknown address appended' });
    t.equal(known.status, 200);
    t.same(unknown.body, known.body, 'the same body');
    const mail = inbox
      .filter((raw) => raw.includes('Reset your Freight Marketplace password'))
      .at(-1)!;
    const code = /Reset code: ([0-9a-f]{64})/.exec(mail.replace(/=\r?\n/g, ''))?.[1];
    t.ok(code, 'reset code e-mailed');
    const reset = await as(null).post('/api/users/reset-password', {
      code,
      newPassword: 'brand-new-password',
    });
    t.equal(reset.status, 200);
    await events.expect(t, [
      { type: 'PasswordReset', stream: userStream(userId), data: { userId } },
    ]);
    t.equal(
      (
        await as(null).post('/api/users/reset-password', {
          code,
          newPassword: 'another-password',
        })
      ).status,
      400,
      'single use',
    );
    await events.expect(t, [], { message: 'the used code appended' });
    t.equal(
      (await as(null).post('/api/refresh-token', { refreshToken: session.refreshToken })).status,
      401,
      'old sessions revoked',
    );
    t.equal(
      (await login('dispatch@haulers.test', 'long-enough-1', '10.3.3.4')).statusCode,
      401,
      'old password refused',
    );
    t.equal(
      (await login('dispatch@haulers.test', 'brand-new-password', '10.3.3.4')).statusCode,
      200,
      'new password works',
    );
  },
);

t.test('a blocked user cannot sign in and its refresh tokens stop working', async (t) => {
  const session = (await login('dispatch@haulers.test', 'brand-new-password', '10.4.4.4')).json();
  await platform.identity.user(
    { type: 'BlockUser', data: { userId: session.user.id, now: now() } },
    causeOf(null),
    now(),
  );
  const events = await watchEvents(platform.store);
  const response = await login('dispatch@haulers.test', 'brand-new-password', '10.4.4.4');
  t.equal(response.statusCode, 401);
  t.match(response.json().message, /blocked/);
  t.equal(
    (await as(null).post('/api/refresh-token', { refreshToken: session.refreshToken })).status,
    401,
  );
  await events.expect(t, [], { message: 'the refused sign-in and refresh appended' });
});

t.test('the outbox is for the Superadmin only', async (t) => {
  t.equal((await as(null).get('/api/admin/outbox')).status, 401);
  const admin = (await login('root@freight.test', 'root-password-1', '10.5.5.5')).json();
  const response = await as(admin.accessToken).get('/api/admin/outbox');
  t.equal(response.status, 200);
  t.ok(Array.isArray(response.body), 'a list (empty while SMTP is configured)');
});
