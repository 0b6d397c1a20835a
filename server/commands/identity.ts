/**
 * The commands of a user (stream `user-<id>`) and of the unique keys that make e-mail addresses and
 * usernames unique (`unique-email-…`, `unique-username-…`): this module is the only writer of these streams.
 */
import {
  emailKeyStream,
  uniqueKeyFor,
  usernameKeyStream,
} from '../../domain/uniqueKeys/uniqueKey.ts';
import { userStream, type User, type UserEvent } from '../../domain/users/user.ts';
import { userDecider, type UserCommand } from '../../domain/users/user.decide.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { EventStore } from '../eventstore/eventStore.ts';
import { metadataFor, type Cause } from './caller.ts';
import { createOrganizationCommands } from './organizations.ts';

/** The event-store side of identity: users and their unique keys (e-mail, username), with the organizations' commands. */
export function createIdentityCommands(store: EventStore) {
  const user = (command: UserCommand, cause: Cause, now: string) =>
    handleCommand<User, UserCommand, UserEvent>(
      store,
      userStream(command.data.userId as string),
      userDecider,
      command,
      metadataFor(cause, now),
    );
  const organizations = createOrganizationCommands(store);

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

  async function reserve(
    kind: 'email' | 'username',
    value: string,
    ownerId: string,
    cause: Cause,
    now: string,
  ) {
    const { stream, decider } = uniqueKeyFor(kind, value);
    return handleCommand(
      store,
      stream,
      decider,
      { type: 'Reserve', data: { ownerId } } as never,
      metadataFor(cause, now),
    );
  }
  async function release(
    kind: 'email' | 'username',
    value: string,
    ownerId: string,
    cause: Cause,
    now: string,
  ) {
    const { stream, decider } = uniqueKeyFor(kind, value);
    await handleCommand(
      store,
      stream,
      decider,
      { type: 'Release', data: { ownerId } } as never,
      metadataFor(cause, now),
    ).catch(() => undefined);
  }

  /** Reserves e-mail and username for `ownerId`, both or neither. */
  async function reserveIdentity(
    email: string,
    username: string,
    ownerId: string,
    cause: Cause,
    now: string,
  ) {
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
  return {
    ...organizations,
    user,
    ownerOf,
    reserveIdentity,
    release,
    loadUser,
    userIdByEmail: (email: string) => ownerOf(emailKeyStream(email)),
    userIdByUsername: (username: string) => ownerOf(usernameKeyStream(username)),
    /** Moves a key from one value to another for the same owner (an e-mail or username change). */
    async changeKey(
      kind: 'email' | 'username',
      from: string,
      to: string,
      ownerId: string,
      cause: Cause,
      now: string,
    ) {
      if (uniqueKeyFor(kind, from).stream === uniqueKeyFor(kind, to).stream) return;
      await reserve(kind, to, ownerId, cause, now);
      await release(kind, from, ownerId, cause, now);
    },
  };
}
export type IdentityCommands = ReturnType<typeof createIdentityCommands>;
