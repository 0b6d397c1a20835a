import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyJWTOptions, JWT, TokenOrHeader } from '@fastify/jwt';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { UnauthorizedError } from '../../domain/shared/errors.ts';
import type { DB } from '../../storage/schema.ts';
import type { RefreshTokensTable } from '../../storage/serverTables.ts';
import { staticJwtKeys, type JwtKeys } from '../cluster/clusterSecrets.ts';

export const TOKEN_ISSUER = 'freight-marketplace';
export const TOKEN_AUDIENCE = 'freight-marketplace-api';
/** Seconds. The signer is given iat and exp, computed here from the injected clock, never `expiresIn`. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
/** How long `isFamilyActive` trusts its cache: a logout stops access tokens within this many ms. */
export const FAMILY_CACHE_MS = 5_000;
const FAMILY_CACHE_MAX = 10_000;

export type AccessClaims = {
  sub: string;
  org: string | null;
  role: number;
  /** The refresh family (one sign-in); logout revokes it. */
  sid: string;
  typ: 'access';
  iss: string;
  aud: string;
  iat: number;
  exp: number;
};
/** What an access token is signed with: the claims but those the signer adds (iss, aud). */
export type AccessPayload = Omit<AccessClaims, 'iss' | 'aud'>;

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessPayload;
    user: AccessClaims;
  }
}

/** The @fastify/jwt decorator the service signs and verifies with: `app.jwt` once registered. */
export type AccessJwt = Pick<JWT, 'sign' | 'verify'>;
const REQUIRED_CLAIMS = ['sub', 'sid', 'typ', 'role', 'iat', 'exp', 'iss', 'aud'];

/**
 * The options @fastify/jwt is registered with. The algorithm is pinned both ways (HS256 only: no
 * `none`, no HS512, no RS/HS confusion), and so are the issuer, the audience and the claims a token
 * must carry. The token's lifetime is checked by the token service (`checkClaims`), not here.
 */
export function accessJwtOptions(secret: string | JwtKeys): FastifyJWTOptions {
  return {
    // Keys by `kid` (server/cluster/clusterSecrets.ts): @fastify/jwt hands the decoded header to this
    // function and verifies with the key it answers; a `kid` not known yet reads the keys again once.
    secret:
      typeof secret === 'string'
        ? secret
        : async (_request: FastifyRequest, token: TokenOrHeader) => {
            const header = 'header' in token ? token.header : token;
            const kid = typeof header.kid === 'string' ? header.kid : undefined;
            let key = secret.verifying(kid);
            if (key === null && kid !== undefined) {
              await secret.refresh();
              key = secret.verifying(kid);
            }
            if (key === null) throw refused();
            return key;
          },
    // The secret function reads the header (`kid`).
    decode: { complete: true },
    sign: { algorithm: 'HS256', iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE },
    verify: {
      algorithms: ['HS256'],
      allowedIss: TOKEN_ISSUER,
      allowedAud: TOKEN_AUDIENCE,
      requiredClaims: REQUIRED_CLAIMS,
      // The lifetime (exp, nbf, and exp - iat within the TTL) is checked by `checkClaims` on the product's
      // clock, so that verification takes no per-call options: @fastify/jwt then keeps one verifier
      // per key instead of building one for every request.
      ignoreExpiration: true,
      ignoreNotBefore: true,
      // A token's signature under one key is checked once: later requests carrying the same token find
      // the verdict (kept per key, for at most ten minutes, the last VERIFIED_TOKENS_CACHED tokens)
      // instead of computing the HMAC again (fast-jwt keys the cache by the token's SHA-256). The key is
      // still looked up by `kid` on every request, so a retired key refuses at once, and `checkClaims`
      // still checks the lifetime every time.
      cache: VERIFIED_TOKENS_CACHED,
      cacheTTL: 600_000,
    },
  };
}

/** Verified access tokens whose verdict is kept, per signing key. */
const VERIFIED_TOKENS_CACHED = 5000;

export type SessionUser = { id: string; organizationId: string | null; roleId: number };
export type TokenPair = { accessToken: string; refreshToken: string; expiresIn: number };
export type UserAllowance = {
  allowed: boolean;
  /** Sessions begun before this instant (a password reset, say) are refused. */
  sessionsRevokedAt?: string | Date | null;
  /** The user's current organization and role, when they changed since sign-in. */
  organizationId?: string | null;
  roleId?: number;
};
export type IsUserAllowed = (userId: string) => Promise<UserAllowance>;

