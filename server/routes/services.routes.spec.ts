import t from 'tap';
import { organizationServiceStream } from '../../domain/services/organizationService.types.ts';
import { bearer, member, organization, superadmin } from '../identity/fixtures.ts';
import { startFakeMotive } from '../integrations/eld/testing/fakeMotive.ts';
import { startFakeSamsara } from '../integrations/eld/testing/fakeSamsara.ts';
import { CHICAGO } from '../testing/loadBodies.ts';
import { watchEvents } from '../testing/events.ts';
import { startTestApp } from '../testing/testApp.ts';

/** The ELD integrations through HTTP: the catalogue, install, refusals, update, trucks, tenants, and the secret never shown. */
// Starting the app (PGlite in WASM) takes a while on a busy machine.
t.setTimeout(300_000);
const SAMSARA_TOKEN = 'samsara-token-Zq81';
const MOTIVE_KEY = 'motive-key-Wx42';
const SIMULATOR_SECRET = 'simulator-secret-Hk77';
const samsara = await startFakeSamsara({
  token: SAMSARA_TOKEN,
  pageSize: 1,
  vehicles: [
    {
      id: '281474977',
      name: 'T-12',
      latitude: 41.88,
      longitude: -87.63,
      heading: 10,
      speed: 0,
      time: new Date().toISOString(),
    },
    {
      id: '281474978',
      name: 'T-40',
      latitude: 39.7684,
      longitude: -86.1581,
      heading: 200,
      speed: 55,
      time: new Date().toISOString(),
    },
  ],
});
const motive = await startFakeMotive({
  apiKey: MOTIVE_KEY,
  vehicles: [
    { id: '77', name: 'M-1', latitude: 38.627, longitude: -90.1994, speed: 50, heading: 90 },
  ],
});
const { app, platform, close } = await startTestApp({
  samsaraBaseUrl: samsara.url,
  motiveBaseUrl: motive.url,
});
t.teardown(async () => {
  await close();
  await samsara.close();
  await motive.close();
});

const admin = await superadmin(app, platform);
const carrier = await organization(app, platform, 'Carrier', { name: 'Zeta Hauling' });
const carrierB = await organization(app, platform, 'Carrier', { name: 'Beta Trucking' });
const shipper = await organization(app, platform, 'Shipper');
const driver = await member(app, platform, carrier.organizationId!, 4);

/** Every answer, to check that no secret is ever in one. */
const answers: string[] = [];
const call = async (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  token: string | null,
  payload?: object,
) => {
  const response = await app.inject({
    method,
    url,
    headers: token ? bearer(token) : {},
    ...(payload ? { payload } : {}),
  });
  answers.push(response.body);
  return response;
};

let simulatorServiceId = '';
let samsaraServiceId = '';

t.test('the catalogue: every provider with its labels, nothing installed yet', async (t) => {
  const response = await call('GET', '/api/organization-services', carrier.token);
  t.equal(response.statusCode, 200);
  const catalogue = response.json();
  t.same(
    catalogue.map((entry: { id: string }) => entry.id),
    ['simulator', 'samsara', 'motive'],
  );
  t.match(catalogue, [
    {
      name: 'ELD Simulator',
      status: null,
      organizationServiceData: null,
      credentialLabels: { clientId: 'Client id', clientSecret: 'Client secret' },
    },
    {
      name: 'Samsara',
      status: null,
      credentialLabels: { clientId: null, clientSecret: 'API token' },
    },
    { name: 'Motive', status: null, credentialLabels: { clientId: null, clientSecret: 'API key' } },
  ]);
  t.ok(
    catalogue.every((entry: { description: string }) => entry.description.length > 20),
    'each with a description',
  );
  t.equal((await call('GET', '/api/organization-services', null)).statusCode, 401);
  t.equal(
    (await call('GET', '/api/organization-services', shipper.token)).statusCode,
    403,
    'shippers have no ELD',
  );
  t.equal(
    (await call('GET', '/api/organization-services', driver.token)).statusCode,
    403,
    'nor drivers',
  );
});

