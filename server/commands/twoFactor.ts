/**
 * Two-factor sign-in: enrolment (a sealed secret waiting for its first code, then on with ten
 * recovery codes), turning it off (password and code), the second step of a sign-in (a TOTP code
 * used once, or a recovery code used once), who must enrol, and the devices a user signs in from.
 * The secret is sealed for the user (server/cluster/secretBox.ts); recovery codes are kept only as
 * hashes. Every check of a code or a password here counts against the sign-in limits.
 */
import { Role } from '../../domain/catalog.ts';
import type { RegisteredOrganization } from '../../domain/organizations/organization.ts';
import {
  INVALID_TWO_FACTOR_CODE,
  TWO_FACTOR_ALREADY_ON,
  TWO_FACTOR_NOT_STARTED,
  TWO_FACTOR_OFF,
} from '../../domain/users/user.decide.ts';
import type { RegisteredUser } from '../../domain/users/user.ts';
import {
  assertFound,
  IllegalStateError,
  UnauthorizedError,
  ValidationError,
} from '../../domain/shared/errors.ts';
import { SealedSecretError, type SecretBox } from '../cluster/secretBox.ts';
import type { Config } from '../config.ts';
import {
  deviceKeyOf,
  hashRecoveryCode,
  looksLikeRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  totpStepOf,
  twoFactorContext,
} from '../auth/twoFactor.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { metadataFor, type Caller } from './caller.ts';
import type { IdentityDeps } from './identityDeps.ts';
import { newDeviceMail } from './identityNotices.ts';
import { OLD_PASSWORD_REQUIRED_MESSAGE, OLD_PASSWORD_WRONG_MESSAGE } from './userDetails.ts';

export const TWO_FACTOR_REQUIRED = 'Enter the code from your authenticator app, or a recovery code';
export const TWO_FACTOR_ENROLMENT_REQUIRED = 'Set up two-factor sign-in first';

type Deps = Pick<IdentityDeps, 'identity' | 'loginLimiter' | 'mailer' | 'logger'> & {
  secrets: SecretBox;
  config: Pick<Config, 'superadminTwoFactor'>;
};

const signedInUser = async (deps: Pick<Deps, 'identity'>, caller: Caller) =>
  assertFound(await deps.identity.loadUser(caller.actor.userId), 'User');

/** Two-factor is on for this user. */
export const hasTwoFactor = (user: RegisteredUser) => user.twoFactor.sealedSecret !== null;

/**
 * Must enrol before anything else: a Superadmin (unless SUPERADMIN_TWO_FACTOR is off) or a member
 * of an organization that requires two-factor, without two-factor.
 */
export const mustEnrol = (
  config: Pick<Config, 'superadminTwoFactor'>,
  user: RegisteredUser,
  organization: RegisteredOrganization | null,
) =>
  !hasTwoFactor(user) &&
  ((user.roleId === Role.Superadmin && config.superadminTwoFactor) ||
    organization?.twoFactorRequired === true);

/** A new secret waiting for its first code; nothing is on until `confirmTwoFactor`. */
export async function startTwoFactorSetup(deps: Deps, caller: Caller, now: string) {
  const user = await signedInUser(deps, caller);
  if (hasTwoFactor(user)) throw new IllegalStateError(TWO_FACTOR_ALREADY_ON);
  const { secret, otpauthUrl, qrSvg } = await newTotpSecret(user.email);
  const { position } = await deps.identity.user(
    {
      type: 'StartTwoFactorSetup',
      data: {
        userId: user.userId,
        sealedSecret: deps.secrets.seal(secret, twoFactorContext(user.userId)),
        now,
      },
    },
    caller,
    now,
  );
  return { secret, otpauthUrl, qrSvg, position };
}

/** The waiting secret's first code turns two-factor on; the ten recovery codes are answered once, here. */
export async function confirmTwoFactor(
  deps: Deps,
  caller: Caller,
  code: string,
  address: string,
  now: string,
) {
  const user = await signedInUser(deps, caller);
  if (hasTwoFactor(user)) throw new IllegalStateError(TWO_FACTOR_ALREADY_ON);
  const pending = user.twoFactor.pendingSecret;
  if (!pending) throw new IllegalStateError(TWO_FACTOR_NOT_STARTED);
  const account = [user.email, user.username];
  deps.loginLimiter.assertAllowed(account, address);
  const secret = deps.secrets.open(pending, twoFactorContext(user.userId));
  const step = totpStepOf(secret, code, Date.parse(now));
  if (step === null) {
    deps.loginLimiter.fail(account, address);
    throw ValidationError.field('code', INVALID_TWO_FACTOR_CODE);
  }
  const recoveryCodes = newRecoveryCodes();
  const { position } = await deps.identity.user(
    {
      type: 'EnableTwoFactor',
      data: {
        userId: user.userId,
        recoveryCodeHashes: recoveryCodes.map(hashRecoveryCode),
        step,
        now,
      },
    },
    caller,
    now,
  );
  return { recoveryCodes, position };
}

