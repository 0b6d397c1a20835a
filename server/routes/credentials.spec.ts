/**
 * A stolen access token must not become a takeover: changing one's own password or e-mail needs the
 * current password, on PUT users/{ownId} as on PUT users; an administrator setting another user's
 * does not. A change ends the user's other sessions (refresh, access tokens and sockets) while the
 * caller's own goes on, and the old address is told by e-mail.
 */
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import { emailKeyStream } from '../../domain/uniqueKeys/uniqueKey.ts';
import { userStream } from '../../domain/users/user.ts';
import { bearer, member, organization, PASSWORD, superadmin } from '../identity/fixtures.ts';
import { closedByServer, listen, login, sleep, startListeningApp } from '../realtime/testing.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
const { app, platform, baseUrl, http, sockets } = await startListeningApp(t);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper', { name: 'Credential Foods' });

const as = requester(app);
const signInStatus = async (email: string, password: string) =>
  (await as(null).post('/api/login', { email, password })).status;
/** The notices of changes sent to an address (not the notices of sign-ins from a new device). */
const outboxTo = async (to: string) =>
  (await as(admin).get('/api/admin/outbox')).body.filter(
    (mail: { to: string; subject: string }) =>
      mail.to === to && !mail.subject.startsWith('New sign-in'),
  ) as { subject: string; text: string }[];

async function listenAs(name: string, token: string) {
  const listener = await listen(baseUrl, name, token);
  sockets.push(listener);
  return listener;
}

/** A shipper user (USER_UPDATE and ACCOUNT_EDIT_USER_PROFILE) with two sessions: the caller's and another device's. */
async function userWithTwoSessions(name: string) {
  const user = await member(app, platform, shipper.organizationId!, Role.Shipper, { name });
  const caller = await login(http, user.email);
  const other = await login(http, user.email);
  return { user, caller, other };
}

const details = (user: { email: string }, extra: object = {}) => ({
  email: user.email,
  name: 'Kept Name',
  phone: '555-555-0170',
  ...extra,
});

t.test(
  'PUT users/{ownId}: a new password or e-mail needs the current password; nothing changes without it',
  async (t) => {
    const { user, caller } = await userWithTwoSessions('Olga Own');
    const url = `/api/users/${user.userId}`;
    const events = await watchEvents(platform.store);

    const noOld = await as(caller.accessToken).put(
      url,
      details(user, { newPassword: 'taken-over-1' }),
    );
    t.equal(noOld.status, 400);
    t.same(noOld.body.errors, [
      {
        path: 'oldPassword',
        message: 'Please enter your current password',
        code: 'old_password_required',
      },
    ]);
    t.equal(noOld.body.message, 'Please enter your current password');
    const wrong = await as(caller.accessToken).put(
      url,
      details(user, { newPassword: 'taken-over-1', oldPassword: 'not-my-password' }),
    );
    t.equal(wrong.status, 400);
    t.same(wrong.body.errors, [
      { path: 'oldPassword', message: 'Current password is incorrect', code: 'old_password_wrong' },
    ]);
    const emailNoOld = await as(caller.accessToken).put(
      url,
      details(user, { email: 'thief@example.com' }),
    );
    t.equal(emailNoOld.status, 400);
    t.equal(emailNoOld.body.errors[0].path, 'oldPassword');
    const emailWrong = await as(caller.accessToken).put(
      url,
      details(user, { email: 'thief@example.com', oldPassword: 'not-my-password' }),
    );
    t.equal(emailWrong.body.message, 'Current password is incorrect');
    await events.expect(t, [], { message: 'the refused changes appended' });

    t.equal(await signInStatus(user.email, PASSWORD), 200, 'the password did not change');
    t.equal(await signInStatus(user.email, 'taken-over-1'), 401);
    t.equal(
      await platform.identity.userIdByEmail('thief@example.com'),
      null,
      'the e-mail did not change',
    );
    t.same(await outboxTo(user.email), [], 'and nobody was told of a change');

    const named = await as(caller.accessToken).put(url, details(user, { name: 'Olga Renamed' }));
    t.equal(named.status, 200, 'a name or phone alone needs no password');
    await events.expect(t, [
      {
        type: 'UserUpdated',
        stream: userStream(user.userId),
        data: { userId: user.userId, email: user.email, name: 'Olga Renamed' },
      },
    ]);
    t.equal((await platform.identity.loadUser(user.userId))?.name, 'Olga Renamed');
  },
);