t.test('installing: checked, refused with the reason, installed once', async (t) => {
  const refused = await call('POST', '/api/organization-services', carrier.token, {
    serviceId: 'simulator',
    clientId: 'demo',
    clientSecret: 'invalid',
  });
  t.equal(refused.statusCode, 400);
  t.match(refused.json(), {
    message: /refused the client secret "invalid"/,
    errors: [{ path: 'clientSecret' }],
  });
  const noClientId = await call('POST', '/api/organization-services', carrier.token, {
    serviceId: 'simulator',
    clientSecret: SIMULATOR_SECRET,
  });
  t.equal(noClientId.statusCode, 400);
  t.match(
    noClientId.json().errors,
    [{ path: 'clientId', message: 'Please enter the Client id' }],
    'the label names the missing field',
  );
  const noSecret = await call('POST', '/api/organization-services', carrier.token, {
    serviceId: 'simulator',
    clientId: 'demo',
    clientSecret: '  ',
  });
  t.equal(noSecret.statusCode, 400);
  t.match(noSecret.json().errors, [{ path: 'clientSecret', message: 'Please enter the secret' }]);
  const unknown = await call('POST', '/api/organization-services', carrier.token, {
    serviceId: 'geotab',
    clientId: 'x',
    clientSecret: 'y',
  });
  t.equal(unknown.statusCode, 400);
  t.match(unknown.json().errors, [{ path: 'serviceId' }]);
  t.equal(
    (
      await call('POST', '/api/organization-services', shipper.token, {
        serviceId: 'simulator',
        clientId: 'x',
        clientSecret: 'y',
      })
    ).statusCode,
    403,
  );

  const events = await watchEvents(platform.store);
  const installed = await call('POST', '/api/organization-services', carrier.token, {
    serviceId: 'simulator',
    clientId: 'demo-fleet',
    clientSecret: SIMULATOR_SECRET,
  });
  t.equal(installed.statusCode, 201, installed.body);
  const entry = installed.json();
  t.match(entry, {
    id: 'simulator',
    status: 'Installed',
    organizationServiceData: { clientId: 'demo-fleet', secretSet: true, serviceId: 'simulator' },
  });
  simulatorServiceId = entry.organizationServiceData.organizationServiceId;
  t.match(simulatorServiceId, /^[0-9a-f-]{36}$/);
  await events.expect(t, [
    {
      type: 'ServiceInstalled',
      stream: organizationServiceStream(simulatorServiceId),
      data: {
        organizationServiceId: simulatorServiceId,
        organizationId: carrier.organizationId,
        serviceId: 'simulator',
        clientId: 'demo-fleet',
      },
    },
  ]);

  const again = await call('POST', '/api/organization-services', carrier.token, {
    serviceId: 'simulator',
    clientId: 'demo-fleet',
    clientSecret: 'another',
  });
  t.equal(again.statusCode, 409, 'installed once');
  await events.expect(t, [], { message: 'a second install appends nothing' });
  const catalogue = (await call('GET', '/api/organization-services', carrier.token)).json();
  t.match(catalogue[0], {
    status: 'Installed',
    organizationServiceData: {
      organizationServiceId: simulatorServiceId,
      clientId: 'demo-fleet',
      secretSet: true,
    },
  });
  t.equal(catalogue[1].status, null, 'the others stay available');
  t.equal(
    (await call('GET', '/api/organization-services', carrierB.token)).json()[0].status,
    null,
    "another carrier's catalogue is its own",
  );
  const account = (await call('GET', '/api/account', carrier.token)).json();
  t.match(account.services, catalogue, 'the account dialog shows the same catalogue');
});

t.test('Samsara through its API: the token checked there, refused with its reason', async (t) => {
  const refused = await call('POST', '/api/organization-services', carrier.token, {
    serviceId: 'samsara',
    clientSecret: 'wrong-token',
  });
  t.equal(refused.statusCode, 400);
  t.equal(
    refused.json().message,
    'Samsara refused the credentials: Invalid API token',
    "Samsara's reason",
  );
  const installed = await call('POST', '/api/organization-services', carrier.token, {
    serviceId: 'samsara',
    clientId: 'ignored',
    clientSecret: SAMSARA_TOKEN,
  });
  t.equal(installed.statusCode, 201, installed.body);
  t.match(
    installed.json().organizationServiceData,
    { clientId: null, secretSet: true },
    'Samsara has no client id',
  );
  samsaraServiceId = installed.json().organizationServiceData.organizationServiceId;
  t.ok(
    samsara.requests.some((request) => request.headers.authorization === `Bearer ${SAMSARA_TOKEN}`),
  );

  const motiveInstalled = await call('POST', '/api/organization-services', carrierB.token, {
    serviceId: 'motive',
    clientSecret: MOTIVE_KEY,
  });
  t.equal(motiveInstalled.statusCode, 201, motiveInstalled.body);
  const trucks = await call('GET', '/api/services/motive/trucks', carrierB.token);
  t.match(trucks.json(), [
    { id: '77', name: 'M-1', latitude: 38.627, longitude: -90.1994, speed: 50, heading: 90 },
  ]);
});

