// @postgres: saved searches' distance and matching in SQL
import t from 'tap';
import { Role } from '../../domain/catalog.ts';
import { savedSearchStream } from '../../domain/searches/savedSearch.types.ts';
import { bearer, member, organization, superadmin } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { CHICAGO, INDIANAPOLIS } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

/** Saved searches through HTTP: validation messages, the organization's own list, 404 across tenants, 403 for shippers. */
const { app, platform, close } = await startTestApp();
t.teardown(close);

const admin = await superadmin(app, platform);
const carrier = await organization(app, platform, 'Carrier', { name: 'Lane Hauling' });
const dispatcher = await member(app, platform, carrier.organizationId!, Role.Carrier, {
  name: 'Dee Dispatch',
});
const driver = await member(app, platform, carrier.organizationId!, Role.Driver);
const otherCarrier = await organization(app, platform, 'Carrier', { name: 'Other Trucking' });
const shipper = await organization(app, platform, 'Shipper');

const list = (token: string) =>
  app.inject({ method: 'GET', url: '/api/searches', headers: bearer(token) });
const save = (token: string | null, payload: unknown) =>
  app.inject({
    method: 'POST',
    url: '/api/searches',
    headers: token ? bearer(token) : {},
    payload: payload as object,
  });
const remove = (token: string, id: string) =>
  app.inject({ method: 'DELETE', url: `/api/searches/${id}`, headers: bearer(token) });

const chicagoToIndy = {
  name: 'Chicago to Indy vans',
  origin: { latitude: CHICAGO.latitude, longitude: CHICAGO.longitude, radius: 100 },
  destination: { latitude: INDIANAPOLIS.latitude, longitude: INDIANAPOLIS.longitude, radius: 50 },
  equipment: [5, 1],
};
const errorsOf = (body: { errors?: { path: string; message: string }[] }) =>
  (body.errors ?? []).map((error) => `${error.path}: ${error.message}`);

let searchId = '';
const watch = await watchEvents(platform.store);

t.test('saving a search: the messages of the specification, field by field', async (t) => {
  const noName = await save(carrier.token, { ...chicagoToIndy, name: '  ' });
  t.equal(noName.statusCode, 400);
  t.same(errorsOf(noName.json()), ['name: Please enter a name']);
  const nothing = await save(carrier.token, { name: 'Anything', origin: null, equipment: [] });
  t.equal(nothing.statusCode, 400);
  t.equal(nothing.json().message, 'Choose an origin, a destination or equipment');
  t.same(errorsOf(nothing.json()), ['origin: Choose an origin, a destination or equipment']);
  const radius = await save(carrier.token, {
    ...chicagoToIndy,
    origin: { ...chicagoToIndy.origin, radius: 75 },
  });
  t.equal(radius.statusCode, 400);
  t.same(errorsOf(radius.json()), [
    'origin.radius: Please choose a radius of 50, 100, 150 or 200 miles',
  ]);
  const equipment = await save(carrier.token, { ...chicagoToIndy, equipment: [9999] });
  t.same(errorsOf(equipment.json()), ['equipment.0: Please select a valid load equipment']);
  t.same((await list(carrier.token)).json(), [], 'nothing was saved');
  await watch.expect(t, [], { message: 'a refused search appends nothing' });
});

t.test('a carrier saves a search and its whole organization lists it', async (t) => {
  const saved = await save(carrier.token, { ...chicagoToIndy, name: ' Chicago to Indy vans ' });
  t.equal(saved.statusCode, 201, saved.body);
  searchId = saved.json().id;
  t.match(searchId, /^[0-9a-f-]{36}$/);
  await watch.expect(t, [
    {
      type: 'SearchSaved',
      stream: savedSearchStream(searchId),
      data: { searchId, organizationId: carrier.organizationId, name: 'Chicago to Indy vans' },
    },
  ]);

  const { events } = await platform.store.readStream(savedSearchStream(searchId));
  t.same(
    events.map((event) => event.type),
    ['SearchSaved'],
  );
  t.match(events[0]!.data, {
    searchId,
    organizationId: carrier.organizationId,
    userId: carrier.userId,
    name: 'Chicago to Indy vans',
    equipment: [1, 5],
  });

  for (const user of [carrier, dispatcher]) {
    const rows = (await list(user.token)).json();
    t.same(
      rows,
      [
        {
          id: searchId,
          name: 'Chicago to Indy vans',
          origin: chicagoToIndy.origin,
          destination: chicagoToIndy.destination,
          equipment: [1, 5],
          equipmentNames: ['Dry Van', '48 Foot Dry Van'],
          createdBy: carrier.userId,
          createdAt: rows[0]?.createdAt,
        },
      ],
      'listed at once, for every carrier user of the organization',
    );
  }
  const equipmentOnly = await save(dispatcher.token, { name: 'Any 48 ft van', equipment: [5] });
  t.equal(equipmentOnly.statusCode, 201);
  const equipmentOnlyId = equipmentOnly.json().id;
  await watch.expect(t, [
    {
      type: 'SearchSaved',
      stream: savedSearchStream(equipmentOnlyId),
      data: { userId: dispatcher.userId, name: 'Any 48 ft van', equipment: [5] },
    },
  ]);
  const rows = (await list(carrier.token)).json();
  t.same(
    rows.map((row: { name: string }) => row.name),
    ['Chicago to Indy vans', 'Any 48 ft van'],
    'oldest first',
  );
  t.same(
    rows[1],
    { ...rows[1], origin: null, destination: null, equipment: [5] },
    'absent areas are null',
  );
  t.ok((await remove(dispatcher.token, equipmentOnlyId)).statusCode === 204);
  await watch.expect(t, [{ type: 'SearchDeleted', stream: savedSearchStream(equipmentOnlyId) }]);
});

