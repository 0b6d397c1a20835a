import type { FastifyJWTOptions, JWT, TokenOrHeader } from '@fastify/jwt';
import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../domain/shared/errors.ts';
import type { JwtKeys } from '../cluster/clusterSecrets.ts';

export const TOKEN_ISSUER = 'freight-marketplace';
export const TOKEN_AUDIENCE = 'freight-marketplace-api';
/** Seconds. The signer is given iat and exp, computed here from the injected clock, never `expiresIn`. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export type AccessClaims = {
  sub: string;
  org: string | null;
  role: number;
  /** The refresh family (one sign-in); logout revokes it. */
  sid: string;
  /** 1: the user must enrol in two-factor sign-in first; only the enrolment routes answer it. */
  enr?: 1;
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

export type SessionUser = {
  id: string;
  organizationId: string | null;
  roleId: number;
  /** The session may only enrol in two-factor sign-in (the `enr` claim). */
  mustEnrol?: boolean;
};

// One message for every refusal, so an answer does not tell an attacker which check failed.
export const refused = () =>
  new UnauthorizedError('Your session has expired. Please sign in again.');

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

/** Signs access tokens and checks them: the signature with @fastify/jwt, the lifetime on the product's clock. */
export function createAccessTokens(options: {
  keys: JwtKeys;
  /** The cluster's keys by `kid` were given: tokens name their key, and an unknown `kid` reads the keys again. */
  keyed: boolean;
  now: () => Date;
  accessTtl: number;
  jwt: () => AccessJwt;
}) {
  const { keys, now, accessTtl, jwt } = options;

  function accessToken(user: SessionUser, familyId: string): string {
    const iat = Math.floor(now().getTime() / 1000);
    const payload = {
      sub: user.id,
      org: user.organizationId,
      role: user.roleId,
      sid: familyId,
      ...(user.mustEnrol ? { enr: 1 as const } : {}),
      typ: 'access' as const,
      iat,
      exp: iat + accessTtl,
    };
    if (!options.keyed) return jwt().sign(payload);
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
    if (options.keyed && kid !== undefined && keys.verifying(kid) === null) await keys.refresh();
  }

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
      if (!options.keyed) {
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

  return { accessToken, knowKidOf, verifyAccess, verifyRequest };
}
