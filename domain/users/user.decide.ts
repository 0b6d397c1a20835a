/**
 * The user account's rules: a pure decide per command over the state built by `evolveUser` —
 * registration, activation and blocking, details, passwords and deletion.
 * The sign-up code (userSignup.decide.ts) and two-factor sign-in (userTwoFactor.decide.ts) decisions
 * live in their own modules and are combined here.
 */
import { GenericStatus, Role, isRoleId, nameById, roles, type RoleId } from '../catalog.ts';
import { IllegalStateError, NotFoundError, ValidationError } from '../shared/errors.ts';
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
import {
  disableTwoFactor,
  enableTwoFactor,
  startTwoFactorSetup,
  useRecoveryCode,
  useTwoFactorCode,
  type TwoFactorCommand,
} from './userTwoFactor.decide.ts';
import {
  confirmSignup,
  hasExpired,
  lapseSignup,
  resendSignupCode,
  type ConfirmSignup,
  type LapseSignup,
  type ResendSignupCode,
} from './userSignup.decide.ts';

export {
  CONFIRMATION_CODE_EXPIRED,
  EMAIL_ALREADY_CONFIRMED,
  INVALID_CONFIRMATION_CODE,
  SIGNUP_NOT_LAPSED,
  hasExpired,
  hasLapsed,
  isWaitingForCode,
  type ConfirmSignup,
  type LapseSignup,
  type ResendSignupCode,
  type SignupCommand,
} from './userSignup.decide.ts';
export {
  INVALID_TWO_FACTOR_CODE,
  TWO_FACTOR_ALREADY_ON,
  TWO_FACTOR_NOT_STARTED,
  TWO_FACTOR_OFF,
  type DisableTwoFactor,
  type EnableTwoFactor,
  type StartTwoFactorSetup,
  type TwoFactorCommand,
  type UseRecoveryCode,
  type UseTwoFactorCode,
} from './userTwoFactor.decide.ts';

export const INVALID_RESET_CODE = 'Invalid or expired reset code';

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
  | TwoFactorCommand;

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
      return startTwoFactorSetup(command, user);
    case 'EnableTwoFactor':
      return enableTwoFactor(command, user);
    case 'DisableTwoFactor':
      return disableTwoFactor(command, user);
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
