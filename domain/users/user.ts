/**
 * The user aggregate (stream `user-<uuid>`): one person's account, its role and organization, its
 * status, its password hash, the one-time codes of sign-up confirmation and password reset, its
 * second factor (a sealed TOTP secret and hashed recovery codes).
 * Hashes are computed outside the domain; the decider only compares them.
 */
import { GenericStatus, type RoleId } from '../catalog.ts';
import { assertNever, type Event } from '../shared/event.ts';

export const userStream = (userId: string): string => `user-${userId}`;

/** Users use the generic statuses 1 Pending, 2 Active, 3 Blocked. */
export type UserStatus =
  | typeof GenericStatus.Pending
  | typeof GenericStatus.Active
  | typeof GenericStatus.Blocked;

const statusNames: Record<UserStatus, string> = { 1: 'Pending', 2: 'Active', 3: 'Blocked' };
export const userStatusName = (status: UserStatus): string => statusNames[status];

/** A one-time code as the domain keeps it: its hash and the ISO time it stops working. */
export type OneTimeCode = { codeHash: string; expiresAt: string };

export type UserRegistered = Event<
  'UserRegistered',
  {
    userId: string;
    email: string;
    username: string;
    name: string;
    phone: string;
    roleId: RoleId;
    /** Null only for a Superadmin. */
    organizationId: string | null;
    passwordHash: string;
    /** Pending after self-registration, Active when an administrator created the user. */
    status: typeof GenericStatus.Pending | typeof GenericStatus.Active;
    /** The e-mailed sign-up code; null when none was sent (created by an administrator). */
    confirmation: OneTimeCode | null;
    registeredAt: string;
  }
>;
export type SignupConfirmed = Event<'SignupConfirmed', { userId: string; confirmedAt: string }>;
/** A fresh sign-up code replaces the one still waiting; the earlier code stops working. */
export type SignupCodeResent = Event<
  'SignupCodeResent',
  { userId: string; confirmation: OneTimeCode; resentAt: string }
>;
/**
 * A self-registration whose code expired unconfirmed gave way to a new registration with its e-mail
 * or username: the user is gone (as if deleted), and its e-mail and username are released.
 */
export type SignupLapsed = Event<'SignupLapsed', { userId: string; lapsedAt: string }>;
export type UserActivated = Event<'UserActivated', { userId: string; activatedAt: string }>;
export type UserBlocked = Event<'UserBlocked', { userId: string; blockedAt: string }>;
export type UserUpdated = Event<
  'UserUpdated',
  {
    userId: string;
    email: string;
    username: string;
    name: string;
    phone: string;
    updatedAt: string;
  }
>;
export type PasswordChanged = Event<
  'PasswordChanged',
  { userId: string; passwordHash: string; changedAt: string }
>;
export type PasswordResetRequested = Event<
  'PasswordResetRequested',
  { userId: string; resetCodeHash: string; expiresAt: string; requestedAt: string }
>;
export type PasswordReset = Event<
  'PasswordReset',
  { userId: string; passwordHash: string; resetAt: string }
>;
export type UserDeleted = Event<'UserDeleted', { userId: string; deletedAt: string }>;
/**
 * Two-factor enrolment begun: a new TOTP secret, sealed with the server's key (never in clear), waits
 * for its first code. Nothing is on until `TwoFactorEnabled`; a new setup replaces a waiting one.
 */
export type TwoFactorSetupStarted = Event<
  'TwoFactorSetupStarted',
  { userId: string; sealedSecret: string; startedAt: string }
>;
/** The waiting secret answered a right code: sign-in asks for a code from now on. Recovery codes only as hashes. */
export type TwoFactorEnabled = Event<
  'TwoFactorEnabled',
  {
    userId: string;
    recoveryCodeHashes: string[];
    /** The TOTP step of the confirming code: it is not accepted again at sign-in. */
    step: number;
    enabledAt: string;
  }
>;
export type TwoFactorDisabled = Event<'TwoFactorDisabled', { userId: string; disabledAt: string }>;
/** A TOTP code accepted at sign-in (its 30-second step): that step and the earlier ones are refused from now on. */
export type TwoFactorCodeUsed = Event<
  'TwoFactorCodeUsed',
  { userId: string; step: number; usedAt: string }
>;
/** A recovery code spent at sign-in (its hash): it works once. */
export type RecoveryCodeUsed = Event<
  'RecoveryCodeUsed',
  { userId: string; codeHash: string; remaining: number; usedAt: string }
>;

export type UserEvent =
  | UserRegistered
  | SignupConfirmed
  | SignupCodeResent
  | SignupLapsed
  | UserActivated
  | UserBlocked
  | UserUpdated
  | PasswordChanged
  | PasswordResetRequested
  | PasswordReset
  | UserDeleted
  | TwoFactorSetupStarted
  | TwoFactorEnabled
  | TwoFactorDisabled
  | TwoFactorCodeUsed
  | RecoveryCodeUsed;

