/**
 * The shipper's offers map shows each offering carrier's truck where the carrier's ELD service
 * says it is now: an offer names the truck, the carrier's installed service reports it. An offer
 * whose truck no installed service reports, or a carrier with no ELD service, shows no truck.
 */
import t from 'tap';
import { bearer, organization } from '../identity/fixtures.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);
const shipper = await organization(app, platform, 'Shipper');
const sharing = await organization(app, platform, 'Carrier', { name: 'Sharing Trucking' });
const silent = await organization(app, platform, 'Carrier', { name: 'Silent Hauling' });
const call = async (method: 'GET' | 'POST', url: string, token: string, body?: unknown) => {
  const response = await app.inject({
    method,
    url,
    headers: bearer(token),
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: response.statusCode, json: response.json() };
};

type Marker = {
  type: string;
  name: string;
  latitude: number;
  longitude: number;
  additionalInfo: string;
};

t.test("each offer's truck at its ELD position, where the carrier shares it", async (t) => {
  const installed = await call('POST', '/api/organization-services', sharing.token, {
    serviceId: 'simulator',
    clientId: 'fleet',
    clientSecret: 'any',
  });
  t.equal(installed.status, 201, 'the sharing carrier installs the ELD simulator');
  const load = await call('POST', '/api/loads', shipper.token, loadBody());
  t.equal(load.status, 201);
  const fleet = (await call('GET', '/api/services/simulator/trucks', sharing.token)).json as {
    name: string;
    latitude: number;
    longitude: number;
  }[];
  const truck = fleet[2]!;
  t.equal(
    (
      await call('POST', `/api/proposal/${load.json.id}`, sharing.token, {
        price: 2100,
        message: 'Near you',
        eldTruckName: ` ${truck.name.toLowerCase()} `,
      })
    ).status,
    201,
    'an offer naming an ELD truck',
  );
  t.equal(
    (
      await call('POST', `/api/proposal/${load.json.id}`, silent.token, {
        price: 1900,
        message: 'Cheaper',
        eldTruckName: truck.name,
      })
    ).status,
    201,
    'an offer from a carrier with no ELD service',
  );

  const map = await call('GET', `/api/loads/${load.json.id}/proposals/map`, shipper.token);
  t.equal(map.status, 200);
  const trucks = (map.json as Marker[]).filter((marker) => marker.type === 'truck');
  t.same(
    trucks.map((marker) => marker.name),
    ['Sharing Trucking'],
    "only the sharing carrier's truck",
  );
  const [shown] = trucks;
  // The simulator's trucks move with time: the two readings are moments apart.
  t.ok(
    Math.abs(shown!.latitude - truck.latitude) < 0.05 &&
      Math.abs(shown!.longitude - truck.longitude) < 0.05,
    `at the ELD position (${shown!.latitude.toFixed(4)}, ${shown!.longitude.toFixed(4)} vs ${truck.latitude.toFixed(4)}, ${truck.longitude.toFixed(4)})`,
  );
  t.equal(
    (map.json as Marker[]).filter((marker) => marker.type === 'specialMarker').length,
    2,
    'and the stops',
  );
});

t.test('a truck no installed service reports shows nowhere', async (t) => {
  const load = await call('POST', '/api/loads', shipper.token, loadBody({ refNumber: 'PO-2' }));
  t.equal(
    (
      await call('POST', `/api/proposal/${load.json.id}`, sharing.token, {
        price: 2000,
        message: 'Soon',
        eldTruckName: 'Not-In-The-Fleet',
      })
    ).status,
    201,
  );
  const map = await call('GET', `/api/loads/${load.json.id}/proposals/map`, shipper.token);
  t.same(
    (map.json as Marker[]).filter((marker) => marker.type === 'truck'),
    [],
  );
  t.equal(
    (await call('GET', `/api/loads/${load.json.id}/proposals/map`, sharing.token)).status,
    404,
    "the map is the shipper's only",
  );
});
