import t from 'tap';
import {
  GoneError,
  IllegalStateError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import { hasExpired, userDecider, type RegisterUser, type UserCommand } from './user.decide.ts';
import {
  evolveUser,
  initialUser,
  userStream,
  type UserEvent,
  type UserRegistered,
} from './user.ts';

const given = specFor(userDecider);
const userId = '7d3c1b2a-1f2e-4d3c-9b8a-7f6e5d4c3b2a';
const organizationId = '5b0c3c1e-6a55-4b1e-9d6c-0c7f0d6f9a01';
const now = '2026-12-01T10:00:00.000Z';
const beforeExpiry = '2026-12-01T10:20:00.000Z';
const expiresAt = '2026-12-01T10:30:00.000Z';
const afterExpiry = '2026-12-01T10:30:00.001Z';
const later = '2026-12-02T08:00:00.000Z';

const profile = {
  email: 'ann@haul.example',
  username: 'ann',
  name: 'Ann Lee',
  phone: '555-555-5555',
};
const register: RegisterUser = {
  type: 'RegisterUser',
  data: {
    userId,
    ...profile,
    roleId: 3,
    organizationId,
    passwordHash: 'hash-1',
    status: 1,
    confirmation: { codeHash: 'code-hash', expiresAt },
    now,
  },
};
const registered: UserRegistered = {
  type: 'UserRegistered',
  data: {
    userId,
    ...profile,
    roleId: 3,
    organizationId,
    passwordHash: 'hash-1',
    status: 1,
    confirmation: { codeHash: 'code-hash', expiresAt },
    registeredAt: now,
  },
};
const driverCreated: UserRegistered = {
  type: 'UserRegistered',
  data: { ...registered.data, roleId: 4, status: 2, confirmation: null },
};
const confirmed: UserEvent = {
  type: 'SignupConfirmed',
  data: { userId, confirmedAt: beforeExpiry },
};
const activated: UserEvent = { type: 'UserActivated', data: { userId, activatedAt: later } };
const blocked: UserEvent = { type: 'UserBlocked', data: { userId, blockedAt: later } };
const deleted: UserEvent = { type: 'UserDeleted', data: { userId, deletedAt: later } };
const resetRequested: UserEvent = {
  type: 'PasswordResetRequested',
  data: { userId, resetCodeHash: 'reset-hash', expiresAt, requestedAt: now },
};
const passwordReset: UserEvent = {
  type: 'PasswordReset',
  data: { userId, passwordHash: 'hash-2', resetAt: beforeExpiry },
};

const confirm = (codeHash: string, at: string): UserCommand => ({
  type: 'ConfirmSignup',
  data: { userId, codeHash, now: at },
});
const activate: UserCommand = { type: 'ActivateUser', data: { userId, now: later } };
const block: UserCommand = { type: 'BlockUser', data: { userId, now: later } };
const update = (changes: Partial<typeof profile>): UserCommand => ({
  type: 'UpdateUser',
  data: { userId, ...profile, ...changes, now: later },
});
const changePassword: UserCommand = {
  type: 'ChangePassword',
  data: { userId, passwordHash: 'hash-2', now: later },
};
const requestReset: UserCommand = {
  type: 'RequestPasswordReset',
  data: { userId, resetCodeHash: 'reset-hash', expiresAt, now },
};
const reset = (resetCodeHash: string, at: string): UserCommand => ({
  type: 'ResetPassword',
  data: { userId, resetCodeHash, newPasswordHash: 'hash-2', now: at },
});
const deleteUser = (hasOpenTour: boolean): UserCommand => ({
  type: 'DeleteUser',
  data: { userId, hasOpenTour, now: later },
});

t.test('stream name', async (t) => t.equal(userStream(userId), `user-${userId}`));

t.test('RegisterUser', async (t) => {
  t.test('a self-registered user is Pending with a confirmation code', async () =>
    given([]).when(register).then([registered]),
  );
  t.test('a Superadmin needs no organization', async () =>
    given([])
      .when({
        type: 'RegisterUser',
        data: { ...register.data, roleId: 1, organizationId: null, status: 2, confirmation: null },
      })
      .then([
        {
          type: 'UserRegistered',
          data: {
            ...registered.data,
            roleId: 1,
            organizationId: null,
            status: 2,
            confirmation: null,
          },
        },
      ]),
  );
  t.test('refuses another role without an organization', async () =>
    given([])
      .when({ type: 'RegisterUser', data: { ...register.data, organizationId: null } })
      .thenThrows(ValidationError, /Carrier belongs to an organization/),
  );
  t.test('refuses an unknown role', async () =>
    given([])
      .when({ type: 'RegisterUser', data: { ...register.data, roleId: 9 as never } })
      .thenThrows(ValidationError, /valid role/),
  );
  t.test('refuses a second registration', async () =>
    given([registered])
      .when(register)
      .thenThrows(IllegalStateError, /already registered \(Pending\)/),
  );
});

t.test('ConfirmSignup', async (t) => {
  t.test('the right code before expiry confirms the e-mail', async () =>
    given([registered]).when(confirm('code-hash', beforeExpiry)).then([confirmed]),
  );
  t.test('a wrong code is a 400', async () =>
    given([registered])
      .when(confirm('other-hash', beforeExpiry))
      .thenThrows(ValidationError, /^Invalid confirmation code$/),
  );
  t.test('an expired code is a 410', async () =>
    given([registered])
      .when(confirm('code-hash', afterExpiry))
      .thenThrows(GoneError, /^Code expired, please register again$/),
  );
  t.test('the code expires at its expiry time exactly', async () =>
    given([registered]).when(confirm('code-hash', expiresAt)).thenThrows(GoneError),
  );
  t.test(
    'a wrong code past the expiry is a 400, as any wrong code (only the code holder learns of the expiry)',
    async () =>
      given([registered])
        .when(confirm('other-hash', afterExpiry))
        .thenThrows(ValidationError, /^Invalid confirmation code$/),
  );
  t.test(
    'refuses a second confirmation as a wrong code (the answer does not tell the account exists)',
    async () =>
      given([registered, confirmed])
        .when(confirm('code-hash', beforeExpiry))
        .thenThrows(ValidationError, /^Invalid confirmation code$/),
  );
  t.test('refuses a user created without a code as a wrong code', async () =>
    given([driverCreated])
      .when(confirm('code-hash', beforeExpiry))
      .thenThrows(ValidationError, /^Invalid confirmation code$/),
  );
  t.test('refuses an unknown user', async () =>
    given([])
      .when(confirm('code-hash', beforeExpiry))
      .thenThrows(NotFoundError, /^User not found$/),
  );
});

t.test('ResendSignupCode', async (t) => {
  const newCode = { codeHash: 'new-code-hash', expiresAt: later };
  const resend: UserCommand = {
    type: 'ResendSignupCode',
    data: { userId, confirmation: newCode, now: afterExpiry },
  };
  const resent: UserEvent = {
    type: 'SignupCodeResent',
    data: { userId, confirmation: newCode, resentAt: afterExpiry },
  };
  t.test('a new code for a registration waiting for one, its code expired or not', async () =>
    given([registered]).when(resend).then([resent]),
  );
  t.test('the new code confirms, the earlier one is refused as a wrong code', async () => {
    given([registered, resent])
      .when(confirm('new-code-hash', afterExpiry))
      .then([{ type: 'SignupConfirmed', data: { userId, confirmedAt: afterExpiry } }]);
    given([registered, resent])
      .when(confirm('code-hash', beforeExpiry))
      .thenThrows(ValidationError, /^Invalid confirmation code$/);
  });
  t.test('refuses a confirmed account, or one made without a code', async () => {
    given([registered, confirmed])
      .when(resend)
      .thenThrows(IllegalStateError, /^Email is already confirmed$/);
    given([driverCreated]).when(resend).thenThrows(IllegalStateError);
  });
  t.test('refuses a user an administrator activated or blocked meanwhile', async () => {
    given([registered, activated]).when(resend).thenThrows(IllegalStateError);
    given([registered, blocked]).when(resend).thenThrows(IllegalStateError);
  });
});

t.test('LapseSignup', async (t) => {
  const lapse = (at: string): UserCommand => ({ type: 'LapseSignup', data: { userId, now: at } });
  const lapsed: UserEvent = { type: 'SignupLapsed', data: { userId, lapsedAt: afterExpiry } };
  t.test('a registration whose code expired unconfirmed lapses', async () =>
    given([registered]).when(lapse(afterExpiry)).then([lapsed]),
  );
  t.test('not while its code is valid', async () =>
    given([registered])
      .when(lapse(beforeExpiry))
      .thenThrows(IllegalStateError, /^This registration is still waiting for its code$/),
  );
  t.test('not once confirmed, nor after a new code', async () => {
    given([registered, confirmed]).when(lapse(afterExpiry)).thenThrows(IllegalStateError);
    given([
      registered,
      {
        type: 'SignupCodeResent',
        data: { userId, confirmation: { codeHash: 'n', expiresAt: later }, resentAt: afterExpiry },
      },
    ])
      .when(lapse(afterExpiry))
      .thenThrows(IllegalStateError);
  });
  t.test('a lapsed user is gone: every further command answers 404', async () => {
    given([registered, lapsed])
      .when(lapse(later))
      .thenThrows(NotFoundError, /^User not found$/);
    given([registered, lapsed]).when(confirm('code-hash', afterExpiry)).thenThrows(NotFoundError);
  });
});

t.test('ActivateUser', async (t) => {
  t.test('Pending becomes Active', async () =>
    given([registered]).when(activate).then([activated]),
  );
  t.test('Blocked becomes Active', async () =>
    given([registered, activated, blocked]).when(activate).then([activated]),
  );
  t.test('refuses an Active user', async () =>
    given([driverCreated])
      .when(activate)
      .thenThrows(IllegalStateError, /^User is already Active$/),
  );
});

t.test('BlockUser', async (t) => {
  t.test('Pending becomes Blocked', async () => given([registered]).when(block).then([blocked]));
  t.test('Active becomes Blocked', async () => given([driverCreated]).when(block).then([blocked]));
  t.test('refuses a Blocked user', async () =>
    given([registered, blocked])
      .when(block)
      .thenThrows(IllegalStateError, /^User is already Blocked$/),
  );
});

t.test('UpdateUser', async (t) => {
  t.test('records the new details', async () =>
    given([registered])
      .when(update({ email: 'ann.lee@haul.example', phone: '(555) 555-1234' }))
      .then([
        {
          type: 'UserUpdated',
          data: {
            userId,
            ...profile,
            email: 'ann.lee@haul.example',
            phone: '(555) 555-1234',
            updatedAt: later,
          },
        },
      ]),
  );
  t.test('unchanged details record nothing', async () =>
    given([registered]).when(update({})).then([]),
  );
  t.test('a blocked user can still be corrected by an administrator', async () =>
    given([registered, blocked])
      .when(update({ name: 'Ann B. Lee' }))
      .then([
        { type: 'UserUpdated', data: { userId, ...profile, name: 'Ann B. Lee', updatedAt: later } },
      ]),
  );
});

t.test('ChangePassword', async (t) => {
  t.test('records the new hash', async () =>
    given([registered])
      .when(changePassword)
      .then([
        { type: 'PasswordChanged', data: { userId, passwordHash: 'hash-2', changedAt: later } },
      ]),
  );
});

t.test('RequestPasswordReset', async (t) => {
  t.test('records the code hash and expiry', async () =>
    given([registered]).when(requestReset).then([resetRequested]),
  );
});

t.test('ResetPassword', async (t) => {
  t.test('the right code before expiry sets the new password', async () =>
    given([registered, resetRequested])
      .when(reset('reset-hash', beforeExpiry))
      .then([passwordReset]),
  );
  t.test('refuses when no reset was requested', async () =>
    given([registered])
      .when(reset('reset-hash', beforeExpiry))
      .thenThrows(ValidationError, /^Invalid or expired reset code$/),
  );
  t.test('refuses a wrong code', async () =>
    given([registered, resetRequested])
      .when(reset('other', beforeExpiry))
      .thenThrows(ValidationError, /^Invalid or expired reset code$/),
  );
  t.test('refuses an expired code', async () =>
    given([registered, resetRequested])
      .when(reset('reset-hash', afterExpiry))
      .thenThrows(ValidationError, /^Invalid or expired reset code$/),
  );
  t.test('a code works once', async () =>
    given([registered, resetRequested, passwordReset])
      .when(reset('reset-hash', beforeExpiry))
      .thenThrows(ValidationError, /^Invalid or expired reset code$/),
  );
  t.test('a newer request replaces the older code', async () =>
    given([
      registered,
      resetRequested,
      {
        type: 'PasswordResetRequested',
        data: { userId, resetCodeHash: 'newer', expiresAt, requestedAt: now },
      },
    ])
      .when(reset('reset-hash', beforeExpiry))
      .thenThrows(ValidationError),
  );
});

t.test('DeleteUser', async (t) => {
  t.test('a driver without an open tour is deleted', async () =>
    given([driverCreated]).when(deleteUser(false)).then([deleted]),
  );
  t.test('refuses a driver with an open tour', async () =>
    given([driverCreated])
      .when(deleteUser(true))
      .thenThrows(IllegalStateError, /open tour/),
  );
  t.test('refuses a user who is not a driver', async () =>
    given([registered])
      .when(deleteUser(false))
      .thenThrows(IllegalStateError, /Only a Driver can be deleted; this user is a Carrier/),
  );
});

t.test('a deleted user refuses every further command', async (t) => {
  const commands: UserCommand[] = [
    register,
    confirm('code-hash', beforeExpiry),
    activate,
    block,
    update({ name: 'x' }),
    changePassword,
    requestReset,
    reset('reset-hash', beforeExpiry),
    deleteUser(false),
  ];
  for (const command of commands) {
    t.test(command.type, async () =>
      given([driverCreated, deleted])
        .when(command)
        .thenThrows(NotFoundError, /^User not found$/),
    );
  }
});

t.test('an unknown user refuses every command but RegisterUser', async (t) => {
  for (const command of [
    activate,
    block,
    update({}),
    changePassword,
    requestReset,
    reset('reset-hash', beforeExpiry),
    deleteUser(false),
  ]) {
    t.test(command.type, async () => given([]).when(command).thenThrows(NotFoundError));
  }
});

t.test('evolve keeps what the token layer and the login need', async (t) => {
  const fold = (events: UserEvent[]) => events.reduce(evolveUser, initialUser());
  t.match(fold([registered]), {
    registered: true,
    deleted: false,
    status: 1,
    emailConfirmed: false,
    passwordHash: 'hash-1',
    roleId: 3,
    organizationId,
    ...profile,
    sessionsRevokedAt: null,
  });
  t.match(
    fold([driverCreated]),
    { emailConfirmed: true, status: 2 },
    'a user created without a code counts as confirmed',
  );
  t.match(
    fold([registered, confirmed]),
    { emailConfirmed: true, confirmation: null, status: 1 },
    'confirming does not activate',
  );
  t.match(
    fold([registered, blocked]),
    { status: 3, sessionsRevokedAt: later },
    'a block revokes sessions',
  );
  t.match(
    fold([registered, changePasswordEvent()]),
    { passwordHash: 'hash-3', sessionsRevokedAt: later },
    'a password change revokes sessions',
  );
  t.match(
    fold([registered, resetRequested, passwordReset]),
    { passwordHash: 'hash-2', passwordReset: null, sessionsRevokedAt: beforeExpiry },
    'a reset revokes sessions',
  );
  t.match(fold([driverCreated, deleted]), { deleted: true, sessionsRevokedAt: later });
  t.same(
    evolveUser(initialUser(), blocked),
    { registered: false },
    'ignores events before registration',
  );
});

t.test('two-factor sign-in', async (t) => {
  const started: UserEvent = {
    type: 'TwoFactorSetupStarted',
    data: { userId, sealedSecret: 'v1.sealed-1', startedAt: now },
  };
  const enabled: UserEvent = {
    type: 'TwoFactorEnabled',
    data: { userId, recoveryCodeHashes: ['r1', 'r2'], step: 100, enabledAt: now },
  };
  const on = [driverCreated, started, enabled];
  t.test('nothing is on until the waiting secret is confirmed', async () =>
    given([driverCreated])
      .when({ type: 'EnableTwoFactor', data: { userId, recoveryCodeHashes: [], step: 1, now } })
      .thenThrows(IllegalStateError, /Start the two-factor setup first/),
  );
  t.test('a setup, then its confirmation, turns it on', async () => {
    await given([driverCreated])
      .when({ type: 'StartTwoFactorSetup', data: { userId, sealedSecret: 'v1.sealed-1', now } })
      .then([started]);
    await given([driverCreated, started])
      .when({
        type: 'EnableTwoFactor',
        data: { userId, recoveryCodeHashes: ['r1', 'r2'], step: 100, now },
      })
      .then([enabled]);
  });
  t.test('a second setup while on is refused', async () =>
    given(on)
      .when({ type: 'StartTwoFactorSetup', data: { userId, sealedSecret: 'v1.sealed-2', now } })
      .thenThrows(IllegalStateError, /already on/),
  );
  t.test('a TOTP step is accepted once, and never an earlier one', async () => {
    await given(on)
      .when({ type: 'UseTwoFactorCode', data: { userId, step: 101, now: later } })
      .then([{ type: 'TwoFactorCodeUsed', data: { userId, step: 101, usedAt: later } }]);
    await given(on)
      .when({ type: 'UseTwoFactorCode', data: { userId, step: 100, now: later } })
      .thenThrows(UnauthorizedError, /The code is not valid/);
    await given([...on, { type: 'TwoFactorCodeUsed', data: { userId, step: 105, usedAt: now } }])
      .when({ type: 'UseTwoFactorCode', data: { userId, step: 104, now: later } })
      .thenThrows(UnauthorizedError, /The code is not valid/);
  });
  t.test('a recovery code works once', async () => {
    const used: UserEvent = {
      type: 'RecoveryCodeUsed',
      data: { userId, codeHash: 'r2', remaining: 1, usedAt: later },
    };
    await given(on)
      .when({ type: 'UseRecoveryCode', data: { userId, codeHash: 'r2', now: later } })
      .then([used]);
    await given([...on, used])
      .when({ type: 'UseRecoveryCode', data: { userId, codeHash: 'r2', now: later } })
      .thenThrows(UnauthorizedError, /The code is not valid/);
    await given(on)
      .when({ type: 'UseRecoveryCode', data: { userId, codeHash: 'r9', now: later } })
      .thenThrows(UnauthorizedError, /The code is not valid/);
  });
  t.test('turned off: codes no longer count, and it can be set up again', async () => {
    const disabled: UserEvent = { type: 'TwoFactorDisabled', data: { userId, disabledAt: later } };
    await given(on)
      .when({ type: 'DisableTwoFactor', data: { userId, now: later } })
      .then([disabled]);
    await given([...on, disabled])
      .when({ type: 'UseRecoveryCode', data: { userId, codeHash: 'r1', now: later } })
      .thenThrows(IllegalStateError, /not on/);
    await given([...on, disabled])
      .when({ type: 'DisableTwoFactor', data: { userId, now: later } })
      .thenThrows(IllegalStateError, /not on/);
    const fold = (events: UserEvent[]) => events.reduce(evolveUser, initialUser());
    t.match(fold([...on, disabled]), {
      twoFactor: { sealedSecret: null, pendingSecret: null, recoveryCodeHashes: [], lastStep: 100 },
    });
  });
});

t.test('hasExpired', async (t) => {
  t.equal(hasExpired(expiresAt, beforeExpiry), false);
  t.equal(hasExpired(expiresAt, expiresAt), true);
  t.equal(
    hasExpired('2026-12-01T05:30:00-05:00', '2026-12-01T10:29:59Z'),
    false,
    'compares instants, not strings',
  );
  t.equal(hasExpired('not a time', beforeExpiry), true, 'an unreadable expiry counts as expired');
});

function changePasswordEvent(): UserEvent {
  return { type: 'PasswordChanged', data: { userId, passwordHash: 'hash-3', changedAt: later } };
}
