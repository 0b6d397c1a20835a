/**
 * Self-registration and its confirmation do not tell whether an e-mail address has an account:
 * `POST confirm-signup` answers a confirmed account, a pending one with a wrong code and an unknown
 * address alike (400 'Invalid confirmation code'); `POST register/*` with a taken username answers
 * 409 'Username already taken' whatever the e-mail, and with a free username answers 201 whether the
 * e-mail is new or registered: then nothing is written and the address's owner is told by e-mail.
 * Only the password of a registration still waiting for its code tells that it waits
 * (registration.pending.spec.ts): whoever lacks it gets the answers above.
 */
import t from 'tap';
import { organizationStream } from '../../domain/organizations/organization.ts';
import { emailKeyStream, usernameKeyStream } from '../../domain/uniqueKeys/uniqueKey.ts';
import { userStream } from '../../domain/users/user.ts';
import { hashCode } from '../auth/codes.ts';
import { callerOf as causeOf } from '../commands/caller.ts';
import { createOrganizationWithUser } from '../commands/organizations.ts';
import { multipart } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { startTestApp } from '../testing/testApp.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);

const shipperData = (email: string, username: string, password = 'long-enough-1') => ({
  email,
  username,
  password,
  userDetails: { name: 'Sam Shipper', phone: '(555) 555-1234' },
  organization: {
    name: 'Sam Goods',
    organizationContactInfo: {
      address: '1 Main St, Dallas, TX',
      person: 'Sam Shipper',
      email: 'office@sam.test',
      phone: '555-555-1234',
    },
  },
  insuredAmount: 1,
  acceptTerms: true,
});
// Each call from its own address: the routes' per-address limits are not what is tested here. The
// shared request helper cannot set the client address, so these two go through app.inject.
let client = 0;
const from = () => `10.66.${Math.floor(client / 250)}.${(client++ % 250) + 1}`;
const register = (email: string, username: string, password?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/register/shipper',
    ...multipart(shipperData(email, username, password)),
    remoteAddress: from(),
  });
const confirm = (email: string, code: string) =>
  app.inject({
    method: 'POST',
    url: '/api/confirm-signup',
    payload: { email, code },
    remoteAddress: from(),
  });
const outboxTo = async (to: string) =>
  (await platform.mailer.listOutbox(100)).filter((mail) => mail.to === to);
const now = () => new Date().toISOString();

