/**
 * Unique keys (docs/domain.md "Uniqueness"): one stream per e-mail address and per username, named by
 * the normalised value. Whoever reserves it holds it until it is released; the event store's
 * expected revision makes two reservations at the same moment impossible.
 */
import { ConflictError } from '../shared/errors.ts';
import { assertNever, type Command, type Decider, type Event } from '../shared/event.ts';

export type UniqueKeyKind = 'email' | 'username';

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
export const normaliseUsername = (username: string): string => username.trim().toLowerCase();

export const emailKeyStream = (email: string): string => `unique-email-${normaliseEmail(email)}`;
export const usernameKeyStream = (username: string): string =>
  `unique-username-${normaliseUsername(username)}`;

export const EMAIL_ALREADY_REGISTERED = 'Email already registered';
export const USERNAME_ALREADY_TAKEN = 'Username already taken';

const takenMessages: Record<UniqueKeyKind, string> = {
  email: EMAIL_ALREADY_REGISTERED,
  username: USERNAME_ALREADY_TAKEN,
};

/** `ownerId` is the user id the key belongs to. */
export type Reserve = Command<'Reserve', { ownerId: string }>;
export type Release = Command<'Release', { ownerId: string }>;
export type UniqueKeyCommand = Reserve | Release;

export type KeyReserved = Event<'KeyReserved', { ownerId: string }>;
export type KeyReleased = Event<'KeyReleased', { ownerId: string }>;
export type UniqueKeyEvent = KeyReserved | KeyReleased;

/** The current holder, or null when the key is free (never reserved, or released). */
export type UniqueKey = { ownerId: string | null };

export const initialUniqueKey = (): UniqueKey => ({ ownerId: null });

export const evolveUniqueKey = (state: UniqueKey, event: UniqueKeyEvent): UniqueKey => {
  switch (event.type) {
    case 'KeyReserved':
      return { ownerId: event.data.ownerId };
    case 'KeyReleased':
      return state.ownerId === event.data.ownerId ? { ownerId: null } : state;
    default:
      return assertNever(event);
  }
};

/**
 * Reserving a key one already holds records nothing (a retried request stays harmless); a key held
 * by someone else is a 409 with the specification's message. Releasing a free key records nothing;
 * only the holder can release it.
 */
export const decideUniqueKey =
  (kind: UniqueKeyKind) =>
  (command: UniqueKeyCommand, state: UniqueKey): UniqueKeyEvent[] => {
    const { ownerId } = command.data;
    switch (command.type) {
      case 'Reserve': {
        if (state.ownerId === ownerId) return [];
        if (state.ownerId !== null) {
          const message = takenMessages[kind];
          throw new ConflictError(message, [{ path: kind, message }]);
        }
        return [{ type: 'KeyReserved', data: { ownerId } }];
      }
      case 'Release': {
        if (state.ownerId === null) return [];
        if (state.ownerId !== ownerId)
          throw new ConflictError(`This ${kind} is held by another user and cannot be released`);
        return [{ type: 'KeyReleased', data: { ownerId } }];
      }
      default:
        return assertNever(command);
    }
  };

export const uniqueKeyDecider = (
  kind: UniqueKeyKind,
): Decider<UniqueKey, UniqueKeyCommand, UniqueKeyEvent> => ({
  initialState: initialUniqueKey,
  evolve: evolveUniqueKey,
  decide: decideUniqueKey(kind),
});

export const emailKeyDecider = uniqueKeyDecider('email');
export const usernameKeyDecider = uniqueKeyDecider('username');

/** The stream and decider of a key, for a command handler that reserves or releases both kinds. */
export const uniqueKeyFor = (kind: UniqueKeyKind, value: string) =>
  kind === 'email'
    ? { stream: emailKeyStream(value), decider: emailKeyDecider }
    : { stream: usernameKeyStream(value), decider: usernameKeyDecider };