t.test('updating the credentials', async (t) => {
  const events = await watchEvents(platform.store);
  const updated = await call('PUT', '/api/organization-services', carrier.token, {
    organizationServiceId: simulatorServiceId,
    clientId: 'fleet-2',
    clientSecret: 'simulator-secret-2',
  });
  t.equal(updated.statusCode, 200, updated.body);
  await events.expect(t, [
    {
      type: 'ServiceCredentialsUpdated',
      data: {
        organizationServiceId: simulatorServiceId,
        clientId: 'fleet-2',
        updatedBy: carrier.userId,
      },
    },
  ]);
  t.match(updated.json(), {
    id: 'simulator',
    status: 'Installed',
    organizationServiceData: {
      organizationServiceId: simulatorServiceId,
      clientId: 'fleet-2',
      secretSet: true,
    },
  });
  const refused = await call('PUT', '/api/organization-services', carrier.token, {
    organizationServiceId: simulatorServiceId,
    clientId: 'fleet-2',
    clientSecret: 'invalid',
  });
  t.equal(refused.statusCode, 400, 'checked with the provider first');
  await events.expect(t, [], { message: 'a refused update appends nothing' });
  t.equal(
    (await call('GET', '/api/organization-services', carrier.token)).json()[0]
      .organizationServiceData.clientId,
    'fleet-2',
    'a refused update changes nothing',
  );
  t.equal(
    (
      await call('PUT', '/api/organization-services', carrierB.token, {
        organizationServiceId: simulatorServiceId,
        clientId: 'x',
        clientSecret: 'y',
      })
    ).statusCode,
    404,
    "another organization's service is not found",
  );
  t.equal(
    (
      await call('PUT', '/api/organization-services', carrier.token, {
        organizationServiceId: '00000000-0000-4000-8000-000000000000',
        clientId: 'x',
        clientSecret: 'y',
      })
    ).statusCode,
    404,
  );
  t.equal(
    (
      await call('PUT', '/api/organization-services', carrier.token, {
        organizationServiceId: 'nope',
        clientId: 'x',
        clientSecret: 'y',
      })
    ).statusCode,
    400,
  );
  const byAdmin = await call('PUT', '/api/organization-services', admin.token, {
    organizationServiceId: samsaraServiceId,
    clientSecret: SAMSARA_TOKEN,
  });
  t.equal(byAdmin.statusCode, 200, "a Superadmin may fix any organization's credentials");
  t.match(byAdmin.json(), {
    id: 'samsara',
    organizationServiceData: { organizationServiceId: samsaraServiceId },
  });
});

t.test(
  "the trucks: the organization's own service only, by its id or the provider's",
  async (t) => {
    const trucks = await call('GET', `/api/services/${simulatorServiceId}/trucks`, carrier.token);
    t.equal(trucks.statusCode, 200, trucks.body);
    t.equal(trucks.json().length, 8);
    t.match(trucks.json()[0], {
      id: String,
      name: 'T-11',
      latitude: Number,
      longitude: Number,
      speed: Number,
      heading: Number,
      updatedAt: String,
    });
    t.same(
      (await call('GET', '/api/services/simulator/trucks', carrier.token))
        .json()
        .map((truck: { id: string }) => truck.id),
      trucks.json().map((truck: { id: string }) => truck.id),
      'the provider id names the same installation',
    );
    t.equal(
      (await call('GET', `/api/services/${simulatorServiceId}/trucks`, carrierB.token)).statusCode,
      404,
      "another organization's service: 404",
    );
    t.equal(
      (await call('GET', '/api/services/simulator/trucks', carrierB.token)).statusCode,
      404,
      'a provider the organization did not install: 404',
    );
    t.equal(
      (await call('GET', `/api/services/${simulatorServiceId}/trucks`, shipper.token)).statusCode,
      403,
    );

    const fromSamsara = (
      await call('GET', `/api/services/${samsaraServiceId}/trucks`, carrier.token)
    ).json();
    t.same(
      fromSamsara.map((truck: { name: string }) => truck.name),
      ['T-12', 'T-40'],
      'both pages of the fleet',
    );
  },
);

