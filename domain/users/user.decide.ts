import { GenericStatus, Role, isRoleId, nameById, roles, type RoleId } from '../catalog.ts';
import {
  GoneError,
  IllegalStateError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from '../shared/errors.ts';
import { assertNever, type Command, type Decider } from '../shared/event.ts';
import {
  evolveUser,
  initialUser,
  userStatusName,
  type OneTimeCode,
  type RegisteredUser,
  type User,
  type UserEvent,
} from './user.ts';

export const INVALID_CONFIRMATION_CODE = 'Invalid confirmation code';
export const CONFIRMATION_CODE_EXPIRED = 'Code expired, please register again';
export const INVALID_RESET_CODE = 'Invalid or expired reset code';
export const EMAIL_ALREADY_CONFIRMED = 'Email is already confirmed';
export const SIGNUP_NOT_LAPSED = 'This registration is still waiting for its code';

export type RegisterUser = Command<
  'RegisterUser',
  {
    userId: string;
    email: string;
    username: string;
    name: string;
    phone: string;
    roleId: RoleId;
    /** Required for every role but Superadmin. */
    organizationId: string | null;
    passwordHash: string;
    status: typeof GenericStatus.Pending | typeof GenericStatus.Active;
    confirmation: OneTimeCode | null;
    now: string;
  }
>;
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
export type ActivateUser = Command<'ActivateUser', { userId: string; now: string }>;
export type BlockUser = Command<'BlockUser', { userId: string; now: string }>;
/** The account's full new details; a caller that does not edit the username sends the current one. */
export type UpdateUser = Command<
  'UpdateUser',
  { userId: string; email: string; username: string; name: string; phone: string; now: string }
>;
/** The old password is checked outside, where the hash function lives. */
export type ChangePassword = Command<
  'ChangePassword',
  { userId: string; passwordHash: string; now: string }
>;
export type RequestPasswordReset = Command<
  'RequestPasswordReset',
  { userId: string; resetCodeHash: string; expiresAt: string; now: string }
>;
export type ResetPassword = Command<
  'ResetPassword',
  { userId: string; resetCodeHash: string; newPasswordHash: string; now: string }
>;
/** `hasOpenTour` is read outside (from the tours) and passed in. */
export type DeleteUser = Command<
  'DeleteUser',
  { userId: string; hasOpenTour: boolean; now: string }
>;

/** A new TOTP secret (sealed outside, where the key lives) waiting for its first code. */
export type StartTwoFactorSetup = Command<
  'StartTwoFactorSetup',
  { userId: string; sealedSecret: string; now: string }
>;
/** The waiting secret's first code was checked outside; the recovery codes' hashes. */
export type EnableTwoFactor = Command<
  'EnableTwoFactor',
  { userId: string; recoveryCodeHashes: string[]; step: number; now: string }
>;
/** Password and code were checked outside. */
export type DisableTwoFactor = Command<'DisableTwoFactor', { userId: string; now: string }>;
/** A TOTP code that matched at `step` (checked outside): refused when that step was used already. */
export type UseTwoFactorCode = Command<
  'UseTwoFactorCode',
  { userId: string; step: number; now: string }
>;
export type UseRecoveryCode = Command<
  'UseRecoveryCode',
  { userId: string; codeHash: string; now: string }
>;

export const TWO_FACTOR_ALREADY_ON = 'Two-factor sign-in is already on';
export const TWO_FACTOR_OFF = 'Two-factor sign-in is not on';
export const TWO_FACTOR_NOT_STARTED = 'Start the two-factor setup first';
export const INVALID_TWO_FACTOR_CODE = 'The code is not valid';

export type UserCommand =
  | RegisterUser
  | ConfirmSignup
  | ResendSignupCode
  | LapseSignup
  | ActivateUser
  | BlockUser
  | UpdateUser
  | ChangePassword
  | RequestPasswordReset
  | ResetPassword
  | DeleteUser
  | StartTwoFactorSetup
  | EnableTwoFactor
  | DisableTwoFactor
  | UseTwoFactorCode
  | UseRecoveryCode;

export const decideUser = (command: UserCommand, state: User): UserEvent[] => {
  if (command.type === 'RegisterUser') return registerUser(command, state);
  const user = existing(state);
  switch (command.type) {
    case 'ConfirmSignup':
      return confirmSignup(command, user);
    case 'ResendSignupCode':
      return resendSignupCode(command, user);
    case 'LapseSignup':
      return lapseSignup(command, user);
    case 'ActivateUser':
      return activateUser(command, user);
    case 'BlockUser':
      return blockUser(command, user);
    case 'UpdateUser':
      return updateUser(command, user);
    case 'ChangePassword':
      return [
        {
          type: 'PasswordChanged',
          data: {
            userId: user.userId,
            passwordHash: command.data.passwordHash,
            changedAt: command.data.now,
          },
        },
      ];
    case 'RequestPasswordReset':
      return requestPasswordReset(command, user);
    case 'ResetPassword':
      return resetPassword(command, user);
    case 'DeleteUser':
      return deleteUser(command, user);
    case 'StartTwoFactorSetup':
      if (user.twoFactor.sealedSecret) throw new IllegalStateError(TWO_FACTOR_ALREADY_ON);
      return [
        {
          type: 'TwoFactorSetupStarted',
          data: {
            userId: user.userId,
            sealedSecret: command.data.sealedSecret,
            startedAt: command.data.now,
          },
        },
      ];
    case 'EnableTwoFactor':
      if (user.twoFactor.sealedSecret) throw new IllegalStateError(TWO_FACTOR_ALREADY_ON);
      if (!user.twoFactor.pendingSecret) throw new IllegalStateError(TWO_FACTOR_NOT_STARTED);
      return [
        {
          type: 'TwoFactorEnabled',
          data: {
            userId: user.userId,
            recoveryCodeHashes: command.data.recoveryCodeHashes,
            step: command.data.step,
            enabledAt: command.data.now,
          },
        },
      ];
    case 'DisableTwoFactor':
      if (!user.twoFactor.sealedSecret) throw new IllegalStateError(TWO_FACTOR_OFF);
      return [
        { type: 'TwoFactorDisabled', data: { userId: user.userId, disabledAt: command.data.now } },
      ];
    case 'UseTwoFactorCode':
      return useTwoFactorCode(command, user);
    case 'UseRecoveryCode':
      return useRecoveryCode(command, user);
    default:
      return assertNever(command);
  }
};

export const userDecider: Decider<User, UserCommand, UserEvent> = {
  initialState: initialUser,
  evolve: evolveUser,
  decide: decideUser,
};

const existing = (state: User): RegisteredUser => {
  if (!state.registered || state.deleted) throw new NotFoundError('User not found');
  return state;
};

/** Expired at `expiresAt` itself; a time that cannot be read counts as expired. */
export const hasExpired = (expiresAt: string, now: string): boolean =>
  !(Date.parse(now) < Date.parse(expiresAt));

const registerUser = ({ data }: RegisterUser, state: User): UserEvent[] => {
  if (state.registered) {
    if (state.deleted) throw new NotFoundError('User not found');
    throw new IllegalStateError(`User is already registered (${userStatusName(state.status)})`);
  }
  if (!isRoleId(data.roleId)) throw ValidationError.field('roleId', 'Please select a valid role');
  if (data.roleId !== Role.Superadmin && !data.organizationId) {
    throw ValidationError.field(
      'organizationId',
      `A ${nameById(roles, data.roleId)} belongs to an organization`,
    );
  }
  const { now, ...rest } = data;
  return [{ type: 'UserRegistered', data: { ...rest, registeredAt: now } }];
};

// Whoever does not hold the code must not learn whether the address has an account (an unknown
// address answers the wrong code's 400 too): an account confirmed already, or made without a code,
// and a wrong code past the expiry, answer as a wrong code. Only the right code past its expiry
// answers 410 (register again): that tells its owner nothing new.
const confirmSignup = ({ data }: ConfirmSignup, user: RegisteredUser): UserEvent[] => {
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
const resendSignupCode = ({ data }: ResendSignupCode, user: RegisteredUser): UserEvent[] => {
  if (!isWaitingForCode(user)) throw new IllegalStateError(EMAIL_ALREADY_CONFIRMED);
  return [
    {
      type: 'SignupCodeResent',
      data: { userId: user.userId, confirmation: data.confirmation, resentAt: data.now },
    },
  ];
};

const lapseSignup = ({ data }: LapseSignup, user: RegisteredUser): UserEvent[] => {
  if (!hasLapsed(user, data.now)) throw new IllegalStateError(SIGNUP_NOT_LAPSED);
  return [{ type: 'SignupLapsed', data: { userId: user.userId, lapsedAt: data.now } }];
};

const activateUser = ({ data }: ActivateUser, user: RegisteredUser): UserEvent[] => {
  if (user.status === GenericStatus.Active) throw new IllegalStateError('User is already Active');
  return [{ type: 'UserActivated', data: { userId: user.userId, activatedAt: data.now } }];
};

const blockUser = ({ data }: BlockUser, user: RegisteredUser): UserEvent[] => {
  if (user.status === GenericStatus.Blocked) throw new IllegalStateError('User is already Blocked');
  return [{ type: 'UserBlocked', data: { userId: user.userId, blockedAt: data.now } }];
};

/** Saving unchanged details records nothing. */
const updateUser = ({ data }: UpdateUser, user: RegisteredUser): UserEvent[] => {
  const { email, username, name, phone, now } = data;
  if (
    email === user.email &&
    username === user.username &&
    name === user.name &&
    phone === user.phone
  )
    return [];
  return [
    {
      type: 'UserUpdated',
      data: { userId: user.userId, email, username, name, phone, updatedAt: now },
    },
  ];
};

/** A new request replaces an earlier code, which stops working. */
const requestPasswordReset = (
  { data }: RequestPasswordReset,
  user: RegisteredUser,
): UserEvent[] => [
  {
    type: 'PasswordResetRequested',
    data: {
      userId: user.userId,
      resetCodeHash: data.resetCodeHash,
      expiresAt: data.expiresAt,
      requestedAt: data.now,
    },
  },
];

// One message for unknown, used and expired codes: the answer must not tell which.
const resetPassword = ({ data }: ResetPassword, user: RegisteredUser): UserEvent[] => {
  const pending = user.passwordReset;
  if (
    !pending ||
    pending.codeHash !== data.resetCodeHash ||
    hasExpired(pending.expiresAt, data.now)
  ) {
    throw ValidationError.field('code', INVALID_RESET_CODE);
  }
  return [
    {
      type: 'PasswordReset',
      data: { userId: user.userId, passwordHash: data.newPasswordHash, resetAt: data.now },
    },
  ];
};

const deleteUser = ({ data }: DeleteUser, user: RegisteredUser): UserEvent[] => {
  if (user.roleId !== Role.Driver)
    throw new IllegalStateError(
      `Only a Driver can be deleted; this user is a ${nameById(roles, user.roleId)}`,
    );
  if (data.hasOpenTour)
    throw new IllegalStateError('The driver has an open tour and cannot be deleted');
  return [{ type: 'UserDeleted', data: { userId: user.userId, deletedAt: data.now } }];
};

// A code already used (its step or an earlier one) is refused like a wrong one: a code seen over a
// shoulder or in a proxy's log does not sign in a second time.
const useTwoFactorCode = ({ data }: UseTwoFactorCode, user: RegisteredUser): UserEvent[] => {
  if (!user.twoFactor.sealedSecret) throw new IllegalStateError(TWO_FACTOR_OFF);
  if (data.step <= user.twoFactor.lastStep) throw new UnauthorizedError(INVALID_TWO_FACTOR_CODE);
  return [
    { type: 'TwoFactorCodeUsed', data: { userId: user.userId, step: data.step, usedAt: data.now } },
  ];
};

const useRecoveryCode = ({ data }: UseRecoveryCode, user: RegisteredUser): UserEvent[] => {
  if (!user.twoFactor.sealedSecret) throw new IllegalStateError(TWO_FACTOR_OFF);
  const { recoveryCodeHashes } = user.twoFactor;
  if (!recoveryCodeHashes.includes(data.codeHash))
    throw new UnauthorizedError(INVALID_TWO_FACTOR_CODE);
  return [
    {
      type: 'RecoveryCodeUsed',
      data: {
        userId: user.userId,
        codeHash: data.codeHash,
        remaining: recoveryCodeHashes.length - 1,
        usedAt: data.now,
      },
    },
  ];
};