/** A registered, confirmed shipper; a pending one with a live code; a pending one whose code expired. */
const expect = (status: number, answer: { statusCode: number; body: string }) => {
  if (answer.statusCode !== status)
    throw new Error(`setup: expected ${status}, got ${answer.statusCode} ${answer.body}`);
};
expect(201, await register('known@sam.test', 'known-sam'));
const code = /sign-up code is (\d{6})/.exec((await outboxTo('known@sam.test'))[0]!.text)![1]!;
expect(200, await confirm('known@sam.test', code));
expect(201, await register('pending@sam.test', 'pending-sam'));
const late = await createOrganizationWithUser(
  platform,
  {
    type: 'Shipper',
    name: 'Late Goods',
    contact: { address: '1 A St', person: 'Lee', email: 'late@sam.test', phone: '555-555-0000' },
    carrier: null,
    shipper: { insuredAmount: 1, signatureFileId: null },
    status: 1,
  },
  null,
  causeOf(null),
  now(),
);
const lateUserId = crypto.randomUUID();
await platform.identity.reserveIdentity(
  'late@sam.test',
  'late-sam',
  lateUserId,
  causeOf(null),
  now(),
);
await platform.identity.user(
  {
    type: 'RegisterUser',
    data: {
      userId: lateUserId,
      email: 'late@sam.test',
      username: 'late-sam',
      name: 'Lee',
      phone: '555-555-0000',
      roleId: 2,
      organizationId: late.organizationId,
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

t.test(
  'confirm-signup answers a confirmed, a pending or an expired account with a wrong code as it answers an unknown address',
  async (t) => {
    const events = await watchEvents(platform.store);
    const unknown = await confirm('nobody@sam.test', '000000');
    t.equal(unknown.statusCode, 400);
    t.same(unknown.json().errors, [
      { path: 'code', message: 'Invalid confirmation code', code: 'confirmation_code_invalid' },
    ]);
    for (const [email, wrong, what] of [
      ['known@sam.test', code, 'a confirmed account, even with its old code'],
      ['known@sam.test', '000000', 'a confirmed account'],
      ['pending@sam.test', '000000', 'a pending account, wrong code'],
      ['late@sam.test', '654321', 'an expired code, wrong code'],
    ] as const) {
      const answer = await confirm(email, wrong);
      t.equal(answer.statusCode, unknown.statusCode, `${what}: the same status`);
      t.same(answer.json(), unknown.json(), `${what}: the same body`);
    }
    const expired = await confirm('late@sam.test', '123456');
    t.equal(
      expired.statusCode,
      410,
      'only the right code past its expiry says so (the owner learns to register again)',
    );
    t.equal(expired.json().message, 'Code expired, please register again');
    await events.expect(t, [], { message: 'the refused confirmations appended' });
  },
);

t.test('register/*: a taken username answers the same whatever the e-mail', async (t) => {
  const events = await watchEvents(platform.store);
  const registered = await register('known@sam.test', 'pending-sam');
  const unknown = await register('fresh@sam.test', 'pending-sam');
  t.equal(unknown.statusCode, 409);
  t.equal(unknown.json().message, 'Username already taken');
  t.equal(registered.statusCode, unknown.statusCode, 'the same status for a registered e-mail');
  t.same(registered.json(), unknown.json(), 'and the same body');
  await events.expect(t, [], { message: 'nothing written' });
});

t.test(
  'register/*: a registered e-mail with a free username answers 201 like a new one; nothing is written and the owner is told',
  async (t) => {
    const mailsBefore = (await outboxTo('known@sam.test')).length;
    const events = await watchEvents(platform.store);
    const again = await register('Known@Sam.test ', 'someone-new');
    t.equal(again.statusCode, 201, again.body);
    await events.expect(t, [], {
      message: 'the registered address made nothing: no user, organization or username',
    });
    const fresh = await register('brand-new@sam.test', 'brand-new-sam');
    t.equal(fresh.statusCode, 201);
    const { userId, organizationId } = fresh.json();
    await events.expect(
      t,
      [
        {
          type: 'KeyReserved',
          stream: emailKeyStream('brand-new@sam.test'),
          data: { ownerId: userId },
        },
        {
          type: 'KeyReserved',
          stream: usernameKeyStream('brand-new-sam'),
          data: { ownerId: userId },
        },
        {
          type: 'OrganizationRegistered',
          stream: organizationStream(organizationId),
          data: { organizationId, type: 'Shipper', status: 1 },
        },
        {
          type: 'UserRegistered',
          stream: userStream(userId),
          data: { userId, email: 'brand-new@sam.test', username: 'brand-new-sam', roleId: 2 },
        },
      ],
      { message: 'the new address registers' },
    );
    t.same(
      Object.keys(again.json()).sort(),
      Object.keys(fresh.json()).sort(),
      'the same body: {userId, organizationId}',
    );
    t.match(again.json(), { userId: /^[0-9a-f-]{36}$/, organizationId: /^[0-9a-f-]{36}$/ });

    t.equal(
      await platform.identity.userIdByUsername('someone-new'),
      null,
      'the username stays free',
    );
    t.equal(
      await platform.identity.loadUser(again.json().userId),
      null,
      'the answered id is no user',
    );

    const notices = (await outboxTo('known@sam.test')).slice(
      0,
      (await outboxTo('known@sam.test')).length - mailsBefore,
    );
    t.equal(notices.length, 1, "the address's owner is told");
    t.match(notices[0]!.text, /Email already registered/);
    t.match(notices[0]!.text, /Forgot password/);
    t.notMatch(notices[0]!.text, /sign-up code is/, 'with no code');
    t.equal(
      (await platform.mailer.listOutbox(100)).filter(
        (mail) => /sign-up code is/.test(mail.text) && mail.to === 'brand-new@sam.test',
      ).length,
      1,
      'the new address gets its code',
    );

    const pending = await register('pending@sam.test', 'another-new', 'not-its-password');
    t.equal(pending.statusCode, 201, 'a pending address too (to whoever lacks its password)');
    await events.expect(t, [], { message: 'the pending address made nothing' });
    t.match(
      (await outboxTo('pending@sam.test'))[0]!.text,
      /registration has already started/i,
      'whose owner is told to enter the code',
    );
    t.equal(
      (
        await as(null).post('/api/login', {
          email: 'known@sam.test',
          password: 'long-enough-1',
        })
      ).status,
      200,
      'the account is untouched',
    );
  },
);
