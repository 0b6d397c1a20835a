import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { gazetteer } from './gazetteer.ts';
import { createPlaceSearch, photonPlace, type PhotonFeature, type PlaceLogger } from './photon.ts';

/** Photon's answer shape: a GeoJSON FeatureCollection of points with OSM properties. */
const feature = (
  coordinates: [number, number],
  properties: PhotonFeature['properties'],
): PhotonFeature => ({ type: 'Feature', geometry: { type: 'Point', coordinates }, properties });
const chicago = feature([-87.6244212, 41.8755616], {
  osm_id: 122604,
  osm_type: 'R',
  osm_key: 'place',
  osm_value: 'city',
  type: 'city',
  name: 'Chicago',
  state: 'Illinois',
  country: 'United States',
  countrycode: 'US',
});
const willisTower = feature([-87.6358, 41.8789], {
  osm_id: 30302545,
  osm_type: 'W',
  osm_key: 'building',
  osm_value: 'yes',
  type: 'house',
  name: 'Willis Tower',
  housenumber: '233',
  street: 'South Wacker Drive',
  postcode: '60606',
  city: 'Chicago',
  state: 'Illinois',
  country: 'United States',
  countrycode: 'US',
});
const chicoutimi = feature([-71.06, 48.42], {
  osm_id: 1,
  osm_type: 'N',
  osm_key: 'place',
  osm_value: 'city',
  name: 'Chicoutimi',
  state: 'Quebec',
  country: 'Canada',
  countrycode: 'CA',
});

type Mode = 'ok' | 'error' | 'garbage' | 'hang';
const photon = { mode: 'ok' as Mode, requests: [] as URL[] };
const hanging: ServerResponse[] = [];
const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  photon.requests.push(url);
  if (photon.mode === 'hang') {
    hanging.push(response);
    return;
  }
  if (photon.mode === 'error') {
    response.writeHead(500).end('boom');
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  if (photon.mode === 'garbage') {
    response.end('{"not":"geojson"}');
    return;
  }
  const features = url.pathname === '/reverse' ? [chicago] : [chicoutimi, chicago, willisTower];
  response.end(JSON.stringify({ type: 'FeatureCollection', features }));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
t.teardown(() => {
  for (const response of hanging) response.destroy();
  server.close();
});
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

function recordingLogger() {
  const warnings: { details: Record<string, unknown>; message: string }[] = [];
  const logger: PlaceLogger = {
    warn: (details, message) => {
      warnings.push({ details, message });
    },
  };
  return { warnings, logger };
}

t.beforeEach(() => {
  photon.mode = 'ok';
  photon.requests.length = 0;
});

t.test('without GEOCODER_URL the embedded gazetteer answers', async (t) => {
  const places = createPlaceSearch({});
  t.equal(places.source, 'gazetteer');
  t.equal((await places.search('chic'))[0].address, 'Chicago, IL');
  t.equal((await places.geocode('Austin, TX'))?.address, 'Austin, TX');
  t.equal((await places.reverse(41.88, -87.63))?.address, 'Chicago, IL');
  t.equal(photon.requests.length, 0);
});

t.test('with GEOCODER_URL, Photon answers: US features mapped to places', async (t) => {
  const { warnings, logger } = recordingLogger();
  const places = createPlaceSearch({ GEOCODER_URL: `${base}/` }, { logger });
  t.equal(places.source, 'photon');
  const found = await places.search('chic', 5);
  t.same(
    found,
    [
      {
        id: 'osm:R122604',
        name: 'Chicago',
        address: 'Chicago, IL',
        latitude: 41.8755616,
        longitude: -87.6244212,
        city: 'Chicago',
        state: 'IL',
        zip: null,
        population: null,
      },
      {
        id: 'osm:W30302545',
        name: 'Willis Tower',
        address: 'Willis Tower, 233 South Wacker Drive, Chicago, IL 60606',
        latitude: 41.8789,
        longitude: -87.6358,
        city: 'Chicago',
        state: 'IL',
        zip: '60606',
        population: null,
      },
    ],
    'Canada is left out',
  );
  const [request] = photon.requests;
  t.equal(request.pathname, '/api');
  t.equal(request.searchParams.get('q'), 'chic');
  t.equal(request.searchParams.get('lang'), 'en');
  t.ok(Number(request.searchParams.get('limit')) >= 5);
  t.equal((await places.search('chic', 1)).length, 1, 'the limit is kept');
  t.same(await places.search('  '), [], 'an empty query asks nothing');
  t.equal(photon.requests.length, 2);

  const reversed = await places.reverse(41.88, -87.63);
  t.equal(reversed?.address, 'Chicago, IL');
  const reverseRequest = photon.requests.at(-1)!;
  t.equal(reverseRequest.pathname, '/reverse');
  t.same(
    [
      reverseRequest.searchParams.get('lat'),
      reverseRequest.searchParams.get('lon'),
      reverseRequest.searchParams.get('lang'),
    ],
    ['41.88', '-87.63', 'en'],
  );
  t.equal((await places.geocode('Chicago'))?.id, 'osm:R122604');
  t.same(warnings, []);
});

t.test('a Photon failure is logged and answered from the gazetteer', async (t) => {
  for (const mode of ['error', 'garbage', 'hang'] as const) {
    photon.mode = mode;
    const { warnings, logger } = recordingLogger();
    const places = createPlaceSearch({ GEOCODER_URL: base }, { logger, timeoutMs: 300 });
    const found = await places.search('springfield', 3);
    t.same(found, gazetteer().search('springfield', 3), `${mode}: the gazetteer's answer`);
    t.equal((await places.reverse(41.88, -87.63))?.address, 'Chicago, IL', `${mode}: reverse too`);
    t.equal(warnings.length, 2, `${mode}: each failure is logged`);
    t.match(warnings[0], {
      message: /geocoder failed/,
      details: { geocoder: base, what: 'search' },
    });
  }
});

t.test('an unreachable Photon server is a failure like any other', async (t) => {
  const { warnings, logger } = recordingLogger();
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const places = createPlaceSearch({ GEOCODER_URL: `http://127.0.0.1:${port}` }, { logger });
  t.equal((await places.search('60607'))[0].address, '60607 — Chicago, IL');
  t.equal((await places.geocode('Indianapolis, IN'))?.address, 'Indianapolis, IN');
  t.equal(warnings.length, 2);
});

t.test('photonPlace: what a feature needs to be a US place', async (t) => {
  t.equal(photonPlace(chicoutimi), null, 'another country');
  t.equal(
    photonPlace(
      feature([-66.1, 18.4], { name: 'San Juan', state: 'Puerto Rico', countrycode: 'US' }),
    ),
    null,
    'outside the 50 states and DC',
  );
  t.equal(
    photonPlace({ properties: { name: 'Nowhere', state: 'Texas', countrycode: 'US' } }),
    null,
    'no point',
  );
  t.match(
    photonPlace(
      feature([-97.74, 30.27], {
        osm_type: 'N',
        osm_id: 7,
        name: 'Austin',
        osm_value: 'city',
        state: 'Texas',
        countrycode: 'US',
        postcode: '78701-1234',
      }),
    ),
    { address: 'Austin, TX 78701', zip: '78701', city: 'Austin', state: 'TX' },
  );
  t.match(
    photonPlace(
      feature([-87.63, 41.88], {
        housenumber: '1',
        street: 'Main Street',
        city: 'Chicago',
        state: 'Illinois',
        countrycode: 'US',
      }),
    ),
    { name: '1 Main Street', address: '1 Main Street, Chicago, IL', city: 'Chicago' },
  );
});
