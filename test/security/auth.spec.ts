/**
 * Sign-in and sessions under attack: brute force per account and per address (X-Forwarded-For
 * does not reset it), the stored password hash, reset codes, forged access tokens, and refresh
 * token rotation. Figures: max failures a minute per account, 429 count, hash parameters and verify
 * time, reset timing difference, forged tokens accepted 0, residual access window after logout.
 */
import { createHmac, generateKeyPairSync, createSign } from 'node:crypto';
import t from 'tap';
import { verifyPassword } from '../../server/auth/passwords.ts';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../server/auth/tokens.ts';
import {
  bearer,
  member,
  organization,
  PASSWORD,
  superadmin,
} from '../../server/identity/fixtures.ts';
import { userStream } from '../../domain/users/user.ts';
import { startTestApp } from '../../server/testing/testApp.ts';

t.setTimeout(600_000);
const { app, platform, close } = await startTestApp();
t.teardown(close);

let addressCounter = 0;
/** A fresh client address per call: the per-address limits stay out of the way unless a test wants them. */
const freshAddress = () => {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};
const login = (
  email: string,
  password: string,
  remoteAddress = freshAddress(),
  headers: Record<string, string> = {},
) =>
  app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password },
    remoteAddress,
    headers,
  });
const profile = (token: string) =>
  app.inject({ method: 'GET', url: '/api/profile', headers: bearer(token) });
const refresh = (refreshToken: string) =>
  app.inject({
    method: 'POST',
    url: '/api/refresh-token',
    payload: { refreshToken },
    remoteAddress: freshAddress(),
  });
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('login brute force: per account, per address, X-Forwarded-For does not reset', async (t) => {
  const victim = await organization(app, platform, 'Carrier');
  // Per account: failures from many addresses.
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 30; attempt += 1)
    statuses.push((await login(victim.email, `wrong-${attempt}`)).statusCode);
  const counted = statuses.filter((status) => status === 401).length;
  const limited = statuses.filter((status) => status === 429).length;
  t.equal(counted, 10, '10 failures a minute are checked, whatever the address');
  t.equal(limited, 20);
  const right = await login(victim.email, PASSWORD);
  t.equal(right.statusCode, 429, 'the right password while limited is still 429');
  t.match(right.headers['retry-after'], /^\d+$/);
  t.ok(
    Number(right.headers['retry-after']) > 0 && Number(right.headers['retry-after']) <= 60,
    `Retry-After ${right.headers['retry-after']} s`,
  );
  t.equal(right.json().accessToken, undefined, 'no token');
  const upperCase = await login(victim.email.toUpperCase(), PASSWORD);
  t.equal(upperCase.statusCode, 429, 'the account key ignores case');

  // Per address: one client, many accounts, rotating X-Forwarded-For.
  const address = freshAddress();
  const perAddress: number[] = [];
  for (let attempt = 0; attempt < 25; attempt += 1) {
    perAddress.push(
      (
        await login(`nobody-${attempt}@example.com`, 'wrong', address, {
          'x-forwarded-for': `203.0.113.${attempt}`,
        })
      ).statusCode,
    );
  }
  t.equal(
    perAddress.filter((status) => status === 401).length,
    10,
    'X-Forwarded-For rotation: still 10 from the one address',
  );
  const other = await organization(app, platform, 'Shipper');
  const fromLimited = await login(other.email, PASSWORD, address, {
    'x-forwarded-for': '198.51.100.7',
  });
  t.equal(
    fromLimited.statusCode,
    429,
    'the limited address cannot sign in even with a right password',
  );
  t.ok(fromLimited.headers['retry-after']);
  t.equal(
    (await login(other.email, PASSWORD)).statusCode,
    200,
    'from another address the account is fine',
  );
  t.comment(
    `login brute force: failures checked per account per minute ${counted} (hourly cap 100), per address ${perAddress.filter((status) => status === 401).length}, 429 answers ${limited + perAddress.filter((status) => status === 429).length + 3}`,
  );
});

