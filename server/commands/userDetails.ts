/**
 * Changing a user's details: e-mail, username, name, phone and password, by the user on its own
 * account or by an administrator. A changed e-mail or username moves its unique key; one's own new
 * password or e-mail needs the current password; after a password or e-mail change the other
 * sessions end and the old address is told.
 */
import { assertFound, ValidationError } from '../../domain/shared/errors.ts';
import type { RegisteredUser } from '../../domain/users/user.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { latest, type LogPosition } from '../eventstore/eventStore.ts';
import type { Caller } from './caller.ts';
import type { IdentityDeps } from './identityDeps.ts';
import { credentialsChangedMail } from './identityNotices.ts';
import { visibleUser } from './users.ts';

export const OLD_PASSWORD_REQUIRED_MESSAGE = 'Please enter your current password';
export const OLD_PASSWORD_WRONG_MESSAGE = 'Current password is incorrect';

export type UserDetails = { email: string; username: string; name: string; phone: string };

/** What a profile edit sends: the details, and a new password with the current one. */
export type DetailsChange = {
  email: string;
  name: string;
  phone: string;
  newPassword?: string;
  oldPassword?: string;
};

/**
 * Changes a user's e-mail, username, name and phone. A changed e-mail or username first moves its
 * unique key (409 'Email already registered' / username taken, and nothing changes); when the
 * update itself fails, the keys are moved back.
 */
async function updateUserDetails(
  deps: Pick<IdentityDeps, 'identity'>,
  user: RegisteredUser,
  next: UserDetails,
  caller: Caller,
  now: string,
): Promise<LogPosition | null> {
  const { identity } = deps;
  const details = {
    email: next.email.trim(),
    username: next.username.trim(),
    name: next.name.trim(),
    phone: next.phone.trim(),
  };
  const moved: ('email' | 'username')[] = [];
  try {
    for (const kind of ['email', 'username'] as const) {
      if (details[kind] === user[kind]) continue;
      await identity.changeKey(kind, user[kind], details[kind], user.userId, caller, now);
      moved.push(kind);
    }
    const { position } = await identity.user(
      { type: 'UpdateUser', data: { userId: user.userId, ...details, now } },
      caller,
      now,
    );
    return position;
  } catch (error) {
    for (const kind of moved.reverse()) {
      await identity
        .changeKey(kind, details[kind], user[kind], user.userId, caller, now)
        .catch(() => undefined);
    }
    throw error;
  }
}

/**
 * Changing one's own password or e-mail needs the current password (docs/api.md "Organizations and access"), so that
 * a stolen access token alone cannot take the account over. Checked before anything is written.
 *
 * The check is a password guess like a sign-in, so it shares sign-in's limits: a wrong current
 * password counts as a failed sign-in of the account (under its e-mail and its username, the names
 * sign-in accepts) and of the caller's address (the socket's, never X-Forwarded-For); while either
 * is limited, even the right password answers 429 with Retry-After, as POST login does.
 */
async function requireCurrentPassword(
  deps: Pick<IdentityDeps, 'loginLimiter'>,
  user: RegisteredUser,
  oldPassword: string | undefined,
  address: string,
): Promise<void> {
  if (!oldPassword) throw ValidationError.field('oldPassword', OLD_PASSWORD_REQUIRED_MESSAGE);
  const { loginLimiter } = deps;
  const account = [user.email, user.username];
  loginLimiter.assertAllowed(account, address);
  if (!(await verifyPassword(user.passwordHash, oldPassword))) {
    loginLimiter.fail(account, address);
    throw ValidationError.field('oldPassword', OLD_PASSWORD_WRONG_MESSAGE);
  }
  loginLimiter.succeed(account);
}

/**
 * The edit itself. A new password: the user's sessions begun before now stop refreshing (the
 * decider bumps `sessionsRevokedAt`). After a password or e-mail change the user's other sessions
 * end (their refresh tokens are revoked, their access tokens stop within seconds and their sockets
 * close), the session that made the change on its own account stays, and the old address is told.
 * A message that cannot be sent is logged; the change stands.
 */
async function editDetails(
  deps: Pick<IdentityDeps, 'identity' | 'loginLimiter' | 'tokens' | 'mailer' | 'logger'>,
  caller: Caller,
  user: RegisteredUser,
  change: DetailsChange & { username: string },
  address: string,
  now: string,
): Promise<LogPosition | null> {
  const { email, newPassword } = change;
  const bySelf = user.userId === caller.actor.userId;
  const newEmail = email.trim() !== user.email ? email : null;
  // One's own password or e-mail needs the current password; an administrator setting another user's does not.
  if (bySelf && (newPassword || newEmail))
    await requireCurrentPassword(deps, user, change.oldPassword, address);
  const detailsPosition = await updateUserDetails(deps, user, change, caller, now);
  let passwordPosition: LogPosition | null = null;
  if (newPassword) {
    const passwordHash = await hashPassword(newPassword);
    ({ position: passwordPosition } = await deps.identity.user(
      { type: 'ChangePassword', data: { userId: user.userId, passwordHash, now } },
      caller,
      now,
    ));
  }
  if (newEmail || newPassword) {
    if (bySelf) await deps.tokens.revokeOtherSessions(user.userId, caller.actor.sessionId);
    else await deps.tokens.revokeAllForUser(user.userId);
    await deps.mailer
      .send(
        credentialsChangedMail({
          user,
          bySelf,
          newEmail,
          passwordChanged: Boolean(newPassword),
          now,
        }),
      )
      .catch((error: unknown) =>
        deps.logger.error(
          { err: error, userId: user.userId },
          'the change notice could not be sent',
        ),
      );
  }
  return latest(detailsPosition, passwordPosition);
}

/** An administrator's edit of a user it may see (its username stays); on oneself, as one's own edit. */
export async function editUser(
  deps: Pick<IdentityDeps, 'identity' | 'loginLimiter' | 'tokens' | 'mailer' | 'logger'>,
  caller: Caller,
  userId: string,
  change: DetailsChange,
  address: string,
  now: string,
) {
  const user = await visibleUser(deps, caller, userId);
  const position = await editDetails(
    deps,
    caller,
    user,
    { ...change, username: user.username },
    address,
    now,
  );
  return { userId: user.userId, position };
}

/** The caller's edit of its own profile, username included; this session stays signed in. */
export async function updateOwnAccount(
  deps: Pick<IdentityDeps, 'identity' | 'loginLimiter' | 'tokens' | 'mailer' | 'logger'>,
  caller: Caller,
  change: DetailsChange & { username: string },
  address: string,
  now: string,
) {
  const user = assertFound(await deps.identity.loadUser(caller.actor.userId), 'User');
  return { position: await editDetails(deps, caller, user, change, address, now) };
}
