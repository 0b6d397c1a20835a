/** Distances along a load's stops, for the marketplace's `distance` column and radius searches. */
export type Point = { latitude: number; longitude: number };

const EARTH_RADIUS_MILES = 3958.7613;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in miles (haversine). */
export const haversineMiles = (a: Point, b: Point): number => {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
};

/** Straight-line miles from stop to stop in route order, rounded to one decimal. */
export const routeMiles = (stops: readonly Point[]): number => {
  let total = 0;
  for (let index = 1; index < stops.length; index++)
    total += haversineMiles(stops[index - 1]!, stops[index]!);
  return Math.round(total * 10) / 10;
};

/** A latitude/longitude box that contains every point within `miles` of `center` (a cheap index-friendly prefilter). */
export const boundingBox = (center: Point, miles: number) => {
  const latDelta = miles / 69.0;
  const lonDelta = miles / (69.0 * Math.max(0.01, Math.cos(radians(center.latitude))));
  return {
    minLat: center.latitude - latDelta,
    maxLat: center.latitude + latDelta,
    minLon: center.longitude - lonDelta,
    maxLon: center.longitude + lonDelta,
  };
};
