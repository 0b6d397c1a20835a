/**
 * A registration waiting for its code (docs/domain.md "Users and organizations"): registering
 * again with its e-mail and password says so (409 'Registration already started, please enter the
 * security code', code `registration_pending`) and writes nothing; `POST confirm-signup/resend`
 * e-mails a new code, answering the same whatever the address; a code that expired says to
 * register again, and registering again with that e-mail (or username) then works: the lapsed
 * registration gives way.
 */
import t from 'tap';
import { organizationStream } from '../../domain/organizations/organization.ts';
import { emailKeyStream, usernameKeyStream } from '../../domain/uniqueKeys/uniqueKey.ts';
import { userStream } from '../../domain/users/user.ts';
import { hashCode } from '../auth/codes.ts';
import { hashPassword } from '../auth/passwords.ts';
import { callerOf as causeOf } from '../commands/caller.ts';
import { createOrganizationWithUser } from '../commands/organizations.ts';
import { REGISTRATION_PENDING } from '../commands/registration.ts';
import { multipart } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { startTestApp } from '../testing/testApp.ts';
import { SIGNUP_CODE_RESENT } from './registration.routes.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);

const PASSWORD = 'long-enough-1';
const shipperData = (email: string, username: string, password = PASSWORD) => ({
  email,
  username,
  password,
  userDetails: { name: 'Rosa Diaz', phone: '(555) 555-1234' },
  organization: {
    name: 'Lone Star Goods',
    organizationContactInfo: {
      address: '1 Elm St, Dallas, TX',
      person: 'Rosa Diaz',
      email: 'office@lonestar.test',
      phone: '555-555-1234',
    },
  },
  insuredAmount: 1,
  acceptTerms: true,
});
// Each call from its own address, so that the routes' per-address limits stay out of the way; the
// limit test below sends from one address on purpose.
let client = 0;
const from = () => `10.67.${Math.floor(client / 250)}.${(client++ % 250) + 1}`;
const register = (email: string, username: string, password = PASSWORD) =>
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
const resend = (email: unknown, remoteAddress = from()) =>
  app.inject({
    method: 'POST',
    url: '/api/confirm-signup/resend',
    payload: { email },
    remoteAddress,
  });
const mailsTo = async (to: string) =>
  (await platform.mailer.listOutbox(500)).filter((mail) => mail.to === to);
/** The newest sign-up code e-mailed to `to`, and how many such mails it has. */
const codesTo = async (to: string) => {
  const codes = (await mailsTo(to))
    .map((mail) => /sign-up code is (\d{6})/.exec(mail.text)?.[1])
    .filter((code): code is string => code !== undefined);
  return { latest: codes[0], count: codes.length };
};
const now = () => new Date().toISOString();

