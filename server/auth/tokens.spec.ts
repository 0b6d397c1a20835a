// @postgres: refresh-token rotation and reuse detection in SQL
import t from 'tap';
import { createHmac, randomUUID } from 'node:crypto';
import { UnauthorizedError } from '../../domain/shared/errors.ts';
import { openAuthTestDatabase, withAccessJwt } from './testing.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  createTokenService,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
} from './tokens.ts';

const secret = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const database = await openAuthTestDatabase();
t.teardown(() => database.drop());

let clock = Date.parse('2026-11-22T10:00:00Z');
const now = () => new Date(clock);
const service = await withAccessJwt(
  createTokenService({ db: database.db, secret, now }),
  t.teardown,
);
const newUser = () => ({ id: randomUUID(), organizationId: randomUUID(), roleId: 2 });

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A hand-made JWT, to forge what the service never signs. */
function forge(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  key = secret,
  hmac: 'sha256' | 'sha512' | null = 'sha256',
) {
  const input = `${b64(header)}.${b64(payload)}`;
  const signature = hmac ? createHmac(hmac, key).update(input).digest('base64url') : '';
  return `${input}.${signature}`;
}
const validClaims = (overrides: Record<string, unknown> = {}) => {
  const iat = Math.floor(clock / 1000);
  return {
    sub: randomUUID(),
    org: randomUUID(),
    role: 2,
    sid: randomUUID(),
    typ: 'access',
    iss: TOKEN_ISSUER,
    aud: TOKEN_AUDIENCE,
    iat,
    exp: iat + ACCESS_TOKEN_TTL_SECONDS,
    ...overrides,
  };
};

t.test(
  'issue gives an access token with the claims and a refresh token stored only as a hash',
  async (t) => {
    const user = newUser();
    const pair = await service.issue(user);
    const claims = service.verifyAccess(pair.accessToken);
    t.match(claims, {
      sub: user.id,
      org: user.organizationId,
      role: 2,
      typ: 'access',
      iss: TOKEN_ISSUER,
      aud: TOKEN_AUDIENCE,
    });
    t.equal(claims.exp - claims.iat, 900, '15 minutes, in seconds');
    t.match(pair.refreshToken, /^[A-Za-z0-9_-]{43}$/);
    const rows = await database.db
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    t.equal(rows.length, 1);
    t.not(rows[0].token_hash, pair.refreshToken);
    t.match(rows[0].token_hash, /^[0-9a-f]{64}$/);
    t.equal(rows[0].family_id, claims.sid);
    t.equal(new Date(rows[0].expires_at).getTime() - clock, 30 * 24 * 3600 * 1000, '30 days');
    t.equal(await service.isFamilyActive(claims.sid), true);
    t.same(await service.authenticate(pair.accessToken), claims);
  },
);

t.test('access tokens expire after 15 minutes', async (t) => {
  const pair = await service.issue(newUser());
  const start = clock;
  t.teardown(() => {
    clock = start;
  });
  clock = start + 899_000;
  t.ok(service.verifyAccess(pair.accessToken));
  clock = start + 900_000;
  t.throws(() => service.verifyAccess(pair.accessToken), UnauthorizedError);
});

// Signatures are verified once per token and key (the verdict is kept); the lifetime is not.
t.test(
  'a token verified before is still refused once it expires, and a copy with another signature is refused',
  async (t) => {
    const pair = await service.issue(newUser());
    const start = clock;
    t.teardown(() => {
      clock = start;
    });
    clock = start + 1_000;
    t.ok(await service.authenticate(pair.accessToken), 'verified');
    t.ok(await service.authenticate(pair.accessToken), 'verified again (from the kept verdict)');
    const [header, payload] = pair.accessToken.split('.');
    await t.rejects(
      service.authenticate(
        `${header}.${payload}.${createHmac('sha256', 'another-secret-that-is-long-enough-0123456789').update(`${header}.${payload}`).digest('base64url')}`,
      ),
      UnauthorizedError,
      'the same claims signed with another key',
    );
    clock = start + 900_000;
    await t.rejects(
      service.authenticate(pair.accessToken),
      UnauthorizedError,
      'expired, although verified before',
    );
  },
);