t.test(
  'PUT users/{ownId} with the current password: the other sessions and sockets end, this one stays, the old address is told',
  async (t) => {
    const { user, caller, other } = await userWithTwoSessions('Paula Pass');
    const callerSocket = await listenAs('caller', caller.accessToken);
    const otherSocket = await listenAs('other device', other.accessToken);
    const otherClosed = closedByServer(otherSocket.socket);
    const events = await watchEvents(platform.store);

    const changed = await as(caller.accessToken).put(
      `/api/users/${user.userId}`,
      details(user, { oldPassword: PASSWORD, newPassword: 'fresh-password-2' }),
    );
    t.equal(changed.status, 200, changed.text);
    t.same(changed.body, { id: user.userId, message: 'User successfully updated' });
    await events.expect(t, [
      { type: 'UserUpdated', stream: userStream(user.userId), data: { name: 'Kept Name' } },
      {
        type: 'PasswordChanged',
        stream: userStream(user.userId),
        data: { userId: user.userId },
        metadata: { userId: user.userId },
      },
    ]);

    t.equal(
      (await as(null).post('/api/refresh-token', { refreshToken: other.refreshToken })).status,
      401,
      "the other session's refresh token is refused",
    );
    t.equal(
      (await as(other.accessToken).get('/api/profile')).status,
      401,
      'and so is its access token',
    );
    t.equal(
      (await otherClosed).reason,
      'io server disconnect',
      "the other session's socket is closed",
    );
    t.equal(
      (await as(caller.accessToken).get('/api/profile')).status,
      200,
      "the caller's access token still works",
    );
    const renewed = await as(null).post('/api/refresh-token', {
      refreshToken: caller.refreshToken,
    });
    t.equal(renewed.status, 200, "and its session refreshes after the password change's cutoff");
    await sleep(700);
    t.ok(callerSocket.socket.connected, "the caller's socket stays open");

    t.equal(await signInStatus(user.email, 'fresh-password-2'), 200, 'the new password signs in');
    t.equal(await signInStatus(user.email, PASSWORD), 401, 'the old one no longer does');
    const [notice] = await outboxTo(user.email);
    t.equal(notice?.subject, 'Your Freight Marketplace password was changed');
    t.match(notice?.text, /You changed the password of your Freight Marketplace account/);
    t.match(notice?.text, /everywhere else you have been signed out/);
    t.match(notice?.text, /If this was not you/);
  },
);

t.test(
  'PUT users on the own account: an e-mail change needs the current password; the old address is told',
  async (t) => {
    const { user, caller, other } = await userWithTwoSessions('Emil Email');
    const body = {
      email: `emil-new-${Date.now()}@example.com`,
      username: user.username,
      name: 'Emil Email',
      phone: '555-555-0171',
    };

    const events = await watchEvents(platform.store);

    const noOld = await as(caller.accessToken).put('/api/users', body);
    t.equal(noOld.status, 400);
    t.same(noOld.body.errors, [
      {
        path: 'oldPassword',
        message: 'Please enter your current password',
        code: 'old_password_required',
      },
    ]);
    const wrong = await as(caller.accessToken).put('/api/users', {
      ...body,
      oldPassword: 'not-my-password',
    });
    t.same(wrong.body.errors, [
      { path: 'oldPassword', message: 'Current password is incorrect', code: 'old_password_wrong' },
    ]);
    await events.expect(t, [], { message: 'the refused changes appended' });
    t.equal(await platform.identity.userIdByEmail(body.email), null, 'nothing changed');

    const changed = await as(caller.accessToken).put('/api/users', {
      ...body,
      oldPassword: PASSWORD,
    });
    t.equal(changed.status, 200, changed.text);
    await events.expect(t, [
      { type: 'KeyReserved', stream: emailKeyStream(body.email), data: { ownerId: user.userId } },
      { type: 'KeyReleased', stream: emailKeyStream(user.email), data: { ownerId: user.userId } },
      {
        type: 'UserUpdated',
        stream: userStream(user.userId),
        data: { userId: user.userId, email: body.email, phone: '555-555-0171' },
      },
    ]);
    t.equal(await platform.identity.userIdByEmail(body.email), user.userId);
    t.equal(
      (await as(null).post('/api/refresh-token', { refreshToken: other.refreshToken })).status,
      401,
      'an e-mail change ends the other sessions too',
    );
    t.equal((await as(caller.accessToken).get('/api/profile')).status, 200, 'not this one');
    t.equal(
      (await as(null).post('/api/refresh-token', { refreshToken: caller.refreshToken })).status,
      200,
    );

    const [notice] = await outboxTo(user.email);
    t.equal(
      notice?.subject,
      'Your Freight Marketplace e-mail address was changed',
      'the message goes to the old address',
    );
    t.match(
      notice?.text,
      new RegExp(`From now on we write to ${body.email.replace(/[.]/g, '\\.')}`),
    );
    t.same(await outboxTo(body.email), [], 'not to the new one');
  },
);

