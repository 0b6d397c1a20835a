/**
 * Helpers shared by the user-administration and account routes: validating a multipart `data`
 * field, changing a user's details (moving the unique e-mail and username keys with them), changing
 * a password, and saving uploaded documents.
 */
import type { z } from 'zod';
import type { CarrierDocuments } from '../../domain/organizations/organization.ts';
import { carrierDocumentFields } from '../../domain/schemas/index.ts';
import { ValidationError } from '../../domain/shared/errors.ts';
import type { RegisteredUser } from '../../domain/users/user.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { createFileStore } from '../integrations/files/files.ts';
import type { FileRule, UploadedFile } from '../integrations/files/uploads.ts';
import { requireStorableText } from '../http/storableText.ts';
import type { Platform } from '../platform.ts';
import { latest, type Cause } from './identity.ts';

/**
 * Parses a value (a multipart `data` field) with a zod schema; a failure is a 400 naming every field
 * with the schema's (the specification's) message, like the route schemas' own validation.
 */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  requireStorableText(value, 'data');
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || 'data',
    message: issue.message,
  }));
  throw new ValidationError(errors[0]?.message ?? 'Invalid data', errors);
}

export type UserDetails = { email: string; username: string; name: string; phone: string };

/**
 * Changes a user's e-mail, username, name and phone. A changed e-mail or username first moves its
 * unique key (409 'Email already registered' / username taken, and nothing changes); when the
 * update itself fails, the keys are moved back.
 */
export async function updateUserDetails(
  platform: Platform,
  user: RegisteredUser,
  next: UserDetails,
  cause: Cause,
  now: string,
): Promise<LogPosition | null> {
  const { identity } = platform;
  const details = {
    email: next.email.trim(),
    username: next.username.trim(),
    name: next.name.trim(),
    phone: next.phone.trim(),
  };
  const moved: ('email' | 'username')[] = [];
  try {
    if (details.email !== user.email) {
      await identity.changeKey('email', user.email, details.email, user.userId, cause, now);
      moved.push('email');
    }
    if (details.username !== user.username) {
      await identity.changeKey(
        'username',
        user.username,
        details.username,
        user.userId,
        cause,
        now,
      );
      moved.push('username');
    }
    const { position } = await identity.user(
      { type: 'UpdateUser', data: { userId: user.userId, ...details, now } },
      cause,
      now,
    );
    return position;
  } catch (error) {
    for (const kind of moved.reverse()) {
      await identity
        .changeKey(kind, details[kind], user[kind], user.userId, cause, now)
        .catch(() => undefined);
    }
    throw error;
  }
}

/**
 * Sets a new password. The user's sessions begun before now stop refreshing (the decider bumps
 * `sessionsRevokedAt`); `credentialsChanged` below revokes their refresh tokens at once.
 */
export async function changePassword(
  platform: Platform,
  userId: string,
  newPassword: string,
  cause: Cause,
  now: string,
): Promise<LogPosition | null> {
  const passwordHash = await hashPassword(newPassword);
  const { position } = await platform.identity.user(
    { type: 'ChangePassword', data: { userId, passwordHash, now } },
    cause,
    now,
  );
  return position;
}

export const OLD_PASSWORD_REQUIRED_MESSAGE = 'Please enter your current password';
export const OLD_PASSWORD_WRONG_MESSAGE = 'Current password is incorrect';

/**
 * Changing one's own password or e-mail needs the current password (docs/api.md "Organizations and access"), so that
 * a stolen access token alone cannot take the account over. Checked before anything is written.
 *
 * The check is a password guess like a sign-in, so it shares sign-in's limits: a wrong current
 * password counts as a failed sign-in of the account (under its e-mail and its username, the names
 * sign-in accepts) and of the caller's address (the socket's, never X-Forwarded-For); while either
 * is limited, even the right password answers 429 with Retry-After, as POST login does.
 */
export async function requireCurrentPassword(
  platform: Pick<Platform, 'loginLimiter'>,
  user: RegisteredUser,
  oldPassword: string | undefined,
  address: string,
): Promise<void> {
  if (!oldPassword) throw ValidationError.field('oldPassword', OLD_PASSWORD_REQUIRED_MESSAGE);
  const { loginLimiter } = platform;
  const account = [user.email, user.username];
  loginLimiter.assertAllowed(account, address);
  if (!(await verifyPassword(user.passwordHash, oldPassword))) {
    loginLimiter.fail(account, address);
    throw ValidationError.field('oldPassword', OLD_PASSWORD_WRONG_MESSAGE);
  }
  loginLimiter.succeed(account);
}

