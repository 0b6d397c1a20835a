/**
 * The one caller type of the command side and the event metadata (the audit trail) it gives: who
 * issues a command (the signed-in actor) and the request it came with. A command run by the system
 * (the scheduler, a reactor, bootstrap) passes no caller. `Cause` is the same thing as the metadata
 * keeps it, for a step whose author is not signed in (a sign-up names the user it creates).
 */
import type { EventMetadata } from '../../domain/shared/event.ts';
import type { Actor } from '../http/auth.ts';

export type Caller = { actor: Actor; requestId: string };

/** Who caused a change, for the event metadata. */
export type Cause = {
  userId: string | null;
  organizationId: string | null;
  requestId: string | null;
};

export const causeOf = (actor: Actor | null, requestId: string | null = null): Cause => ({
  userId: actor?.userId ?? null,
  organizationId: actor?.organizationId ?? null,
  requestId,
});

export const metadataFor = (
  cause: Cause,
  now: string,
  correlationId: string | null = null,
): EventMetadata => ({
  userId: cause.userId,
  organizationId: cause.organizationId,
  correlationId: correlationId ?? cause.requestId,
  causationId: cause.requestId,
  at: now,
});

/** The metadata of the events a caller's command appends; `correlationId` groups a shipment's events (its load id). */
export const metadataOf = (
  caller: Caller | null,
  now: string,
  correlationId: string | null = null,
): EventMetadata =>
  metadataFor(causeOf(caller?.actor ?? null, caller?.requestId ?? null), now, correlationId);
