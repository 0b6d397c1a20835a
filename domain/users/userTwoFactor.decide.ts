/**
 * The user's two-factor sign-in rules: setting up a TOTP secret, turning it on and off, and using a
 * code or a recovery code at sign-in. Codes and secrets are checked outside, where the keys live;
 * these decisions guard the order of steps and that no code is used twice.
 */
import { IllegalStateError, UnauthorizedError } from '../shared/errors.ts';
import type { Command } from '../shared/event.ts';
import type { RegisteredUser, UserEvent } from './user.ts';

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

export type TwoFactorCommand =
  | StartTwoFactorSetup
  | EnableTwoFactor
  | DisableTwoFactor
  | UseTwoFactorCode
  | UseRecoveryCode;

export const startTwoFactorSetup = (
  { data }: StartTwoFactorSetup,
  user: RegisteredUser,
): UserEvent[] => {
  if (user.twoFactor.sealedSecret) throw new IllegalStateError(TWO_FACTOR_ALREADY_ON);
  return [
    {
      type: 'TwoFactorSetupStarted',
      data: { userId: user.userId, sealedSecret: data.sealedSecret, startedAt: data.now },
    },
  ];
};

export const enableTwoFactor = ({ data }: EnableTwoFactor, user: RegisteredUser): UserEvent[] => {
  if (user.twoFactor.sealedSecret) throw new IllegalStateError(TWO_FACTOR_ALREADY_ON);
  if (!user.twoFactor.pendingSecret) throw new IllegalStateError(TWO_FACTOR_NOT_STARTED);
  return [
    {
      type: 'TwoFactorEnabled',
      data: {
        userId: user.userId,
        recoveryCodeHashes: data.recoveryCodeHashes,
        step: data.step,
        enabledAt: data.now,
      },
    },
  ];
};

export const disableTwoFactor = ({ data }: DisableTwoFactor, user: RegisteredUser): UserEvent[] => {
  if (!user.twoFactor.sealedSecret) throw new IllegalStateError(TWO_FACTOR_OFF);
  return [{ type: 'TwoFactorDisabled', data: { userId: user.userId, disabledAt: data.now } }];
};

// A code already used (its step or an earlier one) is refused like a wrong one: a code seen over a
// shoulder or in a proxy's log does not sign in a second time.
export const useTwoFactorCode = ({ data }: UseTwoFactorCode, user: RegisteredUser): UserEvent[] => {
  if (!user.twoFactor.sealedSecret) throw new IllegalStateError(TWO_FACTOR_OFF);
  if (data.step <= user.twoFactor.lastStep) throw new UnauthorizedError(INVALID_TWO_FACTOR_CODE);
  return [
    { type: 'TwoFactorCodeUsed', data: { userId: user.userId, step: data.step, usedAt: data.now } },
  ];
};

export const useRecoveryCode = ({ data }: UseRecoveryCode, user: RegisteredUser): UserEvent[] => {
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
