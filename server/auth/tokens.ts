import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import { staticJwtKeys, type JwtKeys } from '../cluster/clusterSecrets.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  accessJwtOptions,
  createAccessTokens,
  refused,
  type AccessClaims,
  type AccessJwt,
  type SessionUser,
} from './accessTokens.ts';
import { findByToken, refreshRow } from './refreshTokens.ts';
import { UUID, createSessionRevocation } from './sessionRevocation.ts';

export {
  ACCESS_TOKEN_TTL_SECONDS,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
  accessJwtOptions,
  type AccessClaims,
  type AccessJwt,
  type AccessPayload,
  type SessionUser,
} from './accessTokens.ts';
export { REFRESH_TOKEN_TTL_SECONDS } from './refreshTokens.ts';
export { FAMILY_CACHE_MS } from './sessionRevocation.ts';

export type TokenPair = { accessToken: string; refreshToken: string; expiresIn: number };
export type UserAllowance = {
  allowed: boolean;
  /** Sessions begun before this instant (a password reset, say) are refused. */
  sessionsRevokedAt?: string | Date | null;
  /** The user's current organization and role, when they changed since sign-in. */
  organizationId?: string | null;
  roleId?: number;
  /** The user must enrol in two-factor sign-in before anything else (a refreshed token says so too). */
  mustEnrol?: boolean;
};
export type IsUserAllowed = (userId: string) => Promise<UserAllowance>;

export type TokenService = ReturnType<typeof createTokenService>;

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
  const { accessToken, knowKidOf, verifyAccess, verifyRequest } = createAccessTokens({
    keys,
    keyed: options.keys !== undefined,
    now,
    accessTtl,
    jwt,
  });
  const sessions = createSessionRevocation({ db, now });
  const { cacheFamily, revokeFamily, isFamilyActive } = sessions;

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
      const { token, row } = refreshRow(user, familyId, now(), now());
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
      const row = await findByToken(db, refreshToken);
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
          ...(allowance.mustEnrol ? { mustEnrol: true } : {}),
        };
      }
      const next = refreshRow(user, row.family_id, row.session_started_at, now());
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
      const row = await findByToken(db, refreshToken);
      if (!row) return false;
      await revokeFamily(row.family_id);
      return true;
    },

    revokeAllForUser: sessions.revokeAllForUser,
    revokeAllForOrganization: sessions.revokeAllForOrganization,
    revokeOtherSessions: sessions.revokeOtherSessions,

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
