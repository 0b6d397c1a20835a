import t from 'tap';
import { distanceMiles, GEOFENCE_METERS, distanceMeters } from '../../domain/tours/geo.ts';
import {
  bearing,
  buildRoute,
  DEFAULT_PLAN,
  pointAlong,
  positionAt,
  tripDurationMs,
} from './demoRoute.ts';
import { places } from './demoData.ts';

const stops = [places.prairieChicago, places.prairieStLouis, places.loneStarDallas];
const route = buildRoute(stops);
const HOUR = 3_600_000;

t.test('the road passes through every stop, a little longer than the straight lines', async (t) => {
  for (const [index, stop] of stops.entries())
    t.same(route.points[route.stopIndexes[index]!], {
      latitude: stop.latitude,
      longitude: stop.longitude,
    });
  const straight = distanceMiles(stops[0]!, stops[1]!) + distanceMiles(stops[1]!, stops[2]!);
  t.ok(
    route.totalMiles > straight && route.totalMiles < straight * 1.05,
    `${route.totalMiles.toFixed(0)} road miles for ${straight.toFixed(0)} straight: a gentle curve`,
  );
  const middle = pointAlong(route, route.cumulativeMiles[route.stopIndexes[1]!]! / 2);
  const chord = {
    latitude: (stops[0]!.latitude + stops[1]!.latitude) / 2,
    longitude: (stops[0]!.longitude + stops[1]!.longitude) / 2,
  };
  const bow = distanceMiles(middle, chord);
  t.ok(bow > 3 && bow < 20, `the first leg bows ${bow.toFixed(1)} miles off the straight line`);
});

t.test(
  'the truck leaves the first stop, stays at the stop on the way, and parks at the last',
  async (t) => {
    const start = positionAt(route, 0);
    t.match(start, {
      latitude: stops[0]!.latitude,
      longitude: stops[0]!.longitude,
      speed: 55,
      arrived: false,
    });
    const tenSeconds = positionAt(route, 10_000);
    t.ok(
      distanceMeters(start, tenSeconds) > 200 && distanceMeters(start, tenSeconds) < 300,
      'about 245 metres in ten seconds at 55 mph',
    );
    const outOfTown = positionAt(route, 60_000);
    t.ok(
      distanceMeters(stops[0]!, outOfTown) > GEOFENCE_METERS,
      'out of the pickup geofence within a minute',
    );
    t.ok(
      Math.abs(outOfTown.heading - bearing(stops[0]!, stops[1]!)) < 20,
      `heading ${outOfTown.heading}° towards St. Louis`,
    );

    const firstLegMs = (route.cumulativeMiles[route.stopIndexes[1]!]! / DEFAULT_PLAN.mph) * HOUR;
    t.match(
      positionAt(route, firstLegMs + 10 * 60_000),
      { latitude: stops[1]!.latitude, longitude: stops[1]!.longitude, speed: 0, arrived: false },
      'loading in St. Louis',
    );
    const back = positionAt(route, firstLegMs + DEFAULT_PLAN.dwellMs + 60_000);
    t.equal(back.speed, 55, 'on the road again after 45 minutes');

    const total = tripDurationMs(route);
    t.ok(
      total > 15 * HOUR && total < 22 * HOUR,
      `Chicago to Dallas in ${(total / HOUR).toFixed(1)} hours`,
    );
    t.match(positionAt(route, total + HOUR), {
      latitude: stops[2]!.latitude,
      longitude: stops[2]!.longitude,
      speed: 0,
      arrived: true,
    });
    let previous = Infinity;
    for (let at = 0; at <= total; at += HOUR) {
      const left = distanceMiles(positionAt(route, at), stops[2]!);
      t.ok(
        left <= previous,
        `${(at / HOUR).toFixed(0)} h: ${left.toFixed(0)} miles from Dallas, never further than before`,
      );
      previous = left;
    }
  },
);

t.test('a route needs two stops', async (t) => {
  t.throws(() => buildRoute([stops[0]!]), /at least two stops/);
});