t.test('forged and misused access tokens are all refused', async (t) => {
  const pair = await service.issue(newUser());
  const [header, payload, signature] = pair.accessToken.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
  const cases: Record<string, string> = {
    'alg none': forge({ alg: 'none', typ: 'JWT' }, validClaims(), secret, null),
    'alg none with a signature': forge({ alg: 'none', typ: 'JWT' }, validClaims()),
    'HS512 with the right secret': forge(
      { alg: 'HS512', typ: 'JWT' },
      validClaims(),
      secret,
      'sha512',
    ),
    'RS256 header, HMAC signature (key confusion)': forge(
      { alg: 'RS256', typ: 'JWT' },
      validClaims(),
    ),
    'wrong secret': forge(
      { alg: 'HS256', typ: 'JWT' },
      validClaims(),
      'another-secret-that-is-long-enough-0123456789',
    ),
    expired: forge(
      { alg: 'HS256', typ: 'JWT' },
      validClaims({ iat: Math.floor(clock / 1000) - 1000, exp: Math.floor(clock / 1000) - 100 }),
    ),
    'future nbf': forge(
      { alg: 'HS256', typ: 'JWT' },
      validClaims({ nbf: Math.floor(clock / 1000) + 60 }),
    ),
    'wrong aud': forge({ alg: 'HS256', typ: 'JWT' }, validClaims({ aud: 'someone-else' })),
    'wrong iss': forge({ alg: 'HS256', typ: 'JWT' }, validClaims({ iss: 'someone-else' })),
    'no exp': forge({ alg: 'HS256', typ: 'JWT' }, validClaims({ exp: undefined })),
    'lifetime over 15 minutes': forge(
      { alg: 'HS256', typ: 'JWT' },
      validClaims({ exp: Math.floor(clock / 1000) + 3600 }),
    ),
    'typ refresh': forge({ alg: 'HS256', typ: 'JWT' }, validClaims({ typ: 'refresh' })),
    'no typ': forge({ alg: 'HS256', typ: 'JWT' }, validClaims({ typ: undefined })),
    'refresh token used as access': pair.refreshToken,
    'tampered org': `${header}.${b64({ ...claims, org: randomUUID() })}.${signature}`,
    'tampered role': `${header}.${b64({ ...claims, role: 1 })}.${signature}`,
    'signature stripped': `${header}.${payload}.`,
    empty: '',
    garbage: 'not.a.jwt',
  };
  t.ok(
    service.verifyAccess(forge({ alg: 'HS256', typ: 'JWT' }, validClaims())),
    'control: a well-formed HS256 token passes',
  );
  for (const [name, token] of Object.entries(cases)) {
    t.throws(() => service.verifyAccess(token), UnauthorizedError, name);
  }
});

t.test('refresh rotates within the family and the old token is single use', async (t) => {
  const user = newUser();
  const first = await service.issue(user);
  const sid = service.verifyAccess(first.accessToken).sid;
  const second = await service.refresh(first.refreshToken);
  t.not(second.refreshToken, first.refreshToken);
  t.equal(service.verifyAccess(second.accessToken).sid, sid, 'same family');
  t.equal(service.verifyAccess(second.accessToken).org, user.organizationId);
  const third = await service.refresh(second.refreshToken);
  t.ok(third.accessToken);

  // Replaying an already-used token revokes the family: the newest token dies too.
  await t.rejects(service.refresh(first.refreshToken), UnauthorizedError, 'reuse refused');
  await t.rejects(
    service.refresh(third.refreshToken),
    UnauthorizedError,
    'newest token of the family refused',
  );
  t.equal(await service.isFamilyActive(sid), false);
  await t.rejects(
    service.authenticate(third.accessToken),
    UnauthorizedError,
    'access token stopped with the family',
  );
  const rows = await database.db
    .selectFrom('refresh_tokens')
    .select(['revoked_at'])
    .where('family_id', '=', sid)
    .execute();
  t.equal(rows.length, 3);
  t.ok(rows.every((row) => row.revoked_at !== null));
});

