/**
 * The event-store side of identity: the streams of users (`user-<id>`), of organizations
 * (`organization-<id>`) and of the unique keys that make e-mail addresses and usernames unique
 * (`unique-email-…`, `unique-username-…`). This module is the only writer of these streams; the use
 * cases that write them are in `users.ts`, `organizations.ts` and their neighbours.
 *
 * Each writer takes the caller (null: the system) and `now`; `metadata`, when given, replaces the
 * caller's for a step no one signed in takes (a sign-up, a password reset).
 */
import type { EventMetadata } from '../../domain/shared/event.ts';
import {
  organizationStream,
  type Organization,
  type OrganizationEvent,
} from '../../domain/organizations/organization.ts';
import {
  organizationDecider,
  type OrganizationCommand,
} from '../../domain/organizations/organization.decide.ts';
import {
  emailKeyStream,
  uniqueKeyFor,
  usernameKeyStream,
} from '../../domain/uniqueKeys/uniqueKey.ts';
import { userStream, type User, type UserEvent } from '../../domain/users/user.ts';
import { userDecider, type UserCommand } from '../../domain/users/user.decide.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { EventStore } from '../eventstore/eventStore.ts';
import { metadataOf, type Caller } from './caller.ts';

type KeyKind = 'email' | 'username';

export function createIdentityCommands(store: EventStore) {
  const user = (
    command: UserCommand,
    caller: Caller | null,
    now: string,
    metadata: EventMetadata = metadataOf(caller, now),
  ) =>
    handleCommand<User, UserCommand, UserEvent>(
      store,
      userStream(command.data.userId as string),
      userDecider,
      command,
      metadata,
    );

  const organization = (
    command: OrganizationCommand,
    caller: Caller | null,
    now: string,
    metadata: EventMetadata = metadataOf(caller, now),
  ) =>
    handleCommand<Organization, OrganizationCommand, OrganizationEvent>(
      store,
      organizationStream(command.data.organizationId as string),
      organizationDecider,
      command,
      metadata,
    );

  /** The owner of a unique key, read from its stream (never from a read model that may lag). */
  async function ownerOf(stream: string): Promise<string | null> {
    const { events } = await store.readStream(stream);
    let owner: string | null = null;
    for (const event of events)
      owner =
        event.type === 'KeyReserved'
          ? String(event.data.ownerId)
          : event.type === 'KeyReleased'
            ? null
            : owner;
    return owner;
  }

  const reserve = (kind: KeyKind, value: string, ownerId: string, metadata: EventMetadata) => {
    const { stream, decider } = uniqueKeyFor(kind, value);
    return handleCommand(
      store,
      stream,
      decider,
      { type: 'Reserve', data: { ownerId } } as never,
      metadata,
    );
  };

  /** Frees a key its owner held; a key it no longer holds is left as it is. */
  async function release(
    kind: KeyKind,
    value: string,
    ownerId: string,
    caller: Caller | null,
    now: string,
    metadata: EventMetadata = metadataOf(caller, now),
  ) {
    const { stream, decider } = uniqueKeyFor(kind, value);
    await handleCommand(
      store,
      stream,
      decider,
      { type: 'Release', data: { ownerId } } as never,
      metadata,
    ).catch(() => undefined);
  }

  /** Reserves e-mail and username for `ownerId`, both or neither (409 when one is taken). */
  async function reserveIdentity(
    email: string,
    username: string,
    ownerId: string,
    caller: Caller | null,
    now: string,
    metadata: EventMetadata = metadataOf(caller, now),
  ) {
    await reserve('email', email, ownerId, metadata);
    try {
      await reserve('username', username, ownerId, metadata);
    } catch (error) {
      await release('email', email, ownerId, caller, now, metadata);
      throw error;
    }
  }

  /** Moves a key from one value to another for the same owner (an e-mail or username change). */
  async function changeKey(
    kind: KeyKind,
    from: string,
    to: string,
    ownerId: string,
    caller: Caller | null,
    now: string,
  ) {
    if (uniqueKeyFor(kind, from).stream === uniqueKeyFor(kind, to).stream) return;
    await reserve(kind, to, ownerId, metadataOf(caller, now));
    await release(kind, from, ownerId, caller, now);
  }

  async function loadUser(userId: string) {
    const { events } = await store.readStream<UserEvent>(userStream(userId));
    const state = events.reduce<User>(userDecider.evolve, userDecider.initialState());
    return state.registered && !state.deleted ? state : null;
  }

  async function loadOrganization(organizationId: string) {
    const { events } = await store.readStream<OrganizationEvent>(
      organizationStream(organizationId),
    );
    const state = events.reduce<Organization>(
      organizationDecider.evolve,
      organizationDecider.initialState(),
    );
    return state.registered ? state : null;
  }

  return {
    user,
    organization,
    ownerOf,
    reserveIdentity,
    release,
    changeKey,
    loadUser,
    loadOrganization,
    userIdByEmail: (email: string) => ownerOf(emailKeyStream(email)),
    userIdByUsername: (username: string) => ownerOf(usernameKeyStream(username)),
  };
}
export type IdentityCommands = ReturnType<typeof createIdentityCommands>;
