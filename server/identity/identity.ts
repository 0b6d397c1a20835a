import { createHash, randomInt, randomUUID } from 'node:crypto';
import { Role, type RoleId } from '../../domain/catalog.ts';
import { organizationStream, type Organization, type OrganizationEvent } from '../../domain/organizations/organization.ts';
import { organizationDecider, type OrganizationCommand } from '../../domain/organizations/organization.decide.ts';
import type { EventMetadata } from '../../domain/shared/event.ts';
import { ConflictError, NotFoundError } from '../../domain/shared/errors.ts';
import { emailKeyStream, uniqueKeyFor, usernameKeyStream } from '../../domain/uniqueKeys/uniqueKey.ts';
import { userStream, type User, type UserEvent } from '../../domain/users/user.ts';
import { userDecider, type UserCommand } from '../../domain/users/user.decide.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import { comparePositions, type EventStore, type LogPosition } from '../eventstore/eventStore.ts';
import type { Actor } from '../http/auth.ts';

/** Who caused a change, for the event metadata (the audit trail). */
export type Cause = { userId: string | null; organizationId: string | null; requestId: string | null };
export const causeOf = (actor: Actor | null, requestId: string | null = null): Cause =>
  ({ userId: actor?.userId ?? null, organizationId: actor?.organizationId ?? null, requestId });

export const metadataFor = (cause: Cause, now: string, correlationId: string | null = null): EventMetadata => ({
  userId: cause.userId, organizationId: cause.organizationId, correlationId: correlationId ?? cause.requestId, causationId: cause.requestId, at: now,
});

export const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');
export const newSixDigitCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** The latest of several positions (null when nothing was appended). */
export const latest = (...positions: (LogPosition | null)[]): LogPosition | null =>
  positions.reduce<LogPosition | null>((a, b) => (!b ? a : !a ? b : comparePositions(a, b) > 0 ? a : b), null);

/** The event-store side of identity: users, organizations and their unique keys. */
export function createIdentityCommands(store: EventStore) {
  const user = (command: UserCommand, cause: Cause, now: string) =>
    handleCommand<User, UserCommand, UserEvent>(store, userStream(command.data.userId as string), userDecider, command, metadataFor(cause, now));
  const organization = (command: OrganizationCommand, cause: Cause, now: string) =>
    handleCommand<Organization, OrganizationCommand, OrganizationEvent>(store, organizationStream(command.data.organizationId as string), organizationDecider, command, metadataFor(cause, now));

  /** The owner of a unique key, read from its stream (never from a read model that may lag). */
  async function ownerOf(stream: string): Promise<string | null> {
    const { events } = await store.readStream(stream);
    let owner: string | null = null;
    for (const event of events) owner = event.type === 'KeyReserved' ? String(event.data.ownerId) : event.type === 'KeyReleased' ? null : owner;
    return owner;
  }

  async function reserve(kind: 'email' | 'username', value: string, ownerId: string, cause: Cause, now: string) {
    const { stream, decider } = uniqueKeyFor(kind, value);
    return handleCommand(store, stream, decider, { type: 'Reserve', data: { ownerId } } as never, metadataFor(cause, now));
  }
  async function release(kind: 'email' | 'username', value: string, ownerId: string, cause: Cause, now: string) {
    const { stream, decider } = uniqueKeyFor(kind, value);
    await handleCommand(store, stream, decider, { type: 'Release', data: { ownerId } } as never, metadataFor(cause, now)).catch(() => undefined);
  }

  /** Reserves e-mail and username for `ownerId`, both or neither. */
  async function reserveIdentity(email: string, username: string, ownerId: string, cause: Cause, now: string) {
    await reserve('email', email, ownerId, cause, now);
    try {
      await reserve('username', username, ownerId, cause, now);
    } catch (error) {
      await release('email', email, ownerId, cause, now);
      throw error;
    }
  }

  async function loadUser(userId: string) {
    const { events } = await store.readStream<UserEvent>(userStream(userId));
    const state = events.reduce<User>(userDecider.evolve, userDecider.initialState());
    return state.registered && !state.deleted ? state : null;
  }
  async function loadOrganization(organizationId: string) {
    const { events } = await store.readStream<OrganizationEvent>(organizationStream(organizationId));
    const state = events.reduce<Organization>(organizationDecider.evolve, organizationDecider.initialState());
    return state.registered ? state : null;
  }

  return {
    user, organization, ownerOf, reserveIdentity, release, loadUser, loadOrganization,
    userIdByEmail: (email: string) => ownerOf(emailKeyStream(email)),
    userIdByUsername: (username: string) => ownerOf(usernameKeyStream(username)),
    /** Moves a key from one value to another for the same owner (an e-mail or username change). */
    async changeKey(kind: 'email' | 'username', from: string, to: string, ownerId: string, cause: Cause, now: string) {
      if (uniqueKeyFor(kind, from).stream === uniqueKeyFor(kind, to).stream) return;
      await reserve(kind, to, ownerId, cause, now);
      await release(kind, from, ownerId, cause, now);
    },
  };
}
export type IdentityCommands = ReturnType<typeof createIdentityCommands>;

export const newId = () => randomUUID();
export const assertFound = <T>(value: T | null | undefined, what: string): T => {
  if (value === null || value === undefined) throw new NotFoundError(`${what} not found`);
  return value;
};
export const roleName = (roleId: RoleId) => Object.entries(Role).find(([, id]) => id === roleId)?.[0] ?? 'Unknown';
export { ConflictError };
