import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '../../domain/shared/errors.ts';
import { hasAny, permissionNames } from '../../domain/permissions.ts';
import { callerOf, isSuperadmin, type Actor, type Caller } from '../commands/caller.ts';

export { isSuperadmin, type Actor };

/** Reads the actor from the request's bearer token (well-formed: checked before). */
export type ActorResolver = (request: FastifyRequest) => Promise<Actor>;

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
    /** Why the presented token was refused, when one was presented. */
    authError: string | null;
  }
  interface FastifyContextConfig {
    /** Declares a route open to everyone; every other route must use `can(...)`. */
    public?: boolean;
    /** The permission codes `can(...)` checks, for the route inventory and the authorization matrix. */
    permissions?: readonly number[];
    /**
     * Open to the users of a Pending organization too (their own account, profile and documents):
     * every other guarded route answers them 403 ORGANIZATION_NOT_ACTIVE.
     */
    whilePending?: boolean;
    /**
     * Open to a session that must enrol in two-factor sign-in first (the profile and the enrolment
     * itself): every other guarded route answers it 403 two_factor_enrolment_required.
     */
    whileEnrolling?: boolean;
  }
}

/**
 * Reads `Authorization: Bearer …` once per request; a missing or bad token leaves `actor` null. A
 * callback hook: a request without a token (the public pages, the health checks) goes on at once,
 * without a promise.
 */
export const authenticate =
  (resolve: ActorResolver) =>
  (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    request.actor = null;
    request.authError = null;
    const header = request.headers.authorization;
    if (!header) return done();
    if (!/^Bearer [A-Za-z0-9\-_.]+$/.test(header)) {
      request.authError = 'Token not valid';
      return done();
    }
    resolve(request)
      .then(
        (actor) => {
          request.actor = actor;
        },
        (error: unknown) => {
          request.authError =
            error instanceof UnauthorizedError ? error.message : 'Token not valid';
        },
      )
      .then(() => done(), done);
  };

export const ORGANIZATION_NOT_ACTIVE = 'Your organization is not active yet';
export const ORGANIZATION_BLOCKED = 'Your organization is blocked';
export const TWO_FACTOR_ENROLMENT_REQUIRED = 'Set up two-factor sign-in first';

/**
 * Signed in, with any one of the codes: the guard every non-public route uses. A user of an
 * organization that is not Active (Pending: a blocked one's tokens never get this far) passes only
 * on the routes that declare `config.whilePending`: default deny, an explicit allow-list.
 */
export type RouteGuard = ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) & {
  permissions: readonly number[];
};

export function can(...codes: number[]): RouteGuard {
  const guard = async (request: FastifyRequest, _reply: FastifyReply) => {
    const actor = requireActor(request);
    if (actor.mustEnrol && request.routeOptions.config?.whileEnrolling !== true)
      throw new ForbiddenError(TWO_FACTOR_ENROLMENT_REQUIRED);
    if (
      actor.organizationId &&
      actor.organizationStatus !== 2 &&
      request.routeOptions.config?.whilePending !== true
    ) {
      throw new ForbiddenError(ORGANIZATION_NOT_ACTIVE);
    }
    if (codes.length > 0 && !hasAny(actor.permissions, ...codes)) {
      throw new ForbiddenError(
        `You do not have permission to do this (${codes.map((code) => permissionNames[code] ?? code).join(' or ')})`,
      );
    }
  };
  return Object.assign(guard, { permissions: codes });
}

export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw new UnauthorizedError(request.authError ?? 'Please sign in');
  return request.actor;
}

/** The caller of the request's commands: its signed-in actor and its id. */
export const requireCaller = (request: FastifyRequest): Caller =>
  callerOf(requireActor(request), request.id);
