/**
 * The rules of user administration, through the use cases on a running platform: who may create
 * which user where, activating and blocking, and deleting a driver.
 */
import t from 'tap';
import { Role } from '../../domain/permissions.ts';
import { userStream } from '../../domain/users/user.ts';
import { member, organization, superadmin } from '../identity/fixtures.ts';
import { callerFor } from '../testing/callers.ts';
import { startTestApp } from '../testing/testApp.ts';
import { activateUser, addUser, blockUser, deleteDriver } from './users.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);
const now = () => new Date().toISOString();

const admin = callerFor(await superadmin(app, platform), Role.Superadmin);
const carrier = await organization(app, platform, 'Carrier');
const asCarrier = callerFor(carrier, Role.Carrier);
const shipper = await organization(app, platform, 'Shipper');
let serial = 0;
const newUser = (roleId: number, organizationId?: string | null) => {
  serial += 1;
  return {
    email: `new-${serial}@users.test`,
    username: `new-user-${serial}`,
    name: `New User ${serial}`,
    phone: '555-555-0199',
    roleId: roleId as never,
    organizationId,
    password: 'a-good-password-1',
  };
};

t.test('adding a user', async (t) => {
  await t.test('given a carrier, when it adds a Superadmin, then it is refused', async (t) => {
    await t.rejects(addUser(platform, asCarrier, newUser(Role.Superadmin), now()), {
      statusCode: 403,
      message: 'You cannot create a user with the role Superadmin',
    });
  });
  await t.test(
    'given a carrier, when it adds a driver to another organization, then that organization is unknown',
    async (t) => {
      await t.rejects(
        addUser(platform, asCarrier, newUser(Role.Driver, shipper.organizationId), now()),
        { statusCode: 404, message: 'Organization not found' },
      );
    },
  );
  await t.test(
    'given a carrier, when it adds a driver, then the driver is Active in its organization',
    async (t) => {
      const { userId } = await addUser(platform, asCarrier, newUser(Role.Driver), now());
      const driver = await platform.identity.loadUser(userId);
      t.equal(driver?.organizationId, carrier.organizationId);
      t.equal(driver?.status, 2);
    },
  );
  await t.test(
    'given a Superadmin, when it adds a driver to a shipper, then the organization is of the wrong type',
    async (t) => {
      await t.rejects(
        addUser(platform, admin, newUser(Role.Driver, shipper.organizationId), now()),
        { statusCode: 400, message: 'A Driver belongs to a Carrier organization' },
      );
    },
  );
  await t.test('given a taken e-mail, when a user is added with it, then 409', async (t) => {
    await t.rejects(
      addUser(platform, asCarrier, { ...newUser(Role.Driver), email: carrier.email }, now()),
      { statusCode: 409, message: 'Email already registered' },
    );
  });
});

t.test('activating and blocking', async (t) => {
  await t.test(
    'given a user of a Pending organization, when a Superadmin activates it, then the organization is Active too',
    async (t) => {
      const pending = await organization(app, platform, 'Shipper', { status: 1 });
      await activateUser(platform, admin, pending.userId, now());
      t.equal((await platform.identity.loadUser(pending.userId))?.status, 2);
      t.equal((await platform.identity.loadOrganization(pending.organizationId!))?.status, 2);
    },
  );
  await t.test('given any caller, when it blocks itself, then it is refused', async (t) => {
    await t.rejects(blockUser(platform, asCarrier, carrier.userId, now()), {
      statusCode: 400,
      message: 'You cannot block yourself',
    });
  });
  await t.test(
    'given a carrier, when it blocks a user of another organization, then that user is unknown',
    async (t) => {
      await t.rejects(blockUser(platform, asCarrier, shipper.userId, now()), {
        statusCode: 404,
        message: 'User not found',
      });
    },
  );
  await t.test(
    'given a colleague, when a carrier blocks it, then it is Blocked and the event names the caller',
    async (t) => {
      const colleague = await member(app, platform, carrier.organizationId!, Role.Driver);
      await blockUser(platform, asCarrier, colleague.userId, now());
      t.equal((await platform.identity.loadUser(colleague.userId))?.status, 3);
      const { events } = await platform.store.readStream(userStream(colleague.userId));
      const blocked = events.find((event) => event.type === 'UserBlocked');
      t.equal(blocked?.metadata.userId, carrier.userId);
      t.equal(blocked?.metadata.causationId, asCarrier.requestId);
    },
  );
});

t.test(
  'given a driver, when its carrier deletes it, then its e-mail and username are free again',
  async (t) => {
    const driver = await member(app, platform, carrier.organizationId!, Role.Driver);
    await deleteDriver(platform, asCarrier, driver.userId, now());
    t.equal(await platform.identity.loadUser(driver.userId), null);
    t.equal(await platform.identity.userIdByEmail(driver.email), null);
    t.equal(await platform.identity.userIdByUsername(driver.username), null);
  },
);