/** A shipper's self-registration whose code (123456) expired a second ago. */
async function expiredRegistration(email: string, username: string, password = PASSWORD) {
  const created = await createOrganizationWithUser(
    platform,
    {
      type: 'Shipper',
      name: `Late Goods ${username}`,
      contact: { address: '1 A St', person: 'Lee', email, phone: '555-555-0000' },
      carrier: null,
      shipper: { insuredAmount: 1, signatureFileId: null },
      status: 1,
    },
    null,
    causeOf(null),
    now(),
  );
  const userId = crypto.randomUUID();
  await platform.identity.reserveIdentity(email, username, userId, causeOf(null), now());
  await platform.identity.user(
    {
      type: 'RegisterUser',
      data: {
        userId,
        email,
        username,
        name: 'Lee',
        phone: '555-555-0000',
        roleId: 2,
        organizationId: created.organizationId,
        passwordHash: await hashPassword(password),
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
  await platform.runner.waitFor(['users', 'organizations'], await platform.store.committedHead());
  return { userId, organizationId: created.organizationId };
}

t.test(
  'register/* again with the e-mail and password of a registration waiting for its code: 409, the code screen next',
  async (t) => {
    const first = await register('rosa@lonestar.test', 'rosa-ships');
    t.equal(first.statusCode, 201, first.body);
    t.equal((await codesTo('rosa@lonestar.test')).count, 1, 'the first code is e-mailed');
    const mails = (await mailsTo('rosa@lonestar.test')).length;
    const events = await watchEvents(platform.store);

    for (const [username, what] of [
      ['rosa-ships', 'the same form again'],
      ['Rosa-Ships-2', 'another username'],
    ] as const) {
      const again = await register(' Rosa@LoneStar.test', username);
      t.equal(again.statusCode, 409, `${what}: 409`);
      t.match(
        again.json(),
        {
          message: 'Registration already started, please enter the security code',
          code: 'registration_pending',
          errors: [{ path: 'email', code: 'registration_pending' }],
        },
        `${what}: says the registration already started`,
      );
    }
    t.equal(REGISTRATION_PENDING, 'Registration already started, please enter the security code');
    await events.expect(t, [], { message: 'nothing written' });
    t.equal((await mailsTo('rosa@lonestar.test')).length, mails, 'and nothing e-mailed');

    // Someone without the password learns nothing: the answers of anyone else.
    const takenUsername = await register('rosa@lonestar.test', 'rosa-ships', 'a-guessed-pass');
    const takenElsewhere = await register('someone@else.test', 'rosa-ships', PASSWORD);
    t.equal(takenUsername.statusCode, 409);
    t.same(
      takenUsername.json(),
      takenElsewhere.json(),
      "the username with another password answers 'Username already taken', as with any e-mail",
    );
    t.equal(takenUsername.json().message, 'Username already taken');
    const otherPassword = await register('rosa@lonestar.test', 'rosa-new', 'a-guessed-pass');
    t.equal(otherPassword.statusCode, 201, 'the e-mail with another password: 201 like a new one');
    t.match(otherPassword.json(), { userId: /^[0-9a-f-]{36}$/ });
    await events.expect(t, [], { message: 'still nothing written' });
    const [notice] = await mailsTo('rosa@lonestar.test');
    t.match(notice!.text, /registration has already started/i, 'the owner is told by e-mail');
    t.match(notice!.text, /Send the code again/, 'with the way to a new code');
    t.notMatch(notice!.text, /sign-up code is/, 'and no code in it');
  },
);

t.test(
  'POST confirm-signup/resend: a new code for a registration waiting for one; the same answer for any address',
  async (t) => {
    const started = await register('mia@lonestar.test', 'mia-ships');
    t.equal(started.statusCode, 201);
    const { userId } = started.json();
    const firstCode = (await codesTo('mia@lonestar.test')).latest!;
    const events = await watchEvents(platform.store);

    const answer = await resend(' MIA@lonestar.test ');
    t.equal(answer.statusCode, 200, answer.body);
    t.same(answer.json(), { message: SIGNUP_CODE_RESENT });
    t.equal(
      SIGNUP_CODE_RESENT,
      'If a registration with this address is waiting for its code, a new code has been sent to it.',
    );
    const [resent] = await events.expect(t, [
      {
        type: 'SignupCodeResent',
        stream: userStream(userId),
        data: { userId, confirmation: { codeHash: /^[0-9a-f]{64}$/ } },
        metadata: { userId },
      },
    ]);
    const { latest: newCode, count } = await codesTo('mia@lonestar.test');
    t.equal(count, 2, 'a second code is e-mailed');
    t.equal(
      (resent!.data as { confirmation: { codeHash: string } }).confirmation.codeHash,
      hashCode(newCode!),
      'the event keeps only the new code’s hash',
    );
    const expiresAt = Date.parse(
      (resent!.data as { confirmation: { expiresAt: string } }).confirmation.expiresAt,
    );
    t.ok(
      Math.abs(expiresAt - (Date.now() + 30 * 60_000)) < 60_000,
      'valid for 30 minutes from now',
    );

    if (firstCode !== newCode) {
      const old = await confirm('mia@lonestar.test', firstCode);
      t.equal(old.statusCode, 400, 'the earlier code stops working');
      t.equal(old.json().message, 'Invalid confirmation code');
    }
    const confirmed = await confirm('mia@lonestar.test', newCode!);
    t.equal(confirmed.statusCode, 200, confirmed.body);
    await events.expect(t, ['SignupConfirmed'], { message: 'the new code confirms' });

    const mails = (await platform.mailer.listOutbox(500)).length;
    for (const [email, what] of [
      ['mia@lonestar.test', 'a confirmed account'],
      ['nobody@lonestar.test', 'an unknown address'],
    ] as const) {
      const same = await resend(email);
      t.equal(same.statusCode, 200, `${what}: 200`);
      t.same(same.json(), answer.json(), `${what}: the same answer`);
    }
    await events.expect(t, [], { message: 'nothing written for them' });
    t.equal((await platform.mailer.listOutbox(500)).length, mails, 'nor e-mailed');

    const invalid = await resend('not an address');
    t.equal(invalid.statusCode, 400);
    t.match(invalid.json().errors, [
      { path: 'email', message: 'The Email you entered is not a valid format!' },
    ]);
    await events.expect(t, [], { message: 'the refused request appended' });
  },
);

t.test(
  'POST confirm-signup/resend: five a minute from one client, as forgot-password',
  async (t) => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++)
      statuses.push((await resend(`flood-${attempt}@lonestar.test`, '10.68.0.1')).statusCode);
    t.same(statuses, [200, 200, 200, 200, 200, 429]);
  },
);

t.test(
  'a code that expired says to register again; registering again with that e-mail then works',
  async (t) => {
    const late = await expiredRegistration('lee@lonestar.test', 'lee-ships');
    const expired = await confirm('lee@lonestar.test', '123456');
    t.equal(expired.statusCode, 410);
    t.equal(expired.json().message, 'Code expired, please register again');
    t.equal(expired.json().code, 'confirmation_code_expired');

    const events = await watchEvents(platform.store);
    const again = await register('lee@lonestar.test', 'lee-ships', 'a-new-password-1');
    t.equal(again.statusCode, 201, again.body);
    const { userId, organizationId } = again.json();
    t.not(userId, late.userId, 'a new user');
    await events.expect(
      t,
      [
        { type: 'SignupLapsed', stream: userStream(late.userId), data: { userId: late.userId } },
        {
          type: 'KeyReleased',
          stream: emailKeyStream('lee@lonestar.test'),
          data: { ownerId: late.userId },
        },
        {
          type: 'KeyReleased',
          stream: usernameKeyStream('lee-ships'),
          data: { ownerId: late.userId },
        },
        {
          type: 'OrganizationRegistrationLapsed',
          stream: organizationStream(late.organizationId),
          data: { organizationId: late.organizationId },
        },
        {
          type: 'KeyReserved',
          stream: emailKeyStream('lee@lonestar.test'),
          data: { ownerId: userId },
        },
        { type: 'KeyReserved', stream: usernameKeyStream('lee-ships'), data: { ownerId: userId } },
        {
          type: 'OrganizationRegistered',
          stream: organizationStream(organizationId),
          data: { organizationId, status: 1 },
        },
        {
          type: 'UserRegistered',
          stream: userStream(userId),
          data: { userId, email: 'lee@lonestar.test', username: 'lee-ships' },
        },
      ],
      { message: 'the lapsed registration gives way to the new one' },
    );

    const { db } = platform.database;
    t.same(
      await db
        .selectFrom('users_view')
        .select('id')
        .where('email', '=', 'lee@lonestar.test')
        .execute(),
      [{ id: userId }],
      'one user with the address: the new one',
    );
    t.same(
      await db
        .selectFrom('organizations_view')
        .select('id')
        .where('id', 'in', [late.organizationId, organizationId])
        .execute(),
      [{ id: organizationId }],
      'the lapsed organization is gone from the lists',
    );

    const old = await confirm('lee@lonestar.test', '123456');
    t.equal(old.statusCode, 400, 'the old code is refused as any wrong code');
    const code = (await codesTo('lee@lonestar.test')).latest!;
    const confirmed = await confirm('lee@lonestar.test', code);
    t.equal(confirmed.statusCode, 200, 'the new registration confirms with its code');
  },
);

t.test(
  "an expired registration's username is free for another e-mail; a new code still revives an expired one",
  async (t) => {
    const late = await expiredRegistration('sam@lonestar.test', 'sam-ships');
    const events = await watchEvents(platform.store);
    const taken = await register('ana@lonestar.test', 'sam-ships');
    t.equal(taken.statusCode, 201, taken.body);
    await events.expect(
      t,
      [
        'SignupLapsed',
        'KeyReleased',
        'KeyReleased',
        'OrganizationRegistrationLapsed',
        'KeyReserved',
        'KeyReserved',
        'OrganizationRegistered',
        'UserRegistered',
      ],
      { message: 'the username of a lapsed registration is taken by the new one' },
    );
    t.equal(await platform.identity.userIdByEmail('sam@lonestar.test'), null, 'its e-mail is free');
    t.equal(await platform.identity.loadUser(late.userId), null, 'the lapsed user is gone');

    const waiting = await expiredRegistration('kim@lonestar.test', 'kim-ships');
    await events.take();
    const answer = await resend('kim@lonestar.test');
    t.same(answer.json(), { message: SIGNUP_CODE_RESENT });
    await events.expect(t, [{ type: 'SignupCodeResent', stream: userStream(waiting.userId) }], {
      message: 'until a new registration takes its place, an expired one gets a new code',
    });
    const confirmed = await confirm(
      'kim@lonestar.test',
      (await codesTo('kim@lonestar.test')).latest!,
    );
    t.equal(confirmed.statusCode, 200, confirmed.body);
  },
);
