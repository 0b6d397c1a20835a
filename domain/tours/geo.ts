/**
 * Distances, the stop geofence and the arrival estimate of a tour (docs/domain.md "Tour": a position
 * within 500 m of a stop records an arrival). Pure functions: time arrives as an argument.
 */
import type { TourStop } from './tour.types.ts';

export type LatLng = { latitude: number; longitude: number };

/** Mean radius of the Earth (IUGG), in metres. */
const EARTH_RADIUS_METERS = 6_371_008.8;
export const METERS_PER_MILE = 1_609.344;

/** A truck within this distance of a stop is at the stop. */
export const GEOFENCE_METERS = 500;

/**
 * Roads are longer than the straight line between two places; 1.2 is the usual detour factor for
 * US highway trips (road distance over great-circle distance is about 1.15 to 1.3).
 */
export const ROAD_FACTOR = 1.2;
/** Below this speed the truck is stopped or in town traffic and its speed says nothing about the trip. */
export const MOVING_SPEED_MPH = 5;
/** The average speed of a loaded truck over a trip, breaks and traffic included. */
export const AVERAGE_SPEED_MPH = 50;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in metres (haversine). */
export const distanceMeters = (a: LatLng, b: LatLng): number => {
  const deltaLatitude = radians(b.latitude - a.latitude);
  const deltaLongitude = radians(b.longitude - a.longitude);
  const h =
    Math.sin(deltaLatitude / 2) ** 2 +
    Math.cos(radians(a.latitude)) *
      Math.cos(radians(b.latitude)) *
      Math.sin(deltaLongitude / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
};

/** Great-circle distance in statute miles. */
export const distanceMiles = (a: LatLng, b: LatLng): number =>
  distanceMeters(a, b) / METERS_PER_MILE;

/** The nearest stop whose geofence holds the point, or null when the point is at no stop. */
export const stopAt = (stops: readonly TourStop[], point: LatLng): TourStop | null => {
  let nearest: TourStop | null = null;
  let nearestMeters = Infinity;
  for (const stop of stops) {
    const meters = distanceMeters(stop, point);
    if (meters <= GEOFENCE_METERS && meters < nearestMeters) {
      nearest = stop;
      nearestMeters = meters;
    }
  }
  return nearest;
};

export type ArrivalEstimate = {
  /** ISO time at which the truck reaches the last of the remaining stops. */
  etaAt: string;
  /** Estimated road miles left, one decimal. */
  remainingMiles: number;
};

/**
 * When the truck reaches the last remaining stop. Assumptions, all rough on purpose (no routing
 * service is called):
 * - the route is the straight lines from the truck through the remaining stops in their order,
 *   times ROAD_FACTOR (1.2) for the roads' detours;
 * - the truck keeps its current speed when it is moving (above 5 mph), else it covers the rest at
 *   the 50 mph trip average (a parked or crawling truck says nothing about the hours ahead);
 * - no time is counted for loading, unloading or rest breaks at the stops on the way.
 */
export const estimateArrival = ({
  from,
  stops,
  speedMph,
  now,
}: {
  from: LatLng;
  stops: readonly LatLng[];
  speedMph?: number | null;
  now: string;
}): ArrivalEstimate => {
  let straightMiles = 0;
  let position = from;
  for (const stop of stops) {
    straightMiles += distanceMiles(position, stop);
    position = stop;
  }
  const roadMiles = straightMiles * ROAD_FACTOR;
  const mph =
    speedMph !== null && speedMph !== undefined && speedMph > MOVING_SPEED_MPH
      ? speedMph
      : AVERAGE_SPEED_MPH;
  const etaAt = new Date(Date.parse(now) + Math.round((roadMiles / mph) * 3_600_000)).toISOString();
  return { etaAt, remainingMiles: Math.round(roadMiles * 10) / 10 };
};