t.test('password hash: argon2id, m >= 19456, t >= 2; verify time', async (t) => {
  const user = await organization(app, platform, 'Shipper');
  const { events } = await platform.store.readStream<{
    type: string;
    data: Record<string, unknown>;
  }>(userStream(user.userId));
  const registered = events.find((event) => event.type === 'UserRegistered');
  const stored = String(registered?.data.passwordHash);
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.exec(
    stored,
  );
  t.ok(match, 'an argon2id PHC string');
  const [m, iterations, p] = match!.slice(1).map(Number);
  t.ok(m >= 19_456, `m=${m}`);
  t.ok(iterations >= 2, `t=${iterations}`);
  t.notOk(JSON.stringify(events).includes(PASSWORD), 'the plain password is in no event');
  const times: number[] = [];
  for (let sample = 0; sample < 15; sample += 1) {
    const started = performance.now();
    t.ok(
      (await verifyPassword(stored, sample % 2 ? PASSWORD : 'not-the-password')) ===
        Boolean(sample % 2),
    );
    times.push(performance.now() - started);
  }
  t.comment(
    `password hash: argon2id m=${m} t=${iterations} p=${p}, verify median ${median(times).toFixed(1)} ms`,
  );
});

t.test(
  'reset codes: single use, expiry, guessing limit, same answer and timing for unknown e-mails',
  async (t) => {
    const user = await organization(app, platform, 'Carrier');
    const session = (await login(user.email, PASSWORD)).json();
    const forgot = (email: string) =>
      app.inject({
        method: 'POST',
        url: '/api/users/forgot-password',
        payload: { email },
        remoteAddress: freshAddress(),
      });
    const reset = (code: string, newPassword: string, remoteAddress = freshAddress()) =>
      app.inject({
        method: 'POST',
        url: '/api/users/reset-password',
        payload: { code, newPassword },
        remoteAddress,
      });

    const known = await forgot(user.email);
    const unknown = await forgot(`ghost-${user.userId}@example.com`);
    t.equal(known.statusCode, 200);
    t.equal(unknown.statusCode, 200);
    t.equal(unknown.body, known.body, 'the same body for a known and an unknown address');

    const mails = (
      await app.inject({
        method: 'GET',
        url: '/api/admin/outbox',
        headers: bearer((await superadmin(app, platform)).token),
      })
    ).json() as { to: string; text: string }[];
    const mail = mails.find(
      (entry) =>
        JSON.stringify(entry).includes(user.email) &&
        /Reset code: ([0-9a-f]{64})/.test(JSON.stringify(entry)),
    );
    const code = /Reset code: ([0-9a-f]{64})/.exec(JSON.stringify(mail))![1];
    t.equal(code.length, 64, 'a 256-bit code');

    const done = await reset(code, 'brand-new-password-1');
    t.equal(done.statusCode, 200, done.body);
    t.equal((await reset(code, 'another-password-2')).statusCode, 400, 'single use');
    t.equal(
      (await refresh(session.refreshToken)).statusCode,
      401,
      'the reset revoked the sessions',
    );
    t.equal((await login(user.email, 'brand-new-password-1')).statusCode, 200);

    // An expired code: requested with an expiry already past.
    const expiredCode = 'e'.repeat(64);
    const { hashCode } = await import('../../server/auth/codes.ts');
    const now = new Date().toISOString();
    const { position } = await platform.identity.user(
      {
        type: 'RequestPasswordReset',
        data: {
          userId: user.userId,
          resetCodeHash: hashCode(expiredCode),
          expiresAt: new Date(Date.now() - 1000).toISOString(),
          now,
        },
      },
      null,
      now,
    );
    await platform.runner.waitFor(['users'], position);
    const expired = await reset(expiredCode, 'too-late-password-3');
    t.equal(expired.statusCode, 400, 'an expired code is refused');
    t.equal(
      (await login(user.email, 'too-late-password-3')).statusCode,
      401,
      'and the password did not change',
    );

    // Guessing: one address, wrong codes, until refused.
    const guesser = freshAddress();
    const guesses: number[] = [];
    for (let guess = 0; guess < 15; guess += 1)
      guesses.push(
        (await reset(guess.toString(16).padStart(64, '0'), 'guessed-password-4', guesser))
          .statusCode,
      );
    const tried = guesses.filter((status) => status === 400).length;
    t.ok(tried <= 10, `${tried} guesses a minute from one address, then 429`);
    t.ok(guesses.includes(429));

    // Timing: 200 samples each, interleaved.
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let sample = 0; sample < 200; sample += 1) {
      for (const [email, times] of [
        [user.email, knownTimes],
        [`ghost-${sample}@example.com`, unknownTimes],
      ] as const) {
        const started = performance.now();
        const answer = await forgot(email);
        times.push(performance.now() - started);
        if (answer.statusCode !== 200) t.fail(`forgot-password answered ${answer.statusCode}`);
      }
    }
    const delta = Math.abs(median(knownTimes) - median(unknownTimes));
    t.ok(
      delta < 10,
      `median known ${median(knownTimes).toFixed(2)} ms, unknown ${median(unknownTimes).toFixed(2)} ms`,
    );
    t.comment(
      `reset codes: TTL 30 min, 256-bit, single use, ${tried} guesses/min/address; timing Δ median ${delta.toFixed(2)} ms over 200 samples`,
    );
  },
);

