// @postgres: the history's names as they were at a position
import t from 'tap';
import { organizationStream } from '../../domain/organizations/organization.ts';
import { tourChatStream } from '../../domain/tours/tour.types.ts';
import { userStream } from '../../domain/users/user.ts';
import { member, organization, PDF, superadmin } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * The audit trail never rewrites the past: each entry names its user and organization as they were
 * when the event was written. Renaming people and companies afterwards leaves every past entry (JSON
 * and CSV) as it was; only what happens after the rename carries the new names.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);

const admin = await superadmin(app, platform);
const shipper = await organization(app, platform, 'Shipper', {
  name: 'Acme Shipping',
  userName: 'Sandra Shipper',
});
const carrier = await organization(app, platform, 'Carrier', {
  name: 'Zeta Hauling',
  userName: 'Carl Carrier',
});
const driver = await member(app, platform, carrier.organizationId!, 4, { name: 'Dan Driver' });

const as = requester(app);

type Entry = {
  position: string;
  at: string;
  type: string;
  user: { id: string; name: string | null } | null;
  organization: { id: string; name: string | null } | null;
  data: Record<string, unknown>;
};

let loadId = '';
let tourId = '';
let offeredAt = '';
let beforeRenames: {
  json: { events: Entry[] };
  csv: string;
  offerSnapshot: { proposals: { carrierOrganization: { id: string; name: string | null } }[] };
} | null = null;

t.test('a load run by two organizations: offer, acceptance, contract, driver, chat', async (t) => {
  const posted = await as(shipper).post('/api/loads', loadBody());
  t.equal(posted.status, 201, posted.text);
  loadId = posted.body.id;
  const offer = await as(carrier).post(`/api/proposal/${loadId}`, {
    price: 1500,
    message: 'Ready tomorrow',
  });
  t.equal(offer.status, 201, offer.text);
  const offerId = offer.body.id;
  offeredAt = new Date().toISOString();
  t.equal((await as(shipper).put(`/api/proposal/${offerId}`, { status: 5 })).status, 200);
  const row = (await as(shipper).get('/api/loads/shipper', { filters: '[]' })).body.data.find(
    (load: { id: string }) => load.id === loadId,
  );
  tourId = row.tourId;
  t.ok(tourId, 'a tour opened');

  const signed = await as(carrier).upload(`/api/proposal/load/${loadId}`, {
    fields: { status: '14' },
    files: { contract: { content: PDF, filename: 'signed.pdf' } },
  });
  t.equal(signed.status, 200, signed.text);
  t.equal((await as(carrier).post(`/api/tours/${tourId}/assign/${driver.userId}`, {})).status, 200);
  t.equal(
    (
      await as(driver).post(`/api/tours/${tourId}/chat`, {
        message: 'Loaded, on my way',
      })
    ).status,
    201,
  );
  t.equal(
    (await as(shipper).post(`/api/tours/${tourId}/chat`, { message: 'Thanks, dock 4' })).status,
    201,
  );
});

t.test('the history names everyone as they are', async (t) => {
  const history = await as(shipper).get(`/api/loads/${loadId}/history`);
  t.equal(history.status, 200);
  const events: Entry[] = history.body.events;
  const byType = (type: string) => events.filter((event) => event.type === type);
  t.match(byType('LoadPosted')[0], {
    user: { id: shipper.userId, name: 'Sandra Shipper' },
    organization: { id: shipper.organizationId, name: 'Acme Shipping' },
  });
  t.match(byType('ProposalSubmitted')[0], {
    user: { id: carrier.userId, name: 'Carl Carrier' },
    organization: { id: carrier.organizationId, name: 'Zeta Hauling' },
  });
  t.match(byType('ProposalAccepted')[0], {
    user: { name: 'Sandra Shipper' },
    organization: { name: 'Acme Shipping' },
  });
  t.match(byType('ContractUploaded')[0], {
    user: { name: 'Carl Carrier' },
    organization: { name: 'Zeta Hauling' },
  });
  t.match(byType('MessagePosted'), [
    {
      user: { id: driver.userId, name: 'Dan Driver' },
      organization: { name: 'Zeta Hauling' },
      data: { text: 'Loaded, on my way' },
    },
    {
      user: { name: 'Sandra Shipper' },
      organization: { name: 'Acme Shipping' },
      data: { text: 'Thanks, dock 4' },
    },
  ]);
  t.ok(
    events.every((event) => event.user === null || event.user.name !== null),
    'every acting user is named',
  );

  const csv = await as(shipper).get(`/api/loads/${loadId}/history?format=csv`);
  t.equal(csv.status, 200);
  t.match(csv.text, /,Sandra Shipper,[^,]+,Acme Shipping,/);
  t.match(csv.text, /,Carl Carrier,[^,]+,Zeta Hauling,/);

  const offerSnapshot = (
    await as(shipper).get(`/api/loads/${loadId}/history?at=${encodeURIComponent(offeredAt)}`)
  ).body;
  t.match(
    offerSnapshot.proposals,
    [
      {
        carrierOrganizationId: carrier.organizationId,
        carrierOrganization: { id: carrier.organizationId, name: 'Zeta Hauling' },
      },
    ],
    'the replayed offer names its carrier',
  );
  beforeRenames = { json: history.body, csv: csv.text, offerSnapshot };
});

