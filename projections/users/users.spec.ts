import t from 'tap';
import { GenericStatus, Role } from '../../domain/catalog.ts';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import {
  passwordChanged,
  passwordReset,
  passwordResetRequested,
  signupConfirmed,
  userActivated,
  userBlocked,
  userDeleted,
  userRegistered,
  userUpdated,
} from '../testing/accounts.ts';
import { shipper } from '../testing/trade.ts';
import { usersProjection } from './users.projection.ts';

const spec = readModelSpec(usersProjection, openTestDatabase);
t.teardown(spec.close);

const sam = '0e9f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const kim = '0e9f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5c';
const signedUp = '2026-11-30T10:00:00.000Z';
const later = '2026-12-01T10:00:00.000Z';
const latest = '2026-12-02T10:00:00.000Z';

t.test(
  'someone signing up is Pending with the e-mail unconfirmed; confirmed, then let in',
  async () => {
    const registered = userRegistered(sam, { at: signedUp, organizationId: shipper });
    await spec.given(registered).expectRows('users_view', [
      {
        id: sam,
        name: 'Sam Shipper',
        email: 'sam@example.com',
        role_id: Role.Shipper,
        organization_id: shipper,
        status: GenericStatus.Pending,
        email_confirmed: false,
        created_at: signedUp,
      },
    ]);
    await spec
      .given(registered, signupConfirmed(sam, { at: later }), userActivated(sam, { at: latest }))
      .expectRows('users_view', [
        { status: GenericStatus.Active, email_confirmed: true, updated_at: latest },
      ]);
  },
);

t.test(
  'a user added by an administrator is Active and confirmed; registered twice, the first stays',
  async () => {
    await spec
      .given(
        userRegistered(kim, { at: signedUp, byAdministrator: true, name: 'Kim' }),
        userRegistered(kim, { at: later, name: 'Someone else' }),
      )
      .expectRows('users_view', [
        { name: 'Kim', status: GenericStatus.Active, email_confirmed: true },
      ]);
  },
);

t.test('a blocked user shows Blocked; an edited one its new name and e-mail', async () => {
  await spec
    .given(
      userRegistered(sam, { at: signedUp }),
      userUpdated(sam, { at: later, name: 'Samantha', email: 'samantha@example.com' }),
      userBlocked(sam, { at: latest }),
    )
    .expectRows('users_view', [
      {
        name: 'Samantha',
        email: 'samantha@example.com',
        username: 'samantha',
        status: GenericStatus.Blocked,
        updated_at: latest,
      },
    ]);
});

t.test(
  'a reset code is kept until the password is reset; a changed password is not shown',
  async () => {
    const asked = [
      userRegistered(sam, { at: signedUp }),
      passwordResetRequested(sam, { at: later }),
    ];
    await spec
      .given(...asked, passwordChanged(sam, { at: latest }))
      .expectRows('users_view', [{ reset_code_hash: 'reset code', updated_at: signedUp }]);
    await spec
      .given(...asked, passwordReset(sam, { at: latest }))
      .expectRows('users_view', [{ reset_code_hash: null, updated_at: latest }]);
  },
);

t.test('a deleted user leaves the lists; the others stay', async () => {
  await spec
    .given(
      userRegistered(sam, { at: signedUp }),
      userRegistered(kim, { at: signedUp, email: 'kim@example.com' }),
      userDeleted(sam, { at: later }),
    )
    .expectRows('users_view', [{ id: kim }]);
});
