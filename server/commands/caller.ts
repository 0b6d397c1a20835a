/**
 * The one caller type of the command side: who issues a command (the signed-in actor) and the
 * request it came with, and the event metadata (the audit trail) it gives. A command run by the
 * system (the scheduler, a reactor) passes no caller.
 */
import type { EventMetadata } from '../../domain/shared/event.ts';
import type { Actor } from '../http/auth.ts';

export type Caller = { actor: Actor; requestId: string };

/** The metadata of the events a caller's command appends; `correlationId` groups a shipment's events (its load id). */
export const metadataOf = (caller: Caller | null, now: string, correlationId: string | null = null): EventMetadata => ({
  userId: caller?.actor.userId ?? null,
  organizationId: caller?.actor.organizationId ?? null,
  correlationId: correlationId ?? caller?.requestId ?? null,
  causationId: caller?.requestId ?? null,
  at: now,
});