t.test(
  'renaming the users and both organizations changes nothing in the past entries',
  async (t) => {
    const account = {
      email: shipper.email,
      username: shipper.username,
      name: 'Sandra Renamed',
      phone: '555-555-0102',
    };
    const watch = await watchEvents(platform.store);
    const ownAccount = await as(shipper).put('/api/users', account);
    t.equal(ownAccount.status, 200, ownAccount.text);
    await watch.expect(t, [
      {
        type: 'UserUpdated',
        stream: userStream(shipper.userId),
        data: { name: 'Sandra Renamed', email: shipper.email },
      },
    ]);
    const carrierUser = await as(admin).put(`/api/users/${carrier.userId}`, {
      email: carrier.email,
      name: 'Carl Renamed',
      phone: '555-555-0102',
    });
    t.equal(carrierUser.status, 200, carrierUser.text);
    await watch.expect(t, [
      { type: 'UserUpdated', stream: userStream(carrier.userId), data: { name: 'Carl Renamed' } },
    ]);
    const driverUser = await as(admin).put(`/api/users/${driver.userId}`, {
      email: driver.email,
      name: 'Dan Renamed',
      phone: '555-555-0103',
    });
    t.equal(driverUser.status, 200, driverUser.text);
    await watch.expect(t, [
      { type: 'UserUpdated', stream: userStream(driver.userId), data: { name: 'Dan Renamed' } },
    ]);
    // Each organization's own contact: only the names change (a new e-mail would wait 24 hours).
    const contactOf = async (who: typeof shipper) => {
      const { address, person, email, phone } = (await as(who).get('/api/account')).body
        .organization;
      return { address, person, email, phone };
    };
    t.equal(
      (
        await as(shipper).put('/api/users/organization', {
          ...(await contactOf(shipper)),
          name: 'Acme Logistics Group',
        })
      ).status,
      200,
    );
    await watch.expect(t, [
      {
        type: 'OrganizationContactChanged',
        stream: organizationStream(shipper.organizationId!),
        data: { name: 'Acme Logistics Group' },
      },
    ]);
    t.equal(
      (
        await as(carrier).put('/api/users/organization', {
          ...(await contactOf(carrier)),
          name: 'Zeta Freight Lines',
        })
      ).status,
      200,
    );
    await watch.expect(t, [
      {
        type: 'OrganizationContactChanged',
        stream: organizationStream(carrier.organizationId!),
        data: { name: 'Zeta Freight Lines' },
      },
    ]);
    // Today's names are the new ones everywhere else.
    t.match((await as(shipper).get('/api/account')).body, {
      user: { name: 'Sandra Renamed' },
      organization: { name: 'Acme Logistics Group' },
    });

    const history = await as(shipper).get(`/api/loads/${loadId}/history`);
    t.same(history.body, beforeRenames!.json, 'the JSON trail is exactly as before');
    const csv = await as(shipper).get(`/api/loads/${loadId}/history?format=csv`);
    t.equal(csv.text, beforeRenames!.csv, 'the CSV trail is byte for byte as before');
    t.notMatch(csv.text, /Renamed|Acme Logistics Group|Zeta Freight Lines/);
    const offerSnapshot = (
      await as(carrier).get(`/api/loads/${loadId}/history?at=${encodeURIComponent(offeredAt)}`)
    ).body;
    t.same(
      offerSnapshot.proposals,
      beforeRenames!.offerSnapshot.proposals,
      'a replay to the offer names the carrier as it was then',
    );
    t.same(
      offerSnapshot.events,
      beforeRenames!.json.events.filter((event) => event.at <= offeredAt),
      'and its entries too',
    );
  },
);

t.test('what happens after the renames carries the new names', async (t) => {
  const watch = await watchEvents(platform.store);
  t.equal(
    (
      await as(shipper).post(`/api/tours/${tourId}/chat`, {
        message: 'New name, same dock',
      })
    ).status,
    201,
  );
  t.equal((await as(driver).post(`/api/tours/${tourId}/chat`, { message: 'Noted' })).status, 201);
  await watch.expect(t, [
    {
      type: 'MessagePosted',
      stream: tourChatStream(tourId),
      data: { text: 'New name, same dock' },
      metadata: { userId: shipper.userId },
    },
    {
      type: 'MessagePosted',
      stream: tourChatStream(tourId),
      data: { text: 'Noted' },
      metadata: { userId: driver.userId },
    },
  ]);
  const events: Entry[] = (await as(carrier).get(`/api/loads/${loadId}/history`)).body.events;
  t.equal(events.length, beforeRenames!.json.events.length + 2, 'two new entries');
  t.same(events.slice(0, -2), beforeRenames!.json.events, 'the earlier entries unchanged');
  t.match(events.slice(-2), [
    {
      type: 'MessagePosted',
      user: { id: shipper.userId, name: 'Sandra Renamed' },
      organization: { id: shipper.organizationId, name: 'Acme Logistics Group' },
    },
    {
      type: 'MessagePosted',
      user: { id: driver.userId, name: 'Dan Renamed' },
      organization: { id: carrier.organizationId, name: 'Zeta Freight Lines' },
    },
  ]);
  const csv = (await as(shipper).get(`/api/loads/${loadId}/history?format=csv`)).text;
  t.ok(csv.startsWith(beforeRenames!.csv), 'the CSV only grew at its end');
  const added = csv.slice(beforeRenames!.csv.length).trim().split('\r\n');
  t.equal(added.length, 2);
  t.match(added[0], /,Sandra Renamed,[^,]+,Acme Logistics Group,/);
  t.match(added[1], /,Dan Renamed,[^,]+,Zeta Freight Lines,/);

  const now = (
    await as(shipper).get(
      `/api/loads/${loadId}/history?at=${encodeURIComponent(new Date().toISOString())}`,
    )
  ).body;
  t.match(
    now.proposals,
    [{ carrierOrganization: { name: 'Zeta Freight Lines' } }],
    'a replay to now names the carrier as it is now',
  );
});
