// @postgres: the history's names as they were at a position
import t from 'tap';
import { bearer, member, multipart, organization, PDF, superadmin } from '../identity/fixtures.ts';
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

const get = (url: string, token: string) =>
  app.inject({ method: 'GET', url, headers: bearer(token) });
const send = (method: 'PUT' | 'POST', url: string, token: string, payload: object) =>
  app.inject({ method, url, headers: bearer(token), payload });

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
  const posted = await send('POST', '/api/loads', shipper.token, loadBody());
  t.equal(posted.statusCode, 201, posted.body);
  loadId = posted.json().id;
  const offer = await send('POST', `/api/proposal/${loadId}`, carrier.token, {
    price: 1500,
    message: 'Ready tomorrow',
  });
  t.equal(offer.statusCode, 201, offer.body);
  const offerId = offer.json().id;
  offeredAt = new Date().toISOString();
  t.equal(
    (await send('PUT', `/api/proposal/${offerId}`, shipper.token, { status: 5 })).statusCode,
    200,
  );
  const row = (
    await get(`/api/loads/shipper?${new URLSearchParams({ filters: '[]' })}`, shipper.token)
  )
    .json()
    .data.find((load: { id: string }) => load.id === loadId);
  tourId = row.tourId;
  t.ok(tourId, 'a tour opened');

  const form = multipart(undefined, { contract: { content: PDF, filename: 'signed.pdf' } });
  form.payload = Buffer.concat([
    Buffer.from(
      `--${form.headers['content-type']!.split('boundary=')[1]}\r\nContent-Disposition: form-data; name="status"\r\n\r\n14\r\n`,
    ),
    form.payload,
  ]);
  const signed = await app.inject({
    method: 'POST',
    url: `/api/proposal/load/${loadId}`,
    headers: { ...form.headers, ...bearer(carrier.token) },
    payload: form.payload,
  });
  t.equal(signed.statusCode, 200, signed.body);
  t.equal(
    (await send('POST', `/api/tours/${tourId}/assign/${driver.userId}`, carrier.token, {}))
      .statusCode,
    200,
  );
  t.equal(
    (
      await send('POST', `/api/tours/${tourId}/chat`, driver.token, {
        message: 'Loaded, on my way',
      })
    ).statusCode,
    201,
  );
  t.equal(
    (await send('POST', `/api/tours/${tourId}/chat`, shipper.token, { message: 'Thanks, dock 4' }))
      .statusCode,
    201,
  );
});

t.test('the history names everyone as they are', async (t) => {
  const history = await get(`/api/loads/${loadId}/history`, shipper.token);
  t.equal(history.statusCode, 200);
  const events: Entry[] = history.json().events;
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

  const csv = await get(`/api/loads/${loadId}/history?format=csv`, shipper.token);
  t.equal(csv.statusCode, 200);
  t.match(csv.body, /,Sandra Shipper,[^,]+,Acme Shipping,/);
  t.match(csv.body, /,Carl Carrier,[^,]+,Zeta Hauling,/);

  const offerSnapshot = (
    await get(`/api/loads/${loadId}/history?at=${encodeURIComponent(offeredAt)}`, shipper.token)
  ).json();
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
  beforeRenames = { json: history.json(), csv: csv.body, offerSnapshot };
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
    const ownAccount = await send('PUT', '/api/users', shipper.token, account);
    t.equal(ownAccount.statusCode, 200, ownAccount.body);
    const carrierUser = await send('PUT', `/api/users/${carrier.userId}`, admin.token, {
      email: carrier.email,
      name: 'Carl Renamed',
      phone: '555-555-0102',
    });
    t.equal(carrierUser.statusCode, 200, carrierUser.body);
    const driverUser = await send('PUT', `/api/users/${driver.userId}`, admin.token, {
      email: driver.email,
      name: 'Dan Renamed',
      phone: '555-555-0103',
    });
    t.equal(driverUser.statusCode, 200, driverUser.body);
    const contact = {
      address: '1 Main St, Chicago, IL',
      person: 'Pat Contact',
      email: 'contact@example.com',
      phone: '555-555-0101',
    };
    t.equal(
      (
        await send('PUT', '/api/users/organization', shipper.token, {
          ...contact,
          name: 'Acme Logistics Group',
        })
      ).statusCode,
      200,
    );
    t.equal(
      (
        await send('PUT', '/api/users/organization', carrier.token, {
          ...contact,
          name: 'Zeta Freight Lines',
        })
      ).statusCode,
      200,
    );
    // Today's names are the new ones everywhere else.
    t.match((await get('/api/account', shipper.token)).json(), {
      user: { name: 'Sandra Renamed' },
      organization: { name: 'Acme Logistics Group' },
    });

    const history = await get(`/api/loads/${loadId}/history`, shipper.token);
    t.same(history.json(), beforeRenames!.json, 'the JSON trail is exactly as before');
    const csv = await get(`/api/loads/${loadId}/history?format=csv`, shipper.token);
    t.equal(csv.body, beforeRenames!.csv, 'the CSV trail is byte for byte as before');
    t.notMatch(csv.body, /Renamed|Acme Logistics Group|Zeta Freight Lines/);
    const offerSnapshot = (
      await get(`/api/loads/${loadId}/history?at=${encodeURIComponent(offeredAt)}`, carrier.token)
    ).json();
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
  t.equal(
    (
      await send('POST', `/api/tours/${tourId}/chat`, shipper.token, {
        message: 'New name, same dock',
      })
    ).statusCode,
    201,
  );
  t.equal(
    (await send('POST', `/api/tours/${tourId}/chat`, driver.token, { message: 'Noted' }))
      .statusCode,
    201,
  );
  const events: Entry[] = (await get(`/api/loads/${loadId}/history`, carrier.token)).json().events;
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
  const csv = (await get(`/api/loads/${loadId}/history?format=csv`, shipper.token)).body;
  t.ok(csv.startsWith(beforeRenames!.csv), 'the CSV only grew at its end');
  const added = csv.slice(beforeRenames!.csv.length).trim().split('\r\n');
  t.equal(added.length, 2);
  t.match(added[0], /,Sandra Renamed,[^,]+,Acme Logistics Group,/);
  t.match(added[1], /,Dan Renamed,[^,]+,Zeta Freight Lines,/);

  const now = (
    await get(
      `/api/loads/${loadId}/history?at=${encodeURIComponent(new Date().toISOString())}`,
      shipper.token,
    )
  ).json();
  t.match(
    now.proposals,
    [{ carrierOrganization: { name: 'Zeta Freight Lines' } }],
    'a replay to now names the carrier as it is now',
  );
});
