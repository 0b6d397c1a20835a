import t from 'tap';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { startTestApp } from '../testing/testApp.ts';
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

t.test('the first Superadmin is created at start from ADMIN_EMAIL, once', async (t) => {
  const id = await ensureSuperadmin(platform);
  t.ok(id, 'created');
  t.equal(await ensureSuperadmin(platform), null, 'not twice');
  const response = await login('root@freight.test', 'root-password-1');
  t.equal(response.statusCode, 200);
  t.equal(response.json().user.role.name, 'Superadmin');
  t.ok(response.json().user.permissions.includes(406), 'holds every code');
});

t.test(
  'a carrier registers with its documents, confirms the e-mailed code, a Superadmin activates it',
  async (t) => {
    const response = await registerCarrier(carrierData());
    t.equal(response.status, 201);
    const { userId, organizationId } = (await response.json()) as {
      userId: string;
      organizationId: string;
    };
    const mail = await waitForMail('dispatch@haulers.test');
    const code = /sign-up code is (\d{6})/.exec(mail)?.[1];
    t.ok(code, 'a 6-digit code was e-mailed');

    const wrong = await app.inject({
      method: 'POST',
      url: '/api/confirm-signup',
      payload: { email: 'dispatch@haulers.test', code: code === '000000' ? '111111' : '000000' },
    });
    t.equal(wrong.statusCode, 400);
    t.equal(wrong.json().message, 'Invalid confirmation code');
    const right = await app.inject({
      method: 'POST',
      url: '/api/confirm-signup',
      payload: { email: 'dispatch@haulers.test', code },
    });
    t.equal(right.statusCode, 200);

    const pending = await login('haulers', 'long-enough-1');
    t.equal(pending.statusCode, 200, 'a Pending user can sign in');
    t.match(pending.json().user.organization, { id: organizationId, status: 1, type: 'Carrier' });
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
    const before = await platform.store.head();
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
    }
    const after = await platform.store.readAll({ from: before });
    t.same(
      after.filter(
        (event) => event.type === 'UserRegistered' || event.type === 'OrganizationRegistered',
      ),
      [],
      'no user or organization was written',
    );
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
  const response = await app.inject({
    method: 'POST',
    url: '/api/confirm-signup',
    payload: { email: 'late@co.test', code: '123456' },
  });
  t.equal(response.statusCode, 410);
  const badPin = await app.inject({
    method: 'POST',
    url: '/api/confirm-signup',
    payload: { email: 'late@co.test', code: '12ab' },
  });
  t.equal(badPin.statusCode, 400);
});

t.test('sign-in: e-mail or username, wrong password, blocked user', async (t) => {
  t.equal((await login('dispatch@haulers.test', 'long-enough-1')).statusCode, 200, 'by e-mail');
  const wrong = await login('haulers', 'wrong-password', '10.0.0.9');
  t.equal(wrong.statusCode, 401);
  t.equal(wrong.json().message, 'Invalid email or password');
  t.equal(
    (await login('nobody@nowhere.test', 'whatever1', '10.0.0.9')).json().message,
    'Invalid email or password',
    'unknown account: same answer',
  );
  const profile = await app.inject({ method: 'GET', url: '/api/profile' });
  t.equal(profile.statusCode, 401, 'profile needs a token');
  const forged = await app.inject({
    method: 'GET',
    url: '/api/profile',
    headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' },
  });
  t.equal(forged.statusCode, 401, 'alg none refused');
});

t.test(
  'sign-in is rate limited per account and per address; X-Forwarded-For does not reset it',
  async (t) => {
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
    platform.loginLimiter.succeed(['haulers', 'dispatch@haulers.test']);
  },
);

t.test(
  'a known account is one account to the limiter, whichever of its names the guesses use',
  async (t) => {
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
    platform.loginLimiter.succeed(['haulers', 'dispatch@haulers.test']);
    t.equal(
      (await login('haulers', 'long-enough-1', '10.2.1.2')).statusCode,
      200,
      'once cleared, the account signs in',
    );
  },
);