/** Whether the e-mail in a profile edit differs from the user's (as `updateUserDetails` compares). */
export const emailChanges = (user: RegisteredUser, email: string) => email.trim() !== user.email;

/**
 * After a password or e-mail change: the user's other sessions end (their refresh tokens are
 * revoked, their access tokens stop within seconds and their sockets close), the session that made
 * the change on its own account stays, and the old address is told, so that the owner of a taken
 * account learns of it. A message that cannot be sent is logged; the change stands.
 */
export async function credentialsChanged(
  platform: Platform,
  change: {
    user: RegisteredUser;
    /** The caller's session when the user changed its own account; null when an administrator did. */
    keepSessionId: string | null;
    newEmail: string | null;
    passwordChanged: boolean;
    now: string;
  },
): Promise<void> {
  const { user, keepSessionId, newEmail, passwordChanged } = change;
  if (!newEmail && !passwordChanged) return;
  if (keepSessionId) await platform.tokens.revokeOtherSessions(user.userId, keepSessionId);
  else await platform.tokens.revokeAllForUser(user.userId);
  const what =
    newEmail && passwordChanged
      ? 'e-mail address and password'
      : newEmail
        ? 'e-mail address'
        : 'password';
  const who = keepSessionId ? 'You' : 'An administrator';
  const when = `${change.now.slice(0, 16).replace('T', ' ')} UTC`;
  const lines = [
    `Hello ${user.name},`,
    '',
    `${who} changed the ${what} of your Freight Marketplace account (${user.username}) on ${when}.`,
    ...(newEmail
      ? [
          '',
          `From now on we write to ${newEmail.trim()}, and you sign in with that address; this is the last message to this one.`,
        ]
      : []),
    '',
    keepSessionId
      ? 'You stay signed in where you made the change; everywhere else you have been signed out.'
      : 'You have been signed out everywhere; sign in again with the new details.',
    '',
    `If this was not you, someone may have access to your account: ${passwordChanged && !newEmail ? "choose 'Forgot password?' on the sign-in page to set a new password, and " : ''}contact your organization's administrator or our support right away.`,
    '',
    'The Freight Marketplace team',
  ];
  await platform.mailer
    .send({
      to: user.email,
      subject: `Your Freight Marketplace ${what} ${newEmail && passwordChanged ? 'were' : 'was'} changed`,
      text: lines.join('\n'),
    })
    .catch((error: unknown) =>
      platform.logger.error(
        { err: error, userId: user.userId },
        'the change notice could not be sent',
      ),
    );
}

/** Stores the uploaded files of an organization (all or none); answers their ids by field name. */
export async function saveFiles<K extends string>(
  platform: Platform,
  organizationId: string,
  files: Partial<Record<K, UploadedFile>>,
): Promise<{ ids: Partial<Record<K, string>>; discard: () => Promise<void> }> {
  const store = createFileStore(platform.database.db);
  const entries = Object.entries(files).filter(
    (entry): entry is [K, UploadedFile] => entry[1] !== undefined,
  );
  const saved = await store.saveAll(
    entries.map(([kind, file]) => ({ organizationId, kind, mime: file.mime, data: file.buffer })),
  );
  const ids = Object.fromEntries(entries.map(([kind], index) => [kind, saved[index]])) as Partial<
    Record<K, string>
  >;
  return {
    ids,
    // When the command that would point at the files fails, they are removed again.
    discard: async () => {
      for (const id of saved) await store.delete(id).catch(() => undefined);
    },
  };
}

export type CarrierDocumentIds = Partial<CarrierDocuments>;

/** The four carrier documents, each optional and PDF only (checked by bytes). */
export const optionalCarrierDocuments = Object.fromEntries(
  carrierDocumentFields.map((name) => [name, { required: false, accept: 'pdf' as const }]),
) as Record<(typeof carrierDocumentFields)[number], FileRule>;

export { latest };
