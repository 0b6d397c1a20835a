import t from 'tap';
import { member, organization } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { startTestApp } from '../testing/testApp.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);

const shipper = await organization(app, platform, 'Shipper');
const carrier = await organization(app, platform, 'Carrier');
const driver = await member(app, platform, carrier.organizationId!, 4);

const as = requester(app);

t.test('GET places/autocomplete: signed-in users only', async (t) => {
  const events = await watchEvents(platform.store);
  const anonymous = await as(null).get('/api/places/autocomplete?q=chic');
  t.equal(anonymous.status, 401);
  t.match(anonymous.body, { statusCode: 401, message: 'Please sign in' });
  t.equal(
    (await as('not-a-token').get('/api/places/autocomplete?q=chic')).status,
    401,
    'a bad token',
  );
  t.equal(
    (await as(null).get('/api/places/autocomplete?limit=0')).status,
    401,
    'refused before the query is validated',
  );
  await events.expect(t, [], { message: 'the refused searches appended nothing' });
});

t.test('GET places/autocomplete: US places, best match first', async (t) => {
  const response = await as(shipper).get('/api/places/autocomplete?q=chic');
  t.equal(response.status, 200);
  const places = response.body;
  t.equal(places.length, 10, 'ten by default');
  t.match(places[0], {
    id: /^geonames:/,
    name: 'Chicago',
    address: 'Chicago, IL',
    city: 'Chicago',
    state: 'IL',
    zip: null,
  });
  t.ok(Math.abs(places[0].latitude - 41.85) < 0.1 && Math.abs(places[0].longitude + 87.65) < 0.1);
  t.same(
    Object.keys(places[0]).sort(),
    ['address', 'city', 'id', 'latitude', 'longitude', 'name', 'state', 'zip'],
    'only the fields of the API',
  );

  const limited = await as(driver).get('/api/places/autocomplete?q=springfield&limit=3');
  t.equal(limited.status, 200, 'a driver may search too');
  t.same(
    limited.body.map((place: { address: string }) => place.address),
    ['Springfield, MO', 'Springfield, MA', 'Springfield, IL'],
  );

  const zip = (await as(carrier).get('/api/places/autocomplete?q=60607')).body;
  t.match(zip, [
    { id: 'zip:60607', name: 'Chicago', address: '60607 — Chicago, IL', zip: '60607', state: 'IL' },
  ]);
  t.equal(
    (await as(carrier).get(`/api/places/autocomplete?q=${encodeURIComponent('austin, tx')}`))
      .body[0].address,
    'Austin, TX',
  );

  for (const url of [
    '/api/places/autocomplete',
    '/api/places/autocomplete?q=',
    '/api/places/autocomplete?q=%20%20',
  ]) {
    const empty = await as(shipper).get(url);
    t.equal(empty.status, 200);
    t.same(empty.body, [], `${url}: no text, no places`);
  }
  t.same((await as(shipper).get('/api/places/autocomplete?q=qqqzzz')).body, [], 'no match');
});

t.test('GET places/autocomplete: limit is 1 to 25', async (t) => {
  const events = await watchEvents(platform.store);
  for (const limit of ['0', '26', '2.5', 'ten']) {
    const response = await as(shipper).get(`/api/places/autocomplete?q=chic&limit=${limit}`);
    t.equal(response.status, 400, `limit=${limit}`);
    t.equal(response.body.errors[0].path, 'limit', 'the field is named');
  }
  t.match((await as(shipper).get('/api/places/autocomplete?q=chic&limit=0')).body, {
    message: 'limit is at least 1',
  });
  t.equal((await as(shipper).get('/api/places/autocomplete?q=s&limit=25')).body.length, 25);
  t.equal(
    (await as(shipper).get(`/api/places/autocomplete?q=${'a'.repeat(201)}`)).status,
    400,
    'q is at most 200 characters',
  );
  await events.expect(t, [], { message: 'the refused searches appended nothing' });
});

t.test('GET places/reverse: the town around a point, or 404', async (t) => {
  const events = await watchEvents(platform.store);
  t.equal((await as(null).get('/api/places/reverse?latitude=41.88&longitude=-87.63')).status, 401);
  const chicago = await as(driver).get('/api/places/reverse?latitude=41.88&longitude=-87.63');
  t.equal(chicago.status, 200);
  t.match(chicago.body, { name: 'Chicago', address: 'Chicago, IL', state: 'IL' });
  const nowhere = await as(driver).get('/api/places/reverse?latitude=0&longitude=0');
  t.equal(nowhere.status, 404);
  t.match(nowhere.body, { message: 'No place found near these coordinates' });
  const invalid = await as(driver).get('/api/places/reverse?latitude=91&longitude=-87.63');
  t.equal(invalid.status, 400);
  t.equal(invalid.body.errors[0].path, 'latitude');
  t.equal(
    (await as(driver).get('/api/places/reverse?latitude=41.88')).status,
    400,
    'longitude is required',
  );
  await events.expect(t, [], { message: 'the lookups, found or refused, appended nothing' });
});

t.test('the OpenAPI document credits GeoNames', async (t) => {
  const document = (await as(null).get('/api/docs/json')).body;
  t.match(document.paths['/api/places/autocomplete'].get.description, /GeoNames.*CC BY 4\.0/);
});