t.test(
  'refresh tokens rotate; a reused one revokes its family; logout ends the session',
  async (t) => {
    const signedIn = (await login('dispatch@haulers.test', 'long-enough-1', '10.2.2.2')).json();
    const first = await app.inject({
      method: 'POST',
      url: '/api/refresh-token',
      payload: { refreshToken: signedIn.refreshToken },
    });
    t.equal(first.statusCode, 200);
    t.not(first.json().refreshToken, signedIn.refreshToken, 'a new pair');
    const reuse = await app.inject({
      method: 'POST',
      url: '/api/refresh-token',
      payload: { refreshToken: signedIn.refreshToken },
    });
    t.equal(reuse.statusCode, 401, 'a used token is refused');
    const newest = await app.inject({
      method: 'POST',
      url: '/api/refresh-token',
      payload: { refreshToken: first.json().refreshToken },
    });
    t.equal(newest.statusCode, 401, 'and its whole family is revoked');

    const again = (await login('dispatch@haulers.test', 'long-enough-1', '10.2.2.2')).json();
    const me = await app.inject({
      method: 'GET',
      url: '/api/profile',
      headers: { authorization: `Bearer ${again.accessToken}` },
    });
    t.equal(me.statusCode, 200);
    t.equal(me.json().email, 'dispatch@haulers.test');
    t.ok(me.json().permissions.includes(204), 'carrier permissions');
    t.equal(
      (
        await app.inject({
          method: 'POST',
          url: '/api/logout',
          payload: { refreshToken: again.refreshToken },
        })
      ).statusCode,
      204,
    );
    t.equal(
      (
        await app.inject({
          method: 'POST',
          url: '/api/refresh-token',
          payload: { refreshToken: again.refreshToken },
        })
      ).statusCode,
      401,
      'refresh stops at once',
    );
    t.equal(
      (
        await app.inject({
          method: 'GET',
          url: '/api/profile',
          headers: { authorization: `Bearer ${again.accessToken}` },
        })
      ).statusCode,
      401,
      'the access token stops too',
    );
  },
);

t.test(
  'password recovery: same answer for unknown addresses, single-use code, sessions revoked',
  async (t) => {
    const session = (await login('dispatch@haulers.test', 'long-enough-1', '10.3.3.3')).json();
    const known = await app.inject({
      method: 'POST',
      url: '/api/users/forgot-password',
      payload: { email: 'dispatch@haulers.test' },
    });
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/users/forgot-password',
      payload: { email: 'ghost@haulers.test' },
    });
    t.equal(known.statusCode, 200);
    t.same(unknown.json(), known.json(), 'the same body');
    const mail = inbox
      .filter((raw) => raw.includes('Reset your Freight Marketplace password'))
      .at(-1)!;
    const code = /Reset code: ([0-9a-f]{64})/.exec(mail.replace(/=\r?\n/g, ''))?.[1];
    t.ok(code, 'reset code e-mailed');
    const reset = await app.inject({
      method: 'POST',
      url: '/api/users/reset-password',
      payload: { code, newPassword: 'brand-new-password' },
    });
    t.equal(reset.statusCode, 200);
    t.equal(
      (
        await app.inject({
          method: 'POST',
          url: '/api/users/reset-password',
          payload: { code, newPassword: 'another-password' },
        })
      ).statusCode,
      400,
      'single use',
    );
    t.equal(
      (
        await app.inject({
          method: 'POST',
          url: '/api/refresh-token',
          payload: { refreshToken: session.refreshToken },
        })
      ).statusCode,
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
  const response = await login('dispatch@haulers.test', 'brand-new-password', '10.4.4.4');
  t.equal(response.statusCode, 401);
  t.match(response.json().message, /blocked/);
  t.equal(
    (
      await app.inject({
        method: 'POST',
        url: '/api/refresh-token',
        payload: { refreshToken: session.refreshToken },
      })
    ).statusCode,
    401,
  );
});

t.test('the outbox is for the Superadmin only', async (t) => {
  t.equal((await app.inject({ method: 'GET', url: '/api/admin/outbox' })).statusCode, 401);
  const admin = (await login('root@freight.test', 'root-password-1', '10.5.5.5')).json();
  const response = await app.inject({
    method: 'GET',
    url: '/api/admin/outbox',
    headers: { authorization: `Bearer ${admin.accessToken}` },
  });
  t.equal(response.statusCode, 200);
  t.ok(Array.isArray(response.json()), 'a list (empty while SMTP is configured)');
});
