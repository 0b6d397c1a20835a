/**
 * The road of the demo truck: the tour's stops joined by gentle curves (a quadratic Bézier per leg,
 * bowed to one side by a few per cent of the leg's length, alternating sides), and where the truck
 * is on it a given time after it left the first stop: at cruising speed on the legs, parked for a
 * while at each stop on the way, parked for good at the last one. Pure: time is an argument.
 */
import { distanceMiles, type LatLng } from '../../domain/tours/geo.ts';

export type DemoRoute = {
  points: LatLng[];
  /** Miles from the start to each point. */
  cumulativeMiles: number[];
  /** The index in `points` of each stop. */
  stopIndexes: number[];
  totalMiles: number;
};

export type DrivingPlan = { mph: number; dwellMs: number };
/** A loaded truck on the interstate, and the time it takes to load or unload at a stop on the way. */
export const DEFAULT_PLAN: DrivingPlan = { mph: 55, dwellMs: 45 * 60_000 };

/** How far a leg's curve bows out, as a share of the leg's length. */
const BOW = 0.06;

export function buildRoute(stops: readonly LatLng[], samplesPerLeg = 240): DemoRoute {
  if (stops.length < 2) throw new Error('A route needs at least two stops');
  const points: LatLng[] = [{ latitude: stops[0]!.latitude, longitude: stops[0]!.longitude }];
  const stopIndexes = [0];
  for (let leg = 0; leg < stops.length - 1; leg++) {
    const from = stops[leg]!;
    const to = stops[leg + 1]!;
    // A local flat projection: longitude degrees shrink with the cosine of the latitude.
    const scale = Math.cos((((from.latitude + to.latitude) / 2) * Math.PI) / 180);
    const dx = (to.longitude - from.longitude) * scale;
    const dy = to.latitude - from.latitude;
    const side = leg % 2 === 0 ? 1 : -1;
    const control = {
      x: (from.longitude * scale + to.longitude * scale) / 2 - dy * BOW * side,
      y: (from.latitude + to.latitude) / 2 + dx * BOW * side,
    };
    for (let step = 1; step <= samplesPerLeg; step++) {
      const t = step / samplesPerLeg;
      const a = (1 - t) ** 2;
      const b = 2 * (1 - t) * t;
      const c = t ** 2;
      const x = a * from.longitude * scale + b * control.x + c * to.longitude * scale;
      const y = a * from.latitude + b * control.y + c * to.latitude;
      points.push(
        step === samplesPerLeg
          ? { latitude: to.latitude, longitude: to.longitude }
          : { latitude: y, longitude: x / scale },
      );
    }
    stopIndexes.push(points.length - 1);
  }
  const cumulativeMiles = [0];
  for (let index = 1; index < points.length; index++)
    cumulativeMiles.push(
      cumulativeMiles[index - 1]! + distanceMiles(points[index - 1]!, points[index]!),
    );
  return { points, cumulativeMiles, stopIndexes, totalMiles: cumulativeMiles.at(-1)! };
}

/** Compass bearing from a to b in degrees (0 north, 90 east). */
export const bearing = (a: LatLng, b: LatLng): number => {
  const rad = Math.PI / 180;
  const y = Math.sin((b.longitude - a.longitude) * rad) * Math.cos(b.latitude * rad);
  const x =
    Math.cos(a.latitude * rad) * Math.sin(b.latitude * rad) -
    Math.sin(a.latitude * rad) *
      Math.cos(b.latitude * rad) *
      Math.cos((b.longitude - a.longitude) * rad);
  return (Math.atan2(y, x) / rad + 360) % 360;
};

export type RoutePosition = LatLng & { heading: number; speed: number; arrived: boolean };

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The point `miles` along the route, and the heading there. */
export function pointAlong(route: DemoRoute, miles: number): LatLng & { heading: number } {
  const target = Math.min(Math.max(miles, 0), route.totalMiles);
  let high = route.cumulativeMiles.findIndex((value) => value >= target);
  if (high <= 0) high = 1;
  const low = high - 1;
  const span = route.cumulativeMiles[high]! - route.cumulativeMiles[low]!;
  const share = span === 0 ? 0 : (target - route.cumulativeMiles[low]!) / span;
  const a = route.points[low]!;
  const b = route.points[high]!;
  return {
    latitude: a.latitude + (b.latitude - a.latitude) * share,
    longitude: a.longitude + (b.longitude - a.longitude) * share,
    heading: bearing(a, b),
  };
}

/** The whole trip: the legs at cruising speed and a stay at each stop between the first and the last. */
export const tripDurationMs = (route: DemoRoute, plan: DrivingPlan = DEFAULT_PLAN): number =>
  (route.totalMiles / plan.mph) * 3_600_000 +
  Math.max(0, route.stopIndexes.length - 2) * plan.dwellMs;

/** Where the truck is `elapsedMs` after leaving the first stop (coordinates to six decimals, about 10 cm). */
export function positionAt(
  route: DemoRoute,
  elapsedMs: number,
  plan: DrivingPlan = DEFAULT_PLAN,
): RoutePosition {
  let remaining = Math.max(0, elapsedMs);
  for (let leg = 0; leg < route.stopIndexes.length - 1; leg++) {
    const startMiles = route.cumulativeMiles[route.stopIndexes[leg]!]!;
    const endMiles = route.cumulativeMiles[route.stopIndexes[leg + 1]!]!;
    const driveMs = ((endMiles - startMiles) / plan.mph) * 3_600_000;
    if (remaining < driveMs) {
      const point = pointAlong(route, startMiles + (remaining / 3_600_000) * plan.mph);
      return {
        latitude: round(point.latitude, 6),
        longitude: round(point.longitude, 6),
        heading: round(point.heading, 1),
        speed: plan.mph,
        arrived: false,
      };
    }
    remaining -= driveMs;
    const isLast = leg === route.stopIndexes.length - 2;
    if (!isLast && remaining < plan.dwellMs) {
      const stop = route.points[route.stopIndexes[leg + 1]!]!;
      return {
        ...stop,
        heading: round(pointAlong(route, endMiles).heading, 1),
        speed: 0,
        arrived: false,
      };
    }
    if (!isLast) remaining -= plan.dwellMs;
  }
  const last = route.points.at(-1)!;
  return {
    ...last,
    heading: round(pointAlong(route, route.totalMiles).heading, 1),
    speed: 0,
    arrived: true,
  };
}