const base64url = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const hs = (
  algorithm: 'sha256' | 'sha512',
  secret: string | Buffer,
  header: object,
  payload: object,
) => {
  const head = `${base64url(header)}.${base64url(payload)}`;
  return `${head}.${createHmac(algorithm, secret).update(head).digest('base64url')}`;
};

t.test('JWT forgery: every forged token is 401', async (t) => {
  const user = await organization(app, platform, 'Shipper');
  const otherOrganization = await organization(app, platform, 'Shipper');
  const session = (await login(user.email, PASSWORD)).json();
  const [, realPayload] = session.accessToken.split('.');
  const claims = JSON.parse(Buffer.from(realPayload, 'base64url').toString());
  const secret = platform.config.jwtSecret;
  const now = Math.floor(Date.now() / 1000);
  const good = { ...claims, iat: now, exp: now + 600 };
  const head = { alg: 'HS256', typ: 'JWT' };
  t.equal(
    (await profile(hs('sha256', secret, head, good))).statusCode,
    200,
    'control: a well-made token with the real secret passes',
  );

  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rs256 = (() => {
    const data = `${base64url({ alg: 'RS256', typ: 'JWT' })}.${base64url(good)}`;
    return `${data}.${createSign('RSA-SHA256').update(data).sign(privateKey).toString('base64url')}`;
  })();
  const tampered = (() => {
    const [header, , signature] = session.accessToken.split('.');
    return `${header}.${base64url({ ...claims, org: otherOrganization.organizationId })}.${signature}`;
  })();
  const forged: Record<string, string> = {
    'alg none': `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(good)}.`,
    'alg NONE, signature kept': `${base64url({ alg: 'NONE', typ: 'JWT' })}.${base64url(good)}.${session.accessToken.split('.')[2]}`,
    'bad signature': hs('sha256', 'x'.repeat(64), head, good),
    'HS512 with the real secret': hs('sha512', secret, { alg: 'HS512', typ: 'JWT' }, good),
    'RS256 with an attacker key': rs256,
    'HS256 signed with a public key (RS/HS confusion)': hs(
      'sha256',
      publicKey.export({ type: 'spki', format: 'pem' }),
      head,
      good,
    ),
    'kid pointing at an empty file': hs(
      'sha256',
      '',
      { ...head, kid: '../../../../dev/null' },
      good,
    ),
    expired: hs('sha256', secret, head, { ...good, iat: now - 1200, exp: now - 600 }),
    'exp now': hs('sha256', secret, head, { ...good, iat: now - 60, exp: now }),
    'future nbf': hs('sha256', secret, head, { ...good, nbf: now + 3600 }),
    'future iat': hs('sha256', secret, head, { ...good, iat: now + 3600, exp: now + 3600 + 600 }),
    'lifetime longer than 15 minutes': hs('sha256', secret, head, {
      ...good,
      exp: now + ACCESS_TOKEN_TTL_SECONDS * 4,
    }),
    'wrong aud': hs('sha256', secret, head, { ...good, aud: 'another-api' }),
    'wrong iss': hs('sha256', secret, head, { ...good, iss: 'someone-else' }),
    'no aud': hs('sha256', secret, head, { ...good, aud: undefined }),
    'refresh token as access': session.refreshToken,
    'typ refresh': hs('sha256', secret, head, { ...good, typ: 'refresh' }),
    'tampered org claim': tampered,
    'tampered role (Superadmin)': (() => {
      const [h, , s] = session.accessToken.split('.');
      return `${h}.${base64url({ ...claims, role: 1 })}.${s}`;
    })(),
    'unknown session id': hs('sha256', secret, head, {
      ...good,
      sid: '00000000-0000-4000-8000-000000000000',
    }),
    'missing sid': hs('sha256', secret, head, { ...good, sid: undefined }),
    'empty token': '',
    'two dots only': '..',
  };
  let accepted = 0;
  for (const [name, token] of Object.entries(forged)) {
    const response = await app.inject({
      method: 'GET',
      url: '/api/profile',
      headers: { authorization: `Bearer ${token}` },
    });
    if (response.statusCode !== 401) accepted += 1;
    t.equal(response.statusCode, 401, name);
  }
  for (const header of [
    `bearer ${session.accessToken}x`,
    `Basic ${Buffer.from(`${user.email}:${PASSWORD}`).toString('base64')}`,
    `Bearer ${session.accessToken} ${session.accessToken}`,
  ]) {
    const response = await app.inject({
      method: 'GET',
      url: '/api/profile',
      headers: { authorization: header },
    });
    if (response.statusCode !== 401) accepted += 1;
    t.equal(response.statusCode, 401, header.slice(0, 12));
  }
  t.equal(accepted, 0);
  t.comment(`JWT forgery: ${Object.keys(forged).length + 3} forged tokens, accepted ${accepted}`);
});