/**
 * Checks a sign-in's second factor and spends it: a TOTP code (its step is not accepted again) or
 * a recovery code (it works once). A wrong, used or replayed code: 401 'The code is not valid'.
 */
export async function useSecondFactor(
  deps: Pick<Deps, 'identity' | 'secrets'>,
  user: RegisteredUser,
  code: string,
  requestId: string,
  now: string,
) {
  const { sealedSecret } = user.twoFactor;
  if (!sealedSecret) throw new IllegalStateError(TWO_FACTOR_OFF);
  const metadata = metadataFor(
    { userId: user.userId, organizationId: user.organizationId },
    requestId,
    now,
  );
  if (looksLikeRecoveryCode(code)) {
    return deps.identity.user(
      {
        type: 'UseRecoveryCode',
        data: { userId: user.userId, codeHash: hashRecoveryCode(code), now },
      },
      null,
      now,
      metadata,
    );
  }
  let secret: string;
  try {
    secret = deps.secrets.open(sealedSecret, twoFactorContext(user.userId));
  } catch (error) {
    // Sealed under a key this server no longer holds (SECRETS_KEY replaced without the old one):
    // no code of the app can be checked, a recovery code still signs in (then enrol again).
    if (!(error instanceof SealedSecretError)) throw error;
    throw new UnauthorizedError(INVALID_TWO_FACTOR_CODE);
  }
  const step = totpStepOf(secret, code, Date.parse(now));
  if (step === null) throw new UnauthorizedError(INVALID_TWO_FACTOR_CODE);
  return deps.identity.user(
    { type: 'UseTwoFactorCode', data: { userId: user.userId, step, now } },
    null,
    now,
    metadata,
  );
}

/**
 * A step that needs the member's current password and, when two-factor is on, a code of the app or
 * a recovery code (turning two-factor off; a new contact e-mail or phone for the organization): each
 * checked like a sign-in and counted against its limits, the code spent. A missing or wrong one is
 * a 400 naming `password` or `code`.
 */
export async function confirmPasswordAndCode(
  deps: Pick<Deps, 'identity' | 'secrets' | 'loginLimiter'>,
  user: RegisteredUser,
  input: { password?: string | undefined; code?: string | undefined },
  address: string,
  requestId: string,
  now: string,
) {
  if (!input.password) throw ValidationError.field('password', OLD_PASSWORD_REQUIRED_MESSAGE);
  const account = [user.email, user.username];
  deps.loginLimiter.assertAllowed(account, address);
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    deps.loginLimiter.fail(account, address);
    throw ValidationError.field('password', OLD_PASSWORD_WRONG_MESSAGE);
  }
  if (hasTwoFactor(user)) {
    const code = input.code?.trim();
    if (!code) throw ValidationError.field('code', TWO_FACTOR_REQUIRED);
    try {
      await useSecondFactor(deps, user, code, requestId, now);
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
      deps.loginLimiter.fail(account, address);
      throw ValidationError.field('code', INVALID_TWO_FACTOR_CODE);
    }
  }
  deps.loginLimiter.succeed(account);
}

/** Turns two-factor off: the current password and a code (TOTP or recovery), both limited like a sign-in. */
export async function disableTwoFactor(
  deps: Deps,
  caller: Caller,
  input: { password: string; code: string },
  address: string,
  now: string,
) {
  const user = await signedInUser(deps, caller);
  if (!hasTwoFactor(user)) throw new IllegalStateError(TWO_FACTOR_OFF);
  await confirmPasswordAndCode(deps, user, input, address, caller.requestId, now);
  const { position } = await deps.identity.user(
    { type: 'DisableTwoFactor', data: { userId: user.userId, now } },
    caller,
    now,
  );
  return { position };
}

/**
 * Remembers the sign-in's device (browser and address) in `known_devices`, like a session (nothing
 * in the log); a device not seen before is e-mailed to the user, unless it is the user's first
 * (nothing to compare with yet).
 */
export async function recogniseDevice(
  deps: Pick<IdentityDeps, 'database' | 'mailer' | 'logger'>,
  user: RegisteredUser,
  device: { userAgent: string; address: string },
  requestId: string,
  now: string,
) {
  const userAgent = device.userAgent.slice(0, 300);
  const { address } = device;
  const at = new Date(now);
  const { db } = deps.database;
  const inserted = await db
    .insertInto('known_devices')
    .values({
      user_id: user.userId,
      device_key: deviceKeyOf(userAgent, address),
      user_agent: userAgent,
      address,
      first_seen_at: at,
      last_seen_at: at,
    })
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'device_key']).doUpdateSet({ last_seen_at: at }),
    )
    .returning(['first_seen_at'])
    .executeTakeFirst();
  if (!inserted || inserted.first_seen_at.getTime() !== at.getTime()) return;
  const others = await db
    .selectFrom('known_devices')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', user.userId)
    .executeTakeFirstOrThrow();
  if (Number(others.count) <= 1) return;
  await deps.mailer
    .send(newDeviceMail({ user, userAgent, address, now }))
    .catch((err) => deps.logger.error({ err, requestId }, 'new-device e-mail could not be sent'));
}
