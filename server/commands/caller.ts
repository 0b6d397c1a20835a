/**
 * The one caller type of the command side: who issues a command (the signed-in actor, as its access
 * token names it) and the request it came with. The HTTP side reads it from a request
 * (`requireCaller`). A step the system takes (the scheduler, a reactor, bootstrap) has no caller:
 * null. Also the event metadata (the audit trail) a command gives.
 */
import type { RoleId } from '../../domain/catalog.ts';
import type { EventMetadata } from '../../domain/shared/event.ts';

/** Who is calling: read from the access token on every request. */
export type Actor = {
  userId: string;
  organizationId: string | null;
  roleId: RoleId;
  permissions: readonly number[];
  /** The refresh-token family the access token belongs to (logout revokes it). */
  sessionId: string;
  /**
   * The organization's status when the request was authenticated (1 Pending, 2 Active): read from
   * the organization, never from the token, so that an activation or a block reaches tokens issued
   * before it. Absent for actors made outside HTTP; `can(...)` then treats the organization as not Active.
   */
  organizationStatus?: number;
  /** The session may only enrol in two-factor sign-in (its token's `enr` claim). */
  mustEnrol?: boolean;
};

export type Caller = { actor: Actor; requestId: string };

/** A Superadmin sees every organization; everyone else only their own. */
export const isSuperadmin = (actor: Actor) => actor.roleId === 1;

/** The caller of an actor's request; none (null) for a step the system takes. */
export function callerOf(actor: Actor, requestId: string): Caller;
export function callerOf(actor: Actor | null, requestId?: string): Caller | null;
export function callerOf(actor: Actor | null, requestId = ''): Caller | null {
  return actor ? { actor, requestId } : null;
}

/** The metadata of the events a caller's command appends; `correlationId` groups a shipment's events (its load id). */
export const metadataOf = (
  caller: Caller | null,
  now: string,
  correlationId: string | null = null,
): EventMetadata => ({
  userId: caller?.actor.userId ?? null,
  organizationId: caller?.actor.organizationId ?? null,
  correlationId: correlationId ?? caller?.requestId ?? null,
  causationId: caller?.requestId ?? null,
  at: now,
});

/**
 * The metadata of a step that names whom it acts for rather than a caller: a sign-up (the user and
 * organization it creates), a password reset (the user it resets), a visitor leaving an address
 * (no one); `requestId` is the request it came with.
 */
export const metadataFor = (
  on: { userId: string | null; organizationId: string | null },
  requestId: string | null,
  now: string,
): EventMetadata => ({
  userId: on.userId,
  organizationId: on.organizationId,
  correlationId: requestId,
  causationId: requestId,
  at: now,
});
