/**
 * The rules of self-registration and password recovery, through the use cases on a running
 * platform: the username is checked first, a registered e-mail writes nothing and tells its owner,
 * a sign-up code confirms the e-mail, and a reset code works once.
 */
import t from 'tap';
import { INVALID_CONFIRMATION_CODE } from '../../domain/users/user.decide.ts';
import { listOutbox } from '../integrations/mail/mailer.ts';
import { organization } from '../identity/fixtures.ts';
import { startTestApp } from '../testing/testApp.ts';
import { requestPasswordReset, resetPassword } from './passwordReset.ts';
import { confirmSignup, registerOrganization, type Registration } from './registration.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);
const now = () => new Date().toISOString();
const mailTo = async (to: string) =>
  (await listOutbox(platform.database.db, 50)).filter((mail) => mail.to === to);

const shipperForm = (email: string, username: string): Registration => ({
  type: 'Shipper',
  form: {
    email,
    username,
    password: 'a-good-password-1',
    userDetails: { name: 'Sam Shipper', phone: '555-555-0160' },
    organization: {
      name: 'Sam Goods',
      organizationContactInfo: {
        address: '3 Mill Rd, Joliet, IL',
        person: 'Sam',
        email,
        phone: '555-555-0160',
      },
    },
    acceptTerms: true,
    insuredAmount: 1,
  } as never,
  documents: {},
});

const existing = await organization(app, platform, 'Shipper');

t.test(
  'given a new address, when a shipper registers, then its code confirms the e-mail',
  async (t) => {
    const registered = await registerOrganization(
      platform,
      shipperForm('sam@register.test', 'sam-register'),
      'request-1',
      now(),
    );
    t.equal(registered.registered, true);
    const user = await platform.identity.loadUser(registered.userId);
    t.equal(user?.status, 1, 'Pending until an administrator activates it');
    await t.rejects(
      confirmSignup(platform, { email: 'sam@register.test', code: '000000' }, 'request-2', now()),
      { statusCode: 400, message: INVALID_CONFIRMATION_CODE },
    );
    const code = /sign-up code is (\d{6})/.exec((await mailTo('sam@register.test'))[0]!.text)![1]!;
    await confirmSignup(platform, { email: 'sam@register.test', code }, 'request-3', now());
    t.equal((await platform.identity.loadUser(registered.userId))?.emailConfirmed, true);
  },
);

t.test(
  'given a taken username, when someone registers, then 409 whatever the e-mail',
  async (t) => {
    await t.rejects(
      registerOrganization(platform, shipperForm(existing.email, existing.username), 'r', now()),
      { statusCode: 409, message: /username/i },
    );
  },
);

t.test(
  'given a registered e-mail, when someone registers with it, then nothing is written and its owner is told',
  async (t) => {
    const before = (await mailTo(existing.email)).length;
    const result = await registerOrganization(
      platform,
      shipperForm(existing.email, 'someone-else'),
      'request-4',
      now(),
    );
    t.equal(result.registered, false);
    t.equal(await platform.identity.loadUser(result.userId), null, 'the ids name nothing');
    t.equal(await platform.identity.userIdByUsername('someone-else'), null);
    t.equal((await mailTo(existing.email)).length, before + 1);
  },
);

t.test(
  'given an unknown address, when its sign-up is confirmed, then the code is wrong',
  async (t) => {
    await t.rejects(
      confirmSignup(platform, { email: 'nobody@register.test', code: '123456' }, 'r', now()),
      { statusCode: 400, message: INVALID_CONFIRMATION_CODE },
    );
  },
);

t.test('password recovery', async (t) => {
  t.same(await requestPasswordReset(platform, 'nobody@register.test', 'r', now()), {
    known: false,
    position: null,
  });
  const { known, position } = await requestPasswordReset(platform, existing.email, 'r', now());
  t.equal(known, true);
  await platform.runner.waitFor(['users'], position);
  const code = /Reset code: (\w+)/.exec((await mailTo(existing.email)).at(0)!.text)![1]!;
  await resetPassword(platform, { code, newPassword: 'another-password-2' }, 'r', now());
  await platform.runner.waitFor(['users'], await platform.store.head());
  await t.rejects(
    resetPassword(platform, { code, newPassword: 'third-password-3' }, 'r', now()),
    { statusCode: 400, message: 'Invalid or expired reset code' },
    'a code works once',
  );
});