export type TokenService = ReturnType<typeof createTokenService>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** 32 random bytes in base64url, unpadded. */
const REFRESH_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
// One message for every refusal, so an answer does not tell an attacker which check failed.
const refused = () => new UnauthorizedError('Your session has expired. Please sign in again.');

export function createTokenService(options: {
  db: Kysely<DB>;
  /** One HS256 key for every token (JWT_SECRET, tests); or `keys`. */
  secret?: string;
  /** The cluster's signing keys by `kid` (server/cluster/clusterSecrets.ts): the newest signs, retired ones verify a while. */
  keys?: JwtKeys;
  now?: () => Date;
  /** Consulted on every refresh unless the call passes its own. */
  isUserAllowed?: IsUserAllowed;
  /** How long an access token lives, in seconds (ACCESS_TOKEN_TTL_SECONDS by default). */
  accessTokenTtlSeconds?: number;
  /** The @fastify/jwt decorator registered with `accessJwtOptions`; or bound later with `useJwt`. */
  jwt?: AccessJwt;
}) {
  // HS256 wants a key of at least 256 bits; a short one can be brute-forced offline from any token.
  const keys = options.keys ?? staticJwtKeys(options.secret ?? '');
  if (keys.signing().secret.length < 32)
    throw new Error('The JWT secret must be at least 32 characters long');
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const accessTtl = options.accessTokenTtlSeconds ?? ACCESS_TOKEN_TTL_SECONDS;
  const jwtOptions = accessJwtOptions(options.keys ?? keys.signing().secret);
  let bound: AccessJwt | null = options.jwt ?? null;
  const jwt = (): AccessJwt => {
    if (!bound)
      throw new Error(
        'Access tokens need @fastify/jwt: register it with `tokens.jwtOptions` and pass `app.jwt` to `tokens.useJwt`',
      );
    return bound;
  };
  const familyCache = new Map<string, { active: boolean; until: number }>();

  function cacheFamily(familyId: string, active: boolean) {
    familyCache.delete(familyId);
    familyCache.set(familyId, { active, until: now().getTime() + FAMILY_CACHE_MS });
    // Insertion order is age order: drop the oldest to stay bounded.
    while (familyCache.size > FAMILY_CACHE_MAX)
      familyCache.delete(familyCache.keys().next().value!);
  }

  function accessToken(user: SessionUser, familyId: string): string {
    const iat = Math.floor(now().getTime() / 1000);
    const payload = {
      sub: user.id,
      org: user.organizationId,
      role: user.roleId,
      sid: familyId,
      typ: 'access' as const,
      iat,
      exp: iat + accessTtl,
    };
    if (!options.keys) return jwt().sign(payload);
    // The newest key of the cluster, named in the header.
    const { kid, secret } = keys.signing();
    return jwt().sign(payload, { key: secret, ...(kid ? { kid } : {}) });
  }

  /** The `kid` of a token's header (undefined: none), without trusting anything else in it. */
  function kidOf(token: string): string | undefined {
    try {
      const header = JSON.parse(
        Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8'),
      ) as { kid?: unknown };
      return typeof header.kid === 'string' ? header.kid : undefined;
    } catch {
      return undefined;
    }
  }

  /** Reads the keys again when a token names a `kid` not known here (a rotation elsewhere). */
  async function knowKidOf(token: string): Promise<void> {
    const kid = kidOf(token);
    if (options.keys && kid !== undefined && keys.verifying(kid) === null) await keys.refresh();
  }

  /** A new refresh token row in `familyId`; returns the token, which is never stored. */
  function refreshRow(user: SessionUser, familyId: string, sessionStartedAt: Date) {
    const token = randomBytes(32).toString('base64url');
    const createdAt = now();
    const row: RefreshTokensTable = {
      id: randomUUID(),
      family_id: familyId,
      user_id: user.id,
      organization_id: user.organizationId,
      role_id: user.roleId,
      token_hash: hashToken(token),
      session_started_at: sessionStartedAt,
      created_at: createdAt,
      expires_at: new Date(createdAt.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
      used_at: null,
      revoked_at: null,
    };
    return { token, row };
  }

  async function revokeFamily(familyId: string): Promise<void> {
    await db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now() })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
    cacheFamily(familyId, false);
  }

  const findByToken = (token: string) =>
    REFRESH_SHAPE.test(token)
      ? db
          .selectFrom('refresh_tokens')
          .selectAll()
          .where('token_hash', '=', hashToken(token))
          .executeTakeFirst()
      : Promise.resolve(undefined);

  /**
   * The checks @fastify/jwt's verifier leaves to us, on a payload whose signature, algorithm, issuer,
   * audience and required claims it accepted.
   */
  function checkClaims(payload: Record<string, unknown>): AccessClaims {
    const { sub, org, role, sid, typ, iat, exp, nbf } = payload;
    if (
      typ !== 'access' ||
      typeof sub !== 'string' ||
      typeof sid !== 'string' ||
      typeof role !== 'number' ||
      !(org === null || typeof org === 'string') ||
      typeof iat !== 'number' ||
      typeof exp !== 'number' ||
      exp - iat > accessTtl ||
      // An iat in the future would stretch the lifetime past the TTL; a minute of clock skew is allowed.
      iat * 1000 > now().getTime() + 60_000 ||
      // fast-jwt still accepts a token at the very second of exp; RFC 7519 says "before".
      exp * 1000 <= now().getTime() ||
      // Never issued here; a token that carries one is not valid before it.
      (nbf !== undefined && (typeof nbf !== 'number' || nbf * 1000 > now().getTime()))
    )
      throw refused();
    return payload as AccessClaims;
  }

  /** The claims of a valid access token, or UnauthorizedError. Does not look at logout: see `authenticate`. */
  function verifyAccess(token: string): AccessClaims {
    let payload: Record<string, unknown>;
    try {
      // The lifetime is `checkClaims`'s, on the product's clock; the rest is `jwtOptions`.
      if (!options.keys) {
        payload = jwt().verify<Record<string, unknown>>(token);
      } else {
        const key = keys.verifying(kidOf(token));
        if (key === null) throw refused();
        // A verifier made for this call: no verdicts kept (a cache would be allocated at every call).
        payload = jwt().verify<Record<string, unknown>>(token, { key, cache: false });
      }
    } catch {
      throw refused();
    }
    return checkClaims(payload);
  }

  /** `verifyAccess` of the request's `Authorization: Bearer` token, through `request.jwtVerify`. */
  async function verifyRequest(request: FastifyRequest): Promise<AccessClaims> {
    let payload: Record<string, unknown>;
    try {
      payload = await request.jwtVerify<Record<string, unknown>>();
    } catch {
      throw refused();
    }
    return checkClaims(payload);
  }

  /** False once the family is revoked or expired; cached for at most FAMILY_CACHE_MS. */
  async function isFamilyActive(familyId: string): Promise<boolean> {
    if (!UUID.test(familyId)) return false;
    const cached = familyCache.get(familyId);
    if (cached && cached.until > now().getTime()) return cached.active;
    const row = await db
      .selectFrom('refresh_tokens')
      .select('id')
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now())
      .limit(1)
      .executeTakeFirst();
    cacheFamily(familyId, row !== undefined);
    return row !== undefined;
  }

  return {
    /** What `@fastify/jwt` is registered with, on the app that then hands its `app.jwt` to `useJwt`. */
    jwtOptions,
    /** Binds the @fastify/jwt decorator registered with `jwtOptions`: the app does this before it serves. */
    useJwt(decorator: AccessJwt) {
      bound = decorator;
    },

    /** Signs a user in: a new family with its first refresh token, and an access token. */
    async issue(user: SessionUser): Promise<TokenPair> {
      if (!UUID.test(user.id)) throw new Error('A user id is a UUID');
      const familyId = randomUUID();
      const { token, row } = refreshRow(user, familyId, now());
      await db.insertInto('refresh_tokens').values(row).execute();
      cacheFamily(familyId, true);
      return {
        accessToken: accessToken(user, familyId),
        refreshToken: token,
        expiresIn: accessTtl,
      };
    },

    /**
     * Single use: answers a new pair in the same family and marks the presented token used. A token
     * presented again (stolen, or replayed) revokes its whole family, so thief and owner both sign in
     * again. Two parallel refreshes with one token count as a replay: one wins, then the family ends.
     */
    async refresh(
      refreshToken: string,
      isUserAllowed: IsUserAllowed | undefined = options.isUserAllowed,
    ): Promise<TokenPair> {
      const row = await findByToken(refreshToken);
      if (!row || row.revoked_at) throw refused();
      if (row.used_at) {
        await revokeFamily(row.family_id);
        throw refused();
      }
      if (row.expires_at.getTime() <= now().getTime()) throw refused();
      let user: SessionUser = {
        id: row.user_id,
        organizationId: row.organization_id,
        roleId: row.role_id,
      };
      // Asked outside the transaction: the callback reads the database, and PGlite has one connection.
      if (isUserAllowed) {
        const allowance = await isUserAllowed(row.user_id);
        const cutoff = allowance.sessionsRevokedAt
          ? new Date(allowance.sessionsRevokedAt).getTime()
          : null;
        if (!allowance.allowed || (cutoff !== null && row.session_started_at.getTime() < cutoff)) {
          await revokeFamily(row.family_id);
          throw refused();
        }
        user = {
          id: row.user_id,
          organizationId:
            allowance.organizationId !== undefined ? allowance.organizationId : row.organization_id,
          roleId: allowance.roleId ?? row.role_id,
        };
      }
      const next = refreshRow(user, row.family_id, row.session_started_at);
      const claimed = await db.transaction().execute(async (trx) => {
        // The conditional update is the lock: of two racing refreshes exactly one sees used_at null.
        const won = await trx
          .updateTable('refresh_tokens')
          .set({ used_at: now() })
          .where('id', '=', row.id)
          .where('used_at', 'is', null)
          .where('revoked_at', 'is', null)
          .returning('id')
          .executeTakeFirst();
        if (!won) return false;
        await trx.insertInto('refresh_tokens').values(next.row).execute();
        return true;
      });
      if (!claimed) {
        await revokeFamily(row.family_id);
        throw refused();
      }
      return {
        accessToken: accessToken(user, row.family_id),
        refreshToken: next.token,
        expiresIn: accessTtl,
      };
    },

    /** Logout: ends the session the token belongs to. False when the token is unknown. */
    async revokeFamilyOf(refreshToken: string): Promise<boolean> {
      const row = await findByToken(refreshToken);
      if (!row) return false;
      await revokeFamily(row.family_id);
      return true;
    },

    /** Every session of a user: on block, password change or reset. */
    async revokeAllForUser(userId: string): Promise<number> {
      if (!UUID.test(userId)) return 0;
      const rows = await db
        .updateTable('refresh_tokens')
        .set({ revoked_at: now() })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .returning('family_id')
        .execute();
      const families = new Set(rows.map((row) => row.family_id));
      for (const familyId of families) cacheFamily(familyId, false);
      return families.size;
    },

    /** Every session of every member of an organization: on its block. */
    async revokeAllForOrganization(organizationId: string): Promise<number> {
      if (!UUID.test(organizationId)) return 0;
      const rows = await db
        .updateTable('refresh_tokens')
        .set({ revoked_at: now() })
        .where('organization_id', '=', organizationId)
        .where('revoked_at', 'is', null)
        .returning('family_id')
        .execute();
      const families = new Set(rows.map((row) => row.family_id));
      for (const familyId of families) cacheFamily(familyId, false);
      return families.size;
    },

    /**
     * Every session of a user but the one it is using (it changed its own password or e-mail). The
     * kept session counts as begun now, so that the password change's cutoff does not refuse it.
     */
    async revokeOtherSessions(userId: string, keepFamilyId: string): Promise<number> {
      if (!UUID.test(userId) || !UUID.test(keepFamilyId)) return 0;
      const rows = await db
        .updateTable('refresh_tokens')
        .set({ revoked_at: now() })
        .where('user_id', '=', userId)
        .where('family_id', '!=', keepFamilyId)
        .where('revoked_at', 'is', null)
        .returning('family_id')
        .execute();
      await db
        .updateTable('refresh_tokens')
        .set({ session_started_at: now() })
        .where('user_id', '=', userId)
        .where('family_id', '=', keepFamilyId)
        .execute();
      const families = new Set(rows.map((row) => row.family_id));
      for (const familyId of families) cacheFamily(familyId, false);
      return families.size;
    },

    /** verifyAccess plus the logout check: what a route guard or a socket handshake calls. */
    async authenticate(token: string): Promise<AccessClaims> {
      await knowKidOf(token);
      const claims = verifyAccess(token);
      if (!(await isFamilyActive(claims.sid))) throw refused();
      return claims;
    },

    verifyAccess,
    verifyRequest,
    isFamilyActive,

    /** Housekeeping: drops rows past their expiry. Returns how many. */
    async deleteExpired(): Promise<number> {
      const result = await db
        .deleteFrom('refresh_tokens')
        .where('expires_at', '<', now())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