t.test('the trucks nearest a point first, with the distance in miles', async (t) => {
  const url = `/api/services/${simulatorServiceId}/trucks/${CHICAGO.latitude}/${CHICAGO.longitude}`;
  const nearest = (await call('GET', url, carrier.token)).json();
  t.equal(nearest.length, 8);
  const distances = nearest.map((truck: { distance: number }) => truck.distance);
  t.same(
    distances,
    [...distances].sort((a, b) => a - b),
    `nearest first: ${distances.join(', ')}`,
  );
  t.ok(
    distances.every((distance: number) => distance >= 0 && distance < 3000),
    'miles, within the US',
  );
  const samsaraNearest = (
    await call(
      'GET',
      `/api/services/samsara/trucks/${CHICAGO.latitude}/${CHICAGO.longitude}`,
      carrier.token,
    )
  ).json();
  t.match(samsaraNearest, [{ name: 'T-12' }, { name: 'T-40' }]);
  t.ok(
    samsaraNearest[0].distance < 0.5,
    `T-12 is in Chicago (${samsaraNearest[0].distance} miles)`,
  );
  t.ok(
    samsaraNearest[1].distance > 150 && samsaraNearest[1].distance < 170,
    `Indianapolis is ${samsaraNearest[1].distance} miles from Chicago`,
  );
  t.equal(
    (await call('GET', `/api/services/${simulatorServiceId}/trucks/95/-87`, carrier.token))
      .statusCode,
    400,
    'not a latitude',
  );
  t.equal(
    (await call('GET', `/api/services/${simulatorServiceId}/trucks/north/-87`, carrier.token))
      .statusCode,
    400,
  );
  t.equal(
    (await call('GET', `/api/services/${simulatorServiceId}/trucks/41/-87`, carrierB.token))
      .statusCode,
    404,
  );
});

t.test(
  'a provider asking to wait: 503 with its Retry-After; a revoked token: 409 saying what to do',
  async (t) => {
    samsara.queue({
      status: 429,
      headers: { 'retry-after': '120' },
      body: { message: 'Rate limit exceeded' },
    });
    const limited = await call('GET', `/api/services/${samsaraServiceId}/trucks`, carrier.token);
    t.equal(limited.statusCode, 503);
    t.equal(limited.headers['retry-after'], '120', 'the delay Samsara asked for');
    t.match(limited.json().message, /Samsara is limiting requests/);
    samsara.queue({ status: 401, body: { message: 'Token revoked' } });
    const revoked = await call('GET', `/api/services/${samsaraServiceId}/trucks`, carrier.token);
    t.equal(revoked.statusCode, 409);
    t.match(
      revoked.json().message,
      /Samsara refused the credentials: Token revoked\. Update the credentials of Samsara/,
    );
  },
);

t.test('the secret is in no answer, and only sealed at rest', async (t) => {
  for (const secret of [SIMULATOR_SECRET, 'simulator-secret-2', SAMSARA_TOKEN, MOTIVE_KEY]) {
    t.notOk(
      answers.some((body) => body.includes(secret)),
      `no answer holds ${secret}`,
    );
    const { rows: events } = await platform.database.db
      .selectFrom('events')
      .select('event_id')
      .where((eb) => eb(eb.cast('data', 'text'), 'like', `%${secret}%`))
      .execute()
      .then((found) => ({ rows: found }));
    t.equal(events.length, 0, `no event holds ${secret} in clear`);
  }
  const views = await platform.database.db
    .selectFrom('organization_services_view')
    .select(['sealed_secret'])
    .execute();
  t.ok(
    views.length >= 3 && views.every((row) => /^v1\./.test(row.sealed_secret)),
    'the read model keeps the sealed form',
  );
  t.ok(
    answers.every((body) => !/sealed|v1\.[\w-]{16}/.test(body)),
    'nor the sealed form in an answer',
  );
});
