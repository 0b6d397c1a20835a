/**
 * Password recovery: a single-use reset code e-mailed to a known address, and a new password set
 * with it. No one is signed in: the events name the user and the request.
 */
import { randomUUID } from 'node:crypto';
import { ValidationError } from '../../domain/shared/errors.ts';
import { userByResetCode } from '../../projections/users/users.queries.ts';
import { hashCode } from '../auth/codes.ts';
import { hashPassword } from '../auth/passwords.ts';
import { metadataFor } from './caller.ts';
import type { IdentityDeps } from './identityDeps.ts';
import { resetCodeMail } from './identityNotices.ts';

const RESET_TTL_MS = 30 * 60 * 1000;

/**
 * E-mails a reset code to the user of that address, unless there is none or it is blocked:
 * `known` says which (for the answer's timing; the answer itself is the same).
 */
export async function requestPasswordReset(
  deps: Pick<IdentityDeps, 'identity' | 'mailer' | 'logger'>,
  email: string,
  requestId: string,
  now: string,
) {
  const { identity } = deps;
  const userId = await identity.userIdByEmail(email);
  const user = userId ? await identity.loadUser(userId) : null;
  if (!userId || !user || user.status === 3) return { known: false, position: null };
  const code = randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', '');
  const { position } = await identity.user(
    {
      type: 'RequestPasswordReset',
      data: {
        userId,
        resetCodeHash: hashCode(code),
        expiresAt: new Date(Date.parse(now) + RESET_TTL_MS).toISOString(),
        now,
      },
    },
    null,
    now,
    metadataFor({ userId, organizationId: user.organizationId }, requestId, now),
  );
  await deps.mailer
    .send(resetCodeMail(user, code))
    .catch((err) => deps.logger.error({ err, requestId }, 'reset e-mail could not be sent'));
  return { known: true, position };
}

/** Sets a new password with a reset code; every session of the user ends. */
export async function resetPassword(
  deps: Pick<IdentityDeps, 'identity' | 'database' | 'tokens'>,
  input: { code: string; newPassword: string },
  requestId: string,
  now: string,
) {
  const codeHash = hashCode(input.code);
  const row = await userByResetCode(deps.database.db, codeHash);
  if (!row) throw ValidationError.field('code', 'Invalid or expired reset code');
  const { position } = await deps.identity.user(
    {
      type: 'ResetPassword',
      data: {
        userId: row.id,
        resetCodeHash: codeHash,
        newPasswordHash: await hashPassword(input.newPassword),
        now,
      },
    },
    null,
    now,
    metadataFor({ userId: row.id, organizationId: row.organization_id }, requestId, now),
  );
  // Whoever knew the old password is signed out.
  await deps.tokens.revokeAllForUser(row.id);
  return { position };
}