t.test(
  'refresh rotation: reuse revokes the family; parallel refreshes; logout; password change; block',
  async (t) => {
    const user = await organization(app, platform, 'Carrier');
    const first = (await login(user.email, PASSWORD)).json();
    const second = await refresh(first.refreshToken);
    t.equal(second.statusCode, 200);
    const reused = await refresh(first.refreshToken);
    t.equal(reused.statusCode, 401, 'an old refresh token is refused');
    t.equal(
      (await refresh(second.json().refreshToken)).statusCode,
      401,
      '...and the whole family with it',
    );

    const racing = (await login(user.email, PASSWORD)).json();
    const answers = await Promise.all([refresh(racing.refreshToken), refresh(racing.refreshToken)]);
    t.same(
      answers.map((answer) => answer.statusCode).sort(),
      [200, 401],
      'two parallel refreshes: one wins',
    );

    const loggedIn = (await login(user.email, PASSWORD)).json();
    t.equal((await profile(loggedIn.accessToken)).statusCode, 200);
    const loggedOutAt = performance.now();
    t.equal(
      (
        await app.inject({
          method: 'POST',
          url: '/api/logout',
          payload: { refreshToken: loggedIn.refreshToken },
        })
      ).statusCode,
      204,
    );
    t.equal((await refresh(loggedIn.refreshToken)).statusCode, 401, 'logout stops refresh at once');
    while (
      (await profile(loggedIn.accessToken)).statusCode === 200 &&
      performance.now() - loggedOutAt < 20_000
    )
      await sleep(100);
    const residual = (performance.now() - loggedOutAt) / 1000;
    t.equal(
      (await profile(loggedIn.accessToken)).statusCode,
      401,
      'and the access token within seconds',
    );
    t.ok(residual <= 6, `residual access window ${residual.toFixed(2)} s`);

    const other = (await login(user.email, PASSWORD)).json();
    const self = (await login(user.email, PASSWORD)).json();
    const me = (
      await app.inject({ method: 'GET', url: '/api/account', headers: bearer(self.accessToken) })
    ).json().user;
    const changed = await app.inject({
      method: 'PUT',
      url: '/api/users',
      headers: bearer(self.accessToken),
      payload: {
        name: me.name,
        email: me.email,
        username: me.username,
        phone: me.phone,
        oldPassword: PASSWORD,
        newPassword: 'changed-password-9',
      },
    });
    t.equal(changed.statusCode, 200, changed.body);
    t.equal(
      (await refresh(other.refreshToken)).statusCode,
      401,
      'a password change ends the other sessions',
    );

    const driver = await member(app, platform, user.organizationId!, 4);
    const driverSession = (await login(driver.email, PASSWORD)).json();
    const blocked = await app.inject({
      method: 'GET',
      url: `/api/users/block/${driver.userId}`,
      headers: bearer((await superadmin(app, platform)).token),
    });
    t.equal(blocked.statusCode, 200, blocked.body);
    t.equal(
      (await refresh(driverSession.refreshToken)).statusCode,
      401,
      'a blocked user cannot refresh',
    );
    t.equal((await profile(driverSession.accessToken)).statusCode, 401, 'nor use its access token');
    t.equal((await login(driver.email, PASSWORD)).statusCode, 401, 'nor sign in');
    t.comment(
      `refresh rotation: reuse revokes the family, parallel 1 winner, residual access window after logout ${residual.toFixed(2)} s (cache ${5} s, access TTL ${ACCESS_TOKEN_TTL_SECONDS / 60} min)`,
    );
  },
);