t.test("another organization's searches are not found", async (t) => {
  t.same((await list(otherCarrier.token)).json(), [], 'not listed to another carrier');
  const foreign = await remove(otherCarrier.token, searchId);
  t.equal(foreign.statusCode, 404);
  t.equal(foreign.json().message, 'Saved search not found');
  t.equal(
    (await remove(carrier.token, '00000000-0000-4000-8000-000000000000')).statusCode,
    404,
    'an unknown id is 404 too',
  );
  t.equal((await list(carrier.token)).json().length, 1, 'still there');
  await watch.expect(t, [], { message: 'a refused delete appends nothing' });
});

t.test('shippers, drivers and strangers may not use saved searches', async (t) => {
  for (const [name, user] of [
    ['a shipper', shipper],
    ['a driver', driver],
  ] as const) {
    t.equal((await list(user.token)).statusCode, 403, `${name} cannot list`);
    t.equal((await save(user.token, chicagoToIndy)).statusCode, 403, `${name} cannot save`);
    t.equal((await remove(user.token, searchId)).statusCode, 403, `${name} cannot delete`);
  }
  t.equal((await save(null, chicagoToIndy)).statusCode, 401, 'anonymous: 401');
  const asAdmin = await save(admin.token, chicagoToIndy);
  t.equal(asAdmin.statusCode, 403, 'a Superadmin belongs to no carrier organization');
  t.same((await list(admin.token)).json(), []);
  await watch.expect(t, [], { message: 'nothing refused appends anything' });
});

t.test('deleting a search', async (t) => {
  const deleted = await remove(carrier.token, searchId);
  t.equal(deleted.statusCode, 204);
  t.equal(deleted.body, '');
  t.same((await list(carrier.token)).json(), [], 'gone from the list at once');
  const { events } = await platform.store.readStream(savedSearchStream(searchId));
  t.same(
    events.map((event) => event.type),
    ['SearchSaved', 'SearchDeleted'],
  );
  await watch.expect(t, [
    { type: 'SearchDeleted', stream: savedSearchStream(searchId), data: { searchId } },
  ]);
  t.equal((await remove(carrier.token, searchId)).statusCode, 404, 'a second delete finds nothing');
  await watch.expect(t, [], { message: 'a second delete appends nothing' });
});

t.test('an organization keeps at most 50 searches', async (t) => {
  for (let index = 1; index <= 50; index++) {
    const response = await save(index % 2 ? carrier.token : dispatcher.token, {
      name: `Lane ${index}`,
      equipment: [(index % 10) + 1],
    });
    if (response.statusCode !== 201)
      t.fail(`search ${index}: ${response.statusCode} ${response.body}`);
  }
  t.equal((await watch.take()).length, 50, 'one SearchSaved each');
  const tooMany = await save(carrier.token, { name: 'Lane 51', equipment: [1] });
  t.equal(tooMany.statusCode, 409);
  t.equal(
    tooMany.json().message,
    'An organization keeps at most 50 saved searches: delete one first',
  );
  t.equal((await list(carrier.token)).json().length, 50);
  await watch.expect(t, [], { message: 'the 51st search appends nothing' });
  t.equal(
    (await save(otherCarrier.token, { name: 'Elsewhere', equipment: [1] })).statusCode,
    201,
    'the limit is per organization',
  );
  await watch.expect(t, [{ type: 'SearchSaved', data: { name: 'Elsewhere' } }]);
});
