/** A one-degree grid of points and the nearest of them to a place. */

const MAX_RING = 5;

export const cellOf = (latitude: number, longitude: number) =>
  (Math.floor(latitude) + 90) * 360 + (Math.floor(longitude) + 180);

/** Distance in km, equirectangular: exact enough at the scale of a town. */
export function kilometres(
  latitudeA: number,
  longitudeA: number,
  latitudeB: number,
  longitudeB: number,
) {
  const x = (longitudeB - longitudeA) * Math.cos((((latitudeA + latitudeB) / 2) * Math.PI) / 180);
  const y = latitudeB - latitudeA;
  return Math.sqrt(x * x + y * y) * 111.195;
}

/**
 * The nearest of the points in `grid` (indexes into the coordinate arrays), searched ring by ring of
 * cells around the point; -1 when none lies within MAX_RING degrees.
 */
export function nearest(
  grid: Map<number, number[]>,
  latitudes: ArrayLike<number>,
  longitudes: ArrayLike<number>,
  latitude: number,
  longitude: number,
) {
  let index = -1,
    km = Infinity;
  for (let ring = 0; ring <= MAX_RING; ring++) {
    for (let dLat = -ring; dLat <= ring; dLat++) {
      const step = Math.abs(dLat) === ring ? 1 : 2 * ring;
      for (let dLon = -ring; dLon <= ring; dLon += step) {
        for (const candidate of grid.get(cellOf(latitude + dLat, longitude + dLon)) ?? []) {
          const distance = kilometres(
            latitude,
            longitude,
            latitudes[candidate],
            longitudes[candidate],
          );
          if (distance < km) {
            index = candidate;
            km = distance;
          }
        }
      }
    }
    // The next ring's cells lie at least `ring` degrees away along one axis; a degree of longitude shrinks towards the poles.
    if (
      index >= 0 &&
      km <= ring * 111.195 * Math.cos((Math.min(89, Math.abs(latitude) + ring + 1) * Math.PI) / 180)
    )
      break;
  }
  return { index, km };
}
