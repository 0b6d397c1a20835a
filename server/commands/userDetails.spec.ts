/**
 * The rules of profile edits, through the use cases on a running platform: one's own new e-mail or
 * password needs the current password, an administrator's edit does not, a taken e-mail changes
 * nothing, and a changed e-mail moves its unique key and tells the old address.
 */
import t from 'tap';
import { Role } from '../../domain/permissions.ts';
import { listOutbox } from '../integrations/mail/mailer.ts';
import { member, organization, PASSWORD } from '../identity/fixtures.ts';
import { callerFor } from '../testing/callers.ts';
import { startTestApp } from '../testing/testApp.ts';
import {
  editUser,
  OLD_PASSWORD_REQUIRED_MESSAGE,
  OLD_PASSWORD_WRONG_MESSAGE,
  updateOwnAccount,
} from './userDetails.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);
const now = () => new Date().toISOString();
const address = '10.9.9.9';

const carrier = await organization(app, platform, 'Carrier');
const asCarrier = callerFor(carrier, Role.Carrier);
const details = (user: { email: string; username: string }) => ({
  email: user.email,
  username: user.username,
  name: 'Same Name',
  phone: '555-555-0177',
});

t.test(
  'given a user, when it changes its own e-mail without its password, then it is refused',
  async (t) => {
    await t.rejects(
      updateOwnAccount(
        platform,
        asCarrier,
        { ...details(carrier), email: 'other@details.test' },
        address,
        now(),
      ),
      { statusCode: 400, message: OLD_PASSWORD_REQUIRED_MESSAGE },
    );
    await t.rejects(
      updateOwnAccount(
        platform,
        asCarrier,
        { ...details(carrier), email: 'other@details.test', oldPassword: 'not-the-password' },
        address,
        now(),
      ),
      { statusCode: 400, message: OLD_PASSWORD_WRONG_MESSAGE },
    );
    t.equal(await platform.identity.userIdByEmail('other@details.test'), null, 'nothing moved');
  },
);

t.test('given a user, when it changes only its name, then no password is asked', async (t) => {
  await updateOwnAccount(
    platform,
    asCarrier,
    { ...details(carrier), name: 'New Name' },
    address,
    now(),
  );
  t.equal((await platform.identity.loadUser(carrier.userId))?.name, 'New Name');
});

t.test(
  'given a colleague, when an administrator changes its e-mail, then the key moves and the old address is told',
  async (t) => {
    const colleague = await member(app, platform, carrier.organizationId!, Role.Driver);
    await editUser(
      platform,
      asCarrier,
      colleague.userId,
      { email: 'moved@details.test', name: 'Moved', phone: '555-555-0178' },
      address,
      now(),
    );
    t.equal(await platform.identity.userIdByEmail('moved@details.test'), colleague.userId);
    t.equal(
      await platform.identity.userIdByEmail(colleague.email),
      null,
      'the old address is free',
    );
    const notice = (await listOutbox(platform.database.db, 20)).find(
      (mail) => mail.to === colleague.email,
    );
    t.match(notice?.text, /An administrator changed the e-mail address/);
  },
);

t.test('given a taken e-mail, when a user edits to it, then 409 and nothing changes', async (t) => {
  const other = await member(app, platform, carrier.organizationId!, Role.Driver);
  const user = await member(app, platform, carrier.organizationId!, Role.Driver);
  await t.rejects(
    updateOwnAccount(
      platform,
      callerFor(user, Role.Driver),
      { ...details(user), email: other.email, name: 'Changed', oldPassword: PASSWORD },
      address,
      now(),
    ),
    { statusCode: 409, message: 'Email already registered' },
  );
  const after = await platform.identity.loadUser(user.userId);
  t.equal(after?.email, user.email);
  t.not(after?.name, 'Changed');
});