t.test(
  "an administrator sets another user's password or e-mail without the user's password; all of that user's sessions end",
  async (t) => {
    const { user, caller, other } = await userWithTwoSessions('Ned Nobody');
    const socket = await listenAs('managed user', caller.accessToken);
    const closed = closedByServer(socket.socket);
    const newEmail = `ned-${Date.now()}@example.com`;
    const events = await watchEvents(platform.store);

    const byAdmin = await as(admin).put(`/api/users/${user.userId}`, {
      email: newEmail,
      name: 'Ned Nobody',
      phone: '555-555-0172',
      newPassword: 'set-by-admin-3',
    });
    t.equal(byAdmin.status, 200, byAdmin.text);
    await events.expect(t, [
      { type: 'KeyReserved', stream: emailKeyStream(newEmail), data: { ownerId: user.userId } },
      { type: 'KeyReleased', stream: emailKeyStream(user.email), data: { ownerId: user.userId } },
      {
        type: 'UserUpdated',
        stream: userStream(user.userId),
        data: { userId: user.userId, email: newEmail },
        metadata: { userId: admin.userId },
      },
      {
        type: 'PasswordChanged',
        stream: userStream(user.userId),
        data: { userId: user.userId },
        metadata: { userId: admin.userId },
      },
    ]);
    for (const [label, session] of [
      ['first', caller],
      ['second', other],
    ] as const) {
      t.equal(
        (await as(null).post('/api/refresh-token', { refreshToken: session.refreshToken })).status,
        401,
        `the user's ${label} session ends`,
      );
      t.equal((await as(session.accessToken).get('/api/profile')).status, 401);
    }
    t.equal((await closed).reason, 'io server disconnect', "the user's socket is closed");
    t.equal(
      (await as(admin).get('/api/profile')).status,
      200,
      "the administrator's own session is untouched",
    );
    t.equal(await signInStatus(newEmail, 'set-by-admin-3'), 200);
    const [notice] = await outboxTo(user.email);
    t.equal(notice?.subject, 'Your Freight Marketplace e-mail address and password were changed');
    t.match(notice?.text, /An administrator changed the e-mail address and password/);
    t.match(notice?.text, /You have been signed out everywhere/);

    // An organization's user manager (a Shipper with USER_UPDATE) sets a colleague's password the same way.
    const colleague = await member(app, platform, shipper.organizationId!, Role.Shipper);
    await events.take();
    const byManager = await as(shipper).put(`/api/users/${colleague.userId}`, {
      email: colleague.email,
      name: 'Col League',
      phone: '555-555-0173',
      newPassword: 'set-by-manager-4',
    });
    t.equal(byManager.status, 200, byManager.text);
    await events.expect(t, [
      {
        type: 'UserUpdated',
        stream: userStream(colleague.userId),
        data: { userId: colleague.userId, name: 'Col League' },
        metadata: { userId: shipper.userId },
      },
      {
        type: 'PasswordChanged',
        stream: userStream(colleague.userId),
        metadata: { userId: shipper.userId },
      },
    ]);
    t.equal(await signInStatus(colleague.email, 'set-by-manager-4'), 200);
  },
);

t.test(
  'a Superadmin editing itself through PUT users/{id} needs its current password too',
  async (t) => {
    const self = await superadmin(app, platform, 'Self Admin');
    const url = `/api/users/${self.userId}`;
    const events = await watchEvents(platform.store);
    const noOld = await as(self).put(url, {
      email: self.email,
      name: 'Self Admin',
      phone: '555-555-0174',
      newPassword: 'admin-new-pass-5',
    });
    t.equal(noOld.status, 400);
    t.equal(noOld.body.message, 'Please enter your current password');
    await events.expect(t, [], { message: 'the refused change appended' });
    const ok = await as(self).put(url, {
      email: self.email,
      name: 'Self Admin',
      phone: '555-555-0174',
      newPassword: 'admin-new-pass-5',
      oldPassword: PASSWORD,
    });
    t.equal(ok.status, 200, ok.text);
    await events.expect(t, [
      { type: 'UserUpdated', stream: userStream(self.userId), data: { phone: '555-555-0174' } },
      { type: 'PasswordChanged', stream: userStream(self.userId), data: { userId: self.userId } },
    ]);
    t.equal((await as(self).get('/api/profile')).status, 200, 'it stays signed in');
    t.equal(await signInStatus(self.email, 'admin-new-pass-5'), 200);
  },
);

/**
 * The current-password check is a password guess like a sign-in: it counts against sign-in's limits
 * (10 failures a minute per account and per address), a wrong one is a failed sign-in of that account,
 * and while limited even the right password answers 429 with Retry-After, in the sign-in's words.
 */
