/**
 * The rules of organizations, through the use cases on a running platform: registering one with its
 * first user, the Superadmin's creation with documents, and activating and blocking.
 */
import t from 'tap';
import { Role } from '../../domain/permissions.ts';
import { organizationStream } from '../../domain/organizations/organization.ts';
import { userStream } from '../../domain/users/user.ts';
import { member, organization, PDF, superadmin } from '../identity/fixtures.ts';
import { callerFor } from '../testing/callers.ts';
import { startTestApp } from '../testing/testApp.ts';
import {
  changeOrganizationStatus,
  createOrganization,
  createOrganizationWithUser,
} from './organizations.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);
const now = () => new Date().toISOString();
const admin = callerFor(await superadmin(app, platform), Role.Superadmin);

const contact = {
  address: '2 Dock Rd, Gary, IN',
  person: 'Robin Contact',
  email: 'contact@orgs.test',
  phone: '555-555-0150',
};
const pdf = { buffer: PDF, mime: 'application/pdf', size: PDF.length };
const carrierData = {
  type: 'Carrier' as const,
  name: 'Dockside Freight',
  organizationContactInfo: contact,
  mcNumber: 123456,
  dotNumber: 654321,
  eldProvider: null,
  trucks: [],
  trailers: [],
  driverTeams: [],
};

t.test(
  'given no one signed in, when an organization registers with its user, then the events name the new user and organization',
  async (t) => {
    const { organizationId, userId } = await createOrganizationWithUser(
      platform,
      {
        type: 'Shipper',
        name: 'Signup Goods',
        contact,
        carrier: null,
        shipper: { insuredAmount: 1, signatureFileId: null },
        status: 1,
      },
      {
        email: 'first@orgs.test',
        username: 'first-orgs',
        name: 'First',
        phone: '555-555-0151',
        password: 'a-good-password-1',
        roleId: Role.Shipper,
      },
      null,
      now(),
      { requestId: 'request-1' },
    );
    const { events } = await platform.store.readStream(organizationStream(organizationId));
    t.same(events[0]?.metadata, {
      userId,
      organizationId,
      correlationId: 'request-1',
      causationId: 'request-1',
      at: events[0]?.metadata.at,
    });
    t.equal(events[0]?.data.registeredBy, userId, 'registered by its own first user');
    const user = await platform.store.readStream(userStream(userId!));
    t.equal(user.events[0]?.metadata.userId, userId);
  },
);

t.test('the Superadmin creates an organization', async (t) => {
  await t.test('given a carrier without its MC authority, then the field is named', async (t) => {
    await t.rejects(
      createOrganization(
        platform,
        admin,
        carrierData,
        { certificateOfInsurance: pdf, w9Form: pdf },
        now(),
      ),
      { statusCode: 400, errors: [{ path: 'mcAuthority' }] },
    );
  });
  await t.test('given a shipper with a document, then it is refused', async (t) => {
    await t.rejects(
      createOrganization(
        platform,
        admin,
        { type: 'Shipper', name: 'Paper Co', organizationContactInfo: contact, insuredAmount: 1 },
        { w9Form: pdf },
        now(),
      ),
      { statusCode: 400, message: 'A shipper organization has no documents' },
    );
  });
  await t.test(
    'given a carrier with its documents, then it is Active and registered by the Superadmin',
    async (t) => {
      const { organizationId } = await createOrganization(
        platform,
        admin,
        carrierData,
        { mcAuthority: pdf, certificateOfInsurance: pdf, w9Form: pdf },
        now(),
      );
      const created = await platform.identity.loadOrganization(organizationId);
      t.equal(created?.status, 2);
      t.ok(created?.carrier?.documents.mcAuthority, 'the documents are stored');
      const { events } = await platform.store.readStream(organizationStream(organizationId));
      t.equal(events[0]?.data.registeredBy, admin.actor.userId);
    },
  );
});

t.test('activating and blocking', async (t) => {
  await t.test(
    'given a Pending organization with a waiting colleague, when it is activated, then both users are Active',
    async (t) => {
      const pending = await organization(app, platform, 'Carrier', { status: 1 });
      const colleague = await member(app, platform, pending.organizationId!, Role.Driver, {
        status: 1,
      });
      const { position } = await changeOrganizationStatus(
        platform,
        admin,
        pending.organizationId!,
        'Active',
        now(),
      );
      t.ok(position);
      t.equal((await platform.identity.loadOrganization(pending.organizationId!))?.status, 2);
      t.equal((await platform.identity.loadUser(colleague.userId))?.status, 2);
    },
  );
  await t.test(
    'given an Active organization, when it is activated again, then nothing is written',
    async (t) => {
      const active = await organization(app, platform, 'Shipper');
      const { position } = await changeOrganizationStatus(
        platform,
        admin,
        active.organizationId!,
        'Active',
        now(),
      );
      t.equal(position, null);
    },
  );
  await t.test(
    "given an organization, when it is blocked, then its members' refresh tokens stop working",
    async (t) => {
      const blocked = await organization(app, platform, 'Shipper');
      const login = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: blocked.email, password: 'correct-horse-1' },
      });
      await changeOrganizationStatus(platform, admin, blocked.organizationId!, 'Blocked', now());
      t.equal((await platform.identity.loadOrganization(blocked.organizationId!))?.status, 3);
      const refresh = await app.inject({
        method: 'POST',
        url: '/api/refresh-token',
        payload: { refreshToken: login.json().refreshToken },
      });
      t.equal(refresh.statusCode, 401);
    },
  );
  await t.test('given an unknown organization, then 404', async (t) => {
    await t.rejects(
      changeOrganizationStatus(platform, admin, crypto.randomUUID(), 'Blocked', now()),
      { statusCode: 404, message: 'Organization not found' },
    );
  });
});