t.test('parallel refreshes with one token: exactly one succeeds', async (t) => {
  for (const parallel of [2, 5]) {
    const pair = await service.issue(newUser());
    const results = await Promise.allSettled(
      Array.from({ length: parallel }, () => service.refresh(pair.refreshToken)),
    );
    const won = results.filter((result) => result.status === 'fulfilled');
    t.equal(won.length, 1, `${parallel} parallel: one winner`);
    t.ok(
      results
        .filter((result) => result.status === 'rejected')
        .every((result) => (result as PromiseRejectedResult).reason instanceof UnauthorizedError),
    );
    // The losers look like a replay, so the family is revoked: the winner's token stops as well.
    await t.rejects(
      service.refresh(
        (won[0] as PromiseFulfilledResult<{ refreshToken: string }>).value.refreshToken,
      ),
      UnauthorizedError,
    );
  }
});

t.test('unknown, malformed, expired and revoked refresh tokens are refused', async (t) => {
  await t.rejects(service.refresh('A'.repeat(43)), UnauthorizedError, 'unknown');
  await t.rejects(service.refresh('short'), UnauthorizedError, 'malformed');
  await t.rejects(service.refresh("' OR 1=1 --"), UnauthorizedError, 'injection-shaped');
  const pair = await service.issue(newUser());
  const start = clock;
  clock = start + 30 * 24 * 3600 * 1000 + 1;
  await t.rejects(service.refresh(pair.refreshToken), UnauthorizedError, 'expired after 30 days');
  clock = start;
  const pair2 = await service.issue(newUser());
  await database.db
    .updateTable('refresh_tokens')
    .set({ revoked_at: new Date(clock) })
    .where('family_id', '=', service.verifyAccess(pair2.accessToken).sid)
    .execute();
  await t.rejects(service.refresh(pair2.refreshToken), UnauthorizedError, 'revoked');
});

t.test('logout stops refresh at once and access tokens within 5 seconds everywhere', async (t) => {
  const pair = await service.issue(newUser());
  const sid = service.verifyAccess(pair.accessToken).sid;
  // Another server process whose cache already holds the family as active.
  const other = await withAccessJwt(
    createTokenService({ db: database.db, secret, now }),
    t.teardown,
  );
  t.ok(await other.authenticate(pair.accessToken));

  t.equal(await service.revokeFamilyOf(pair.refreshToken), true);
  t.equal(await service.revokeFamilyOf('B'.repeat(43)), false, 'unknown token: nothing to do');
  await t.rejects(service.refresh(pair.refreshToken), UnauthorizedError, 'refresh refused at once');
  await t.rejects(
    service.authenticate(pair.accessToken),
    UnauthorizedError,
    'same process: access refused at once',
  );
  t.ok(service.verifyAccess(pair.accessToken), 'the signature alone is still valid');

  const start = clock;
  t.teardown(() => {
    clock = start;
  });
  t.ok(await other.authenticate(pair.accessToken), 'other process: still cached');
  clock = start + 5_001;
  await t.rejects(
    other.authenticate(pair.accessToken),
    UnauthorizedError,
    'other process: refused after the cache window',
  );
  t.equal(await other.isFamilyActive(sid), false);
  t.equal(await other.isFamilyActive('not-a-uuid'), false);
});