t.test(
  'a wrong current password counts as a failed sign-in: after 10, 429 with Retry-After, even for the right one',
  async (t) => {
    for (const [route, urlOf] of [
      ['PUT users', () => '/api/users'],
      ['PUT users/{ownId}', (id: string) => `/api/users/${id}`],
    ] as const) {
      const { user, caller, other } = await userWithTwoSessions(`Gina Guess ${route}`);
      const address = route === 'PUT users' ? '10.77.0.1' : '10.77.0.2';
      const body = (oldPassword: string) => ({
        email: user.email,
        username: user.username,
        name: 'Gina Guess',
        phone: '555-555-0175',
        oldPassword,
        newPassword: 'taken-over-9',
      });
      // The limit counts per client address: app.inject sets the socket's address, the shared helper cannot.
      const guess = (oldPassword: string) =>
        app.inject({
          method: 'PUT',
          url: urlOf(user.userId),
          headers: bearer(caller.accessToken),
          payload: body(oldPassword),
          remoteAddress: address,
        });

      const hashBefore = (await platform.identity.loadUser(user.userId))!.passwordHash;
      const events = await watchEvents(platform.store);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await guess(`wrong-guess-${i}`)).statusCode);
      t.same(
        statuses,
        [...Array(10).fill(400), 429, 429],
        `${route}: ten wrong guesses answer 400, then 429`,
      );
      const right = await guess(PASSWORD);
      t.equal(right.statusCode, 429, `${route}: while limited, even the right current password`);
      t.ok(Number(right.headers['retry-after']) > 0, `${route}: with Retry-After`);
      const seconds = right.headers['retry-after'];
      t.same(
        right.json(),
        {
          statusCode: 429,
          error: 'Too Many Requests',
          message: `Too many failed sign-ins. Try again in ${seconds} seconds.`,
          code: 'too_many_requests',
        },
        `${route}: the sign-in's 429`,
      );
      await events.expect(t, [], { message: `${route}: the refused and limited guesses appended` });

      t.equal(
        (await as(null).post('/api/refresh-token', { refreshToken: other.refreshToken })).status,
        200,
        `${route}: nothing changed: the other session goes on`,
      );
      t.equal(
        (await platform.identity.loadUser(user.userId))!.passwordHash,
        hashBefore,
        `${route}: the password did not change`,
      );
      // From another client address than the guesses: app.inject sets it.
      const signIn = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: user.username, password: PASSWORD },
        remoteAddress: '10.77.1.1',
      });
      t.equal(
        signIn.statusCode,
        429,
        `${route}: the account's sign-in is limited too, by username as by e-mail, from any address`,
      );
      t.same(
        Object.keys(signIn.json()).sort(),
        Object.keys(right.json()).sort(),
        `${route}: the same answer's shape as sign-in's`,
      );
      platform.loginLimiter.succeed([user.email, user.username]);
    }
  },
);

t.test(
  "failed sign-ins from the caller's address limit the current-password check, and the right password clears the account's count",
  async (t) => {
    const { user, caller } = await userWithTwoSessions('Ada Address');
    const address = '10.77.2.1';
    const events = await watchEvents(platform.store);
    // Every request here names its client address (the limit counts per address): app.inject sets
    // the socket's address, the shared helper cannot.
    for (let i = 0; i < 10; i++) {
      await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: `nobody-${i}@example.com`, password: 'whatever-1' },
        remoteAddress: address,
      });
    }
    const payload = {
      email: user.email,
      username: user.username,
      name: 'Ada Address',
      phone: '555-555-0176',
      oldPassword: PASSWORD,
      newPassword: 'fresh-password-7',
    };
    const limited = await app.inject({
      method: 'PUT',
      url: '/api/users',
      headers: bearer(caller.accessToken),
      payload,
      remoteAddress: address,
    });
    t.equal(limited.statusCode, 429, 'the address is limited: the check is not even tried');
    t.ok(Number(limited.headers['retry-after']) > 0);

    for (let i = 0; i < 9; i++) {
      await app.inject({
        method: 'PUT',
        url: '/api/users',
        headers: bearer(caller.accessToken),
        payload: { ...payload, oldPassword: `wrong-guess-${i}` },
        remoteAddress: '10.77.2.2',
      });
    }
    await events.expect(t, [], { message: 'the failed sign-ins and refused checks appended' });
    const changed = await app.inject({
      method: 'PUT',
      url: '/api/users',
      headers: bearer(caller.accessToken),
      payload,
      remoteAddress: '10.77.2.3',
    });
    t.equal(changed.statusCode, 200, 'nine wrong guesses: the right one still works');
    await events.expect(t, [
      { type: 'UserUpdated', stream: userStream(user.userId), data: { phone: '555-555-0176' } },
      { type: 'PasswordChanged', stream: userStream(user.userId), data: { userId: user.userId } },
    ]);
    t.equal(
      await signInStatus(user.email, 'fresh-password-7'),
      200,
      "and it cleared the account's failures",
    );
  },
);
