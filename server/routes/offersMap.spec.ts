/**
 * The shipper's offers map shows each offering carrier's truck where the carrier's ELD service
 * says it is now: an offer names the truck, the carrier's installed service reports it. An offer
 * whose truck no installed service reports, or a carrier with no ELD service, shows no truck.
 */
import t from 'tap';
import { loadOffersStream } from '../../domain/offers/loadOffers.ts';
import { offerStream } from '../../domain/offers/offer.types.ts';
import { organization } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);
const shipper = await organization(app, platform, 'Shipper');
const sharing = await organization(app, platform, 'Carrier', { name: 'Sharing Trucking' });
const silent = await organization(app, platform, 'Carrier', { name: 'Silent Hauling' });
const as = requester(app);

type Marker = {
  type: string;
  name: string;
  latitude: number;
  longitude: number;
  additionalInfo: string;
};

t.test("each offer's truck at its ELD position, where the carrier shares it", async (t) => {
  const installed = await as(sharing).post('/api/organization-services', {
    serviceId: 'simulator',
    clientId: 'fleet',
    clientSecret: 'any',
  });
  t.equal(installed.status, 201, 'the sharing carrier installs the ELD simulator');
  const load = await as(shipper).post('/api/loads', loadBody());
  t.equal(load.status, 201);
  const fleet = (await as(sharing).get('/api/services/simulator/trucks')).body as {
    name: string;
    latitude: number;
    longitude: number;
  }[];
  const truck = fleet[2]!;
  const events = await watchEvents(platform.store);
  const named = await as(sharing).post(`/api/proposal/${load.body.id}`, {
    price: 2100,
    message: 'Near you',
    eldTruckName: ` ${truck.name.toLowerCase()} `,
  });
  t.equal(named.status, 201, 'an offer naming an ELD truck');
  await events.expect(t, [
    {
      type: 'ProposalSubmitted',
      stream: offerStream(named.body.id),
      data: {
        carrierOrganizationId: sharing.organizationId,
        price: 2100,
        eldTruckName: truck.name.toLowerCase(),
      },
    },
    { type: 'ProposalListed', stream: loadOffersStream(load.body.id) },
  ]);
  const cheaper = await as(silent).post(`/api/proposal/${load.body.id}`, {
    price: 1900,
    message: 'Cheaper',
    eldTruckName: truck.name,
  });
  t.equal(cheaper.status, 201, 'an offer from a carrier with no ELD service');
  await events.expect(t, [
    {
      type: 'ProposalSubmitted',
      stream: offerStream(cheaper.body.id),
      data: { carrierOrganizationId: silent.organizationId, price: 1900, eldTruckName: truck.name },
    },
    { type: 'ProposalListed', stream: loadOffersStream(load.body.id) },
  ]);

  const map = await as(shipper).get(`/api/loads/${load.body.id}/proposals/map`);
  t.equal(map.status, 200);
  await events.expect(t, [], { message: 'reading the map appended nothing' });
  const trucks = (map.body as Marker[]).filter((marker) => marker.type === 'truck');
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
    (map.body as Marker[]).filter((marker) => marker.type === 'specialMarker').length,
    2,
    'and the stops',
  );
});

t.test('a truck no installed service reports shows nowhere', async (t) => {
  const load = await as(shipper).post('/api/loads', loadBody({ refNumber: 'PO-2' }));
  t.equal(
    (
      await as(sharing).post(`/api/proposal/${load.body.id}`, {
        price: 2000,
        message: 'Soon',
        eldTruckName: 'Not-In-The-Fleet',
      })
    ).status,
    201,
  );
  const events = await watchEvents(platform.store);
  const map = await as(shipper).get(`/api/loads/${load.body.id}/proposals/map`);
  t.same(
    (map.body as Marker[]).filter((marker) => marker.type === 'truck'),
    [],
  );
  t.equal(
    (await as(sharing).get(`/api/loads/${load.body.id}/proposals/map`)).status,
    404,
    "the map is the shipper's only",
  );
  await events.expect(t, [], { message: 'the map read and the refused one appended nothing' });
});