t.test('revokeAllForUser ends every session of the user', async (t) => {
  const user = newUser();
  const a = await service.issue(user);
  const b = await service.issue(user);
  const bystander = await service.issue(newUser());
  t.equal(await service.revokeAllForUser(user.id), 2);
  await t.rejects(service.refresh(a.refreshToken), UnauthorizedError);
  await t.rejects(service.refresh(b.refreshToken), UnauthorizedError);
  await t.rejects(service.authenticate(a.accessToken), UnauthorizedError);
  t.ok(await service.refresh(bystander.refreshToken), 'other users keep their sessions');
});

t.test('isUserAllowed: blocked users and sessions before a reset are refused', async (t) => {
  const user = newUser();
  const blocked = await service.issue(user);
  await t.rejects(
    service.refresh(blocked.refreshToken, async () => ({ allowed: false })),
    UnauthorizedError,
    'blocked',
  );
  await t.rejects(
    service.refresh(blocked.refreshToken, async () => ({ allowed: true })),
    UnauthorizedError,
    'the family was revoked',
  );

  const start = clock;
  t.teardown(() => {
    clock = start;
  });
  const session = await service.issue(user);
  clock = start + 60_000;
  const rotated = await service.refresh(session.refreshToken, async () => ({
    allowed: true,
    sessionsRevokedAt: new Date(start - 1000).toISOString(),
  }));
  t.ok(rotated, 'a reset before the sign-in does not matter');
  const resetAt = new Date(start + 30_000).toISOString();
  await t.rejects(
    service.refresh(rotated.refreshToken, async () => ({
      allowed: true,
      sessionsRevokedAt: resetAt,
    })),
    UnauthorizedError,
    'a session begun before the reset is refused, even through a token rotated after it',
  );

  const fresh = await service.issue(user);
  const promoted = await service.refresh(fresh.refreshToken, async () => ({
    allowed: true,
    sessionsRevokedAt: resetAt,
    roleId: 3,
    organizationId: null,
  }));
  t.match(
    service.verifyAccess(promoted.accessToken),
    { role: 3, org: null },
    'current role and organization go into the new token',
  );

  const withDefault = await withAccessJwt(
    createTokenService({
      db: database.db,
      secret,
      now,
      isUserAllowed: async () => ({ allowed: false }),
    }),
    t.teardown,
  );
  const other = await withDefault.issue(newUser());
  await t.rejects(
    withDefault.refresh(other.refreshToken),
    UnauthorizedError,
    'the service-wide callback applies',
  );
});

t.test('a short secret is refused, and expired rows can be purged', async (t) => {
  t.throws(() => createTokenService({ db: database.db, secret: 'short' }));
  const start = clock;
  t.teardown(() => {
    clock = start;
  });
  clock = start + 31 * 24 * 3600 * 1000;
  t.ok((await service.deleteExpired()) > 0);
  t.equal(await service.deleteExpired(), 0);
});

t.test(
  'access tokens are made by @fastify/jwt with the pinned options; a service without it issues none',
  async (t) => {
    const unbound = createTokenService({ db: database.db, secret, now });
    await t.rejects(
      unbound.issue(newUser()),
      /@fastify\/jwt/,
      'no signer before the app binds one',
    );
    t.throws(
      () => unbound.verifyAccess(forge({ alg: 'HS256', typ: 'JWT' }, validClaims())),
      UnauthorizedError,
      'nor any verification',
    );
    t.same(unbound.jwtOptions.verify?.algorithms, ['HS256']);
    t.match(unbound.jwtOptions.sign, {
      algorithm: 'HS256',
      iss: TOKEN_ISSUER,
      aud: TOKEN_AUDIENCE,
    });

    const bound = await withAccessJwt(
      createTokenService({ db: database.db, secret, now }),
      t.teardown,
    );
    const pair = await bound.issue(newUser());
    t.same(JSON.parse(Buffer.from(pair.accessToken.split('.')[0], 'base64url').toString()), {
      alg: 'HS256',
      typ: 'JWT',
    });
    t.ok(service.verifyAccess(pair.accessToken), 'another service on the same secret accepts it');
  },
);