/** The user's second factor: the sealed TOTP secret once on, the one waiting for its first code, the unused recovery codes. */
export type TwoFactor = {
  /** The sealed secret sign-in checks codes against; null while two-factor is off. */
  sealedSecret: string | null;
  /** The sealed secret of an enrolment waiting for its first code, else null. */
  pendingSecret: string | null;
  recoveryCodeHashes: string[];
  /** The last TOTP step accepted: it and the earlier ones are refused (replay). */
  lastStep: number;
};
export const noTwoFactor = (): TwoFactor => ({
  sealedSecret: null,
  pendingSecret: null,
  recoveryCodeHashes: [],
  lastStep: 0,
});

export type RegisteredUser = {
  registered: true;
  /** A deleted user stays deleted: every further command answers 404. */
  deleted: boolean;
  userId: string;
  email: string;
  username: string;
  name: string;
  phone: string;
  roleId: RoleId;
  organizationId: string | null;
  passwordHash: string;
  status: UserStatus;
  emailConfirmed: boolean;
  /** The sign-up code still waiting for confirmation, else null. */
  confirmation: OneTimeCode | null;
  /** The latest unused password reset code, else null (single use). */
  passwordReset: OneTimeCode | null;
  /**
   * Refresh tokens issued before this time are refused (the token layer compares). Bumped by a
   * block, a password change or reset, and a deletion; null while nothing revoked them.
   */
  sessionsRevokedAt: string | null;
  registeredAt: string;
  twoFactor: TwoFactor;
};
export type User = { registered: false } | RegisteredUser;

export const initialUser = (): User => ({ registered: false });

export const evolveUser = (state: User, event: UserEvent): User => {
  if (event.type === 'UserRegistered') {
    const { confirmation, registeredAt, status, ...profile } = event.data;
    return {
      registered: true,
      deleted: false,
      ...profile,
      status,
      confirmation,
      registeredAt,
      // Nobody will ever send a code to a user created without one, so its address counts as confirmed.
      emailConfirmed: confirmation === null,
      passwordReset: null,
      sessionsRevokedAt: null,
      twoFactor: noTwoFactor(),
    };
  }
  if (!state.registered) return state;
  switch (event.type) {
    case 'SignupConfirmed':
      return { ...state, emailConfirmed: true, confirmation: null };
    case 'SignupCodeResent':
      return { ...state, confirmation: event.data.confirmation };
    case 'SignupLapsed':
      return { ...state, deleted: true, confirmation: null };
    case 'UserActivated':
      return { ...state, status: GenericStatus.Active };
    case 'UserBlocked':
      return { ...state, status: GenericStatus.Blocked, sessionsRevokedAt: event.data.blockedAt };
    case 'UserUpdated': {
      const { email, username, name, phone } = event.data;
      return { ...state, email, username, name, phone };
    }
    case 'PasswordChanged':
      return {
        ...state,
        passwordHash: event.data.passwordHash,
        sessionsRevokedAt: event.data.changedAt,
      };
    case 'PasswordResetRequested':
      return {
        ...state,
        passwordReset: { codeHash: event.data.resetCodeHash, expiresAt: event.data.expiresAt },
      };
    case 'PasswordReset':
      return {
        ...state,
        passwordHash: event.data.passwordHash,
        passwordReset: null,
        sessionsRevokedAt: event.data.resetAt,
      };
    case 'UserDeleted':
      return { ...state, deleted: true, sessionsRevokedAt: event.data.deletedAt };
    case 'TwoFactorSetupStarted':
      return {
        ...state,
        twoFactor: { ...state.twoFactor, pendingSecret: event.data.sealedSecret },
      };
    case 'TwoFactorEnabled':
      return {
        ...state,
        twoFactor: {
          ...state.twoFactor,
          sealedSecret: state.twoFactor.pendingSecret,
          pendingSecret: null,
          recoveryCodeHashes: event.data.recoveryCodeHashes,
          lastStep: Math.max(state.twoFactor.lastStep, event.data.step),
        },
      };
    case 'TwoFactorDisabled':
      return { ...state, twoFactor: { ...noTwoFactor(), lastStep: state.twoFactor.lastStep } };
    case 'TwoFactorCodeUsed':
      return {
        ...state,
        twoFactor: {
          ...state.twoFactor,
          lastStep: Math.max(state.twoFactor.lastStep, event.data.step),
        },
      };
    case 'RecoveryCodeUsed':
      return {
        ...state,
        twoFactor: {
          ...state.twoFactor,
          recoveryCodeHashes: state.twoFactor.recoveryCodeHashes.filter(
            (hash) => hash !== event.data.codeHash,
          ),
        },
      };
    default:
      return assertNever(event);
  }
};
