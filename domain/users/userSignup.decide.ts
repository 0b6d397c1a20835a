/**
 * A self-registration's confirmation code: confirming the e-mail with it, sending a new one, and
 * ending a registration whose code expired unconfirmed so that its e-mail and username are free.
 */
import { GenericStatus } from '../catalog.ts';
import { GoneError, IllegalStateError, ValidationError } from '../shared/errors.ts';
import type { Command } from '../shared/event.ts';
import type { OneTimeCode, RegisteredUser, UserEvent } from './user.ts';

export const INVALID_CONFIRMATION_CODE = 'Invalid confirmation code';
export const CONFIRMATION_CODE_EXPIRED = 'Code expired, please register again';
export const EMAIL_ALREADY_CONFIRMED = 'Email is already confirmed';
export const SIGNUP_NOT_LAPSED = 'This registration is still waiting for its code';

export type ConfirmSignup = Command<
  'ConfirmSignup',
  { userId: string; codeHash: string; now: string }
>;
/** A new sign-up code (its hash and expiry) for a registration still waiting for one. */
export type ResendSignupCode = Command<
  'ResendSignupCode',
  { userId: string; confirmation: OneTimeCode; now: string }
>;
/** Ends a self-registration whose code expired unconfirmed, so that its e-mail and username are free again. */
export type LapseSignup = Command<'LapseSignup', { userId: string; now: string }>;

export type SignupCommand = ConfirmSignup | ResendSignupCode | LapseSignup;

/** Expired at `expiresAt` itself; a time that cannot be read counts as expired. */
export const hasExpired = (expiresAt: string, now: string): boolean =>
  !(Date.parse(now) < Date.parse(expiresAt));

// Whoever does not hold the code must not learn whether the address has an account (an unknown
// address answers the wrong code's 400 too): an account confirmed already, or made without a code,
// and a wrong code past the expiry, answer as a wrong code. Only the right code past its expiry
// answers 410 (register again): that tells its owner nothing new.
export const confirmSignup = ({ data }: ConfirmSignup, user: RegisteredUser): UserEvent[] => {
  if (user.emailConfirmed || !user.confirmation)
    throw ValidationError.field('code', INVALID_CONFIRMATION_CODE);
  if (data.codeHash !== user.confirmation.codeHash)
    throw ValidationError.field('code', INVALID_CONFIRMATION_CODE);
  if (hasExpired(user.confirmation.expiresAt, data.now))
    throw new GoneError(CONFIRMATION_CODE_EXPIRED);
  return [{ type: 'SignupConfirmed', data: { userId: user.userId, confirmedAt: data.now } }];
};

/**
 * A self-registration waiting for its code: the e-mail not confirmed, a code sent, and the user
 * Pending (an administrator has not let it in or blocked it meanwhile).
 */
export const isWaitingForCode = (user: RegisteredUser): boolean =>
  !user.deleted &&
  !user.emailConfirmed &&
  user.confirmation !== null &&
  user.status === GenericStatus.Pending;

/** A registration waiting for a code that has expired: a new registration may take its place. */
export const hasLapsed = (user: RegisteredUser, now: string): boolean =>
  isWaitingForCode(user) && hasExpired(user.confirmation!.expiresAt, now);

// Also once the code expired: until a new registration takes its place, the registration can still
// be finished with a new code.
export const resendSignupCode = ({ data }: ResendSignupCode, user: RegisteredUser): UserEvent[] => {
  if (!isWaitingForCode(user)) throw new IllegalStateError(EMAIL_ALREADY_CONFIRMED);
  return [
    {
      type: 'SignupCodeResent',
      data: { userId: user.userId, confirmation: data.confirmation, resentAt: data.now },
    },
  ];
};

export const lapseSignup = ({ data }: LapseSignup, user: RegisteredUser): UserEvent[] => {
  if (!hasLapsed(user, data.now)) throw new IllegalStateError(SIGNUP_NOT_LAPSED);
  return [{ type: 'SignupLapsed', data: { userId: user.userId, lapsedAt: data.now } }];
};
