import t from 'tap';
import type { TourStop } from './tour.types.ts';
import { distanceMeters, distanceMiles, estimateArrival, GEOFENCE_METERS, stopAt } from './geo.ts';

const chicago = { latitude: 41.8781, longitude: -87.6298 };
const indianapolis = { latitude: 39.7684, longitude: -86.1581 };
const now = '2026-12-01T10:00:00.000Z';
const stop = (id: string, latitude: number, longitude: number): TourStop => ({
  id,
  locationType: 1,
  name: id,
  address: '',
  city: null,
  state: null,
  latitude,
  longitude,
});

t.test('distances', async (t) => {
  t.equal(distanceMeters(chicago, chicago), 0, 'a point is at no distance from itself');
  t.ok(
    Math.abs(distanceMiles(chicago, indianapolis) - 165) < 1,
    `Chicago to Indianapolis is about 165 miles straight (${distanceMiles(chicago, indianapolis)})`,
  );
  t.equal(
    distanceMiles(chicago, indianapolis),
    distanceMiles(indianapolis, chicago),
    'the same both ways',
  );
  t.ok(
    Math.abs(
      distanceMeters({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 }) - 111_195,
    ) < 5,
    'one degree of latitude is about 111.2 km',
  );
  t.ok(
    Math.abs(
      distanceMeters({ latitude: 0, longitude: 179.9995 }, { latitude: 0, longitude: -179.9995 }) -
        111,
    ) < 1,
    'across the date line',
  );
});

t.test('stopAt: the nearest stop within the 500 m fence', async (t) => {
  t.equal(GEOFENCE_METERS, 500);
  const north = stop('north', chicago.latitude + 0.0036, chicago.longitude); // about 400 m north
  const here = stop('here', chicago.latitude, chicago.longitude);
  t.equal(
    stopAt([north, here], { latitude: chicago.latitude + 0.0009, longitude: chicago.longitude })
      ?.id,
    'here',
    'the nearer of two fences',
  );
  t.equal(
    stopAt([north, here], { latitude: chicago.latitude + 0.0027, longitude: chicago.longitude })
      ?.id,
    'north',
  );
  t.equal(
    stopAt([here], { latitude: chicago.latitude + 0.0044, longitude: chicago.longitude })?.id,
    'here',
    'about 490 m away is inside',
  );
  t.equal(
    stopAt([here], { latitude: chicago.latitude + 0.0046, longitude: chicago.longitude }),
    null,
    'about 510 m away is outside',
  );
  t.equal(stopAt([], chicago), null, 'no stops');
});

t.test('estimateArrival', async (t) => {
  t.test(
    'Chicago to Indianapolis at the 50 mph average: 165 miles straight, about 198 by road',
    async (t) => {
      const estimate = estimateArrival({ from: chicago, stops: [indianapolis], now });
      t.equal(estimate.remainingMiles, 197.8);
      t.equal(estimate.etaAt.slice(0, 16), '2026-12-01T13:57', 'about 3 h 57 min');
    },
  );
  t.test('a truck moving at 66 mph keeps its speed', async (t) => {
    const estimate = estimateArrival({ from: chicago, stops: [indianapolis], speedMph: 66, now });
    t.equal(estimate.etaAt.slice(0, 16), '2026-12-01T12:59', 'about 3 h');
  });
  for (const speedMph of [0, 5, null, undefined]) {
    t.test(`a truck at ${String(speedMph)} mph counts at the 50 mph average`, async (t) => {
      t.equal(
        estimateArrival({ from: chicago, stops: [indianapolis], speedMph, now }).etaAt.slice(0, 16),
        '2026-12-01T13:57',
      );
    });
  }
  t.test('the distance runs through the remaining stops in order', async (t) => {
    const viaIndianapolis = estimateArrival({ from: chicago, stops: [indianapolis, chicago], now });
    t.equal(viaIndianapolis.remainingMiles, 395.6, 'there and back');
  });
  t.test('no stops left: arrived now', async (t) => {
    t.same(estimateArrival({ from: chicago, stops: [], speedMph: 60, now }), {
      etaAt: now,
      remainingMiles: 0,
    });
  });
});
