import t from 'tap';
import { bearer, member, organization } from '../identity/fixtures.ts';
import { startTestApp } from '../testing/testApp.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);

const shipper = await organization(app, platform, 'Shipper');
const carrier = await organization(app, platform, 'Carrier');
const driver = await member(app, platform, carrier.organizationId!, 4);

const get = (url: string, token?: string) =>
  app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });

t.test('GET places/autocomplete: signed-in users only', async (t) => {
  const anonymous = await get('/api/places/autocomplete?q=chic');
  t.equal(anonymous.statusCode, 401);
  t.match(anonymous.json(), { statusCode: 401, message: 'Please sign in' });
  t.equal(
    (await get('/api/places/autocomplete?q=chic', 'not-a-token')).statusCode,
    401,
    'a bad token',
  );
  t.equal(
    (await get('/api/places/autocomplete?limit=0')).statusCode,
    401,
    'refused before the query is validated',
  );
});

t.test('GET places/autocomplete: US places, best match first', async (t) => {
  const response = await get('/api/places/autocomplete?q=chic', shipper.token);
  t.equal(response.statusCode, 200);
  const places = response.json();
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

  const limited = await get('/api/places/autocomplete?q=springfield&limit=3', driver.token);
  t.equal(limited.statusCode, 200, 'a driver may search too');
  t.same(
    limited.json().map((place: { address: string }) => place.address),
    ['Springfield, MO', 'Springfield, MA', 'Springfield, IL'],
  );

  const zip = (await get('/api/places/autocomplete?q=60607', carrier.token)).json();
  t.match(zip, [
    { id: 'zip:60607', name: 'Chicago', address: '60607 — Chicago, IL', zip: '60607', state: 'IL' },
  ]);
  t.equal(
    (
      await get(`/api/places/autocomplete?q=${encodeURIComponent('austin, tx')}`, carrier.token)
    ).json()[0].address,
    'Austin, TX',
  );

  for (const url of [
    '/api/places/autocomplete',
    '/api/places/autocomplete?q=',
    '/api/places/autocomplete?q=%20%20',
  ]) {
    const empty = await get(url, shipper.token);
    t.equal(empty.statusCode, 200);
    t.same(empty.json(), [], `${url}: no text, no places`);
  }
  t.same((await get('/api/places/autocomplete?q=qqqzzz', shipper.token)).json(), [], 'no match');
});

t.test('GET places/autocomplete: limit is 1 to 25', async (t) => {
  for (const limit of ['0', '26', '2.5', 'ten']) {
    const response = await get(`/api/places/autocomplete?q=chic&limit=${limit}`, shipper.token);
    t.equal(response.statusCode, 400, `limit=${limit}`);
    t.equal(response.json().errors[0].path, 'limit', 'the field is named');
  }
  t.match((await get('/api/places/autocomplete?q=chic&limit=0', shipper.token)).json(), {
    message: 'limit is at least 1',
  });
  t.equal((await get('/api/places/autocomplete?q=s&limit=25', shipper.token)).json().length, 25);
  t.equal(
    (await get(`/api/places/autocomplete?q=${'a'.repeat(201)}`, shipper.token)).statusCode,
    400,
    'q is at most 200 characters',
  );
});

t.test('GET places/reverse: the town around a point, or 404', async (t) => {
  t.equal((await get('/api/places/reverse?latitude=41.88&longitude=-87.63')).statusCode, 401);
  const chicago = await get('/api/places/reverse?latitude=41.88&longitude=-87.63', driver.token);
  t.equal(chicago.statusCode, 200);
  t.match(chicago.json(), { name: 'Chicago', address: 'Chicago, IL', state: 'IL' });
  const nowhere = await get('/api/places/reverse?latitude=0&longitude=0', driver.token);
  t.equal(nowhere.statusCode, 404);
  t.match(nowhere.json(), { message: 'No place found near these coordinates' });
  const invalid = await get('/api/places/reverse?latitude=91&longitude=-87.63', driver.token);
  t.equal(invalid.statusCode, 400);
  t.equal(invalid.json().errors[0].path, 'latitude');
  t.equal(
    (await get('/api/places/reverse?latitude=41.88', driver.token)).statusCode,
    400,
    'longitude is required',
  );
});

t.test('the OpenAPI document credits GeoNames', async (t) => {
  const document = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  t.match(document.paths['/api/places/autocomplete'].get.description, /GeoNames.*CC BY 4\.0/);
});
