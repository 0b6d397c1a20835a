import type { TrackPosition } from '../../shared/tours/tours.api.ts';

/** How many positions a tracking map keeps (the server's trail is as long). */
export const TRAIL_LIMIT = 500;

/** Degrees clockwise from north from one point to the next: the truck's heading when the device sends none. */
export function bearing(from: TrackPosition, to: TrackPosition): number | null {
  if (from.latitude === to.latitude && from.longitude === to.longitude) return null;
  const radians = Math.PI / 180;
  const [lat1, lat2] = [from.latitude * radians, to.latitude * radians];
  const deltaLongitude = (to.longitude - from.longitude) * radians;
  const y = Math.sin(deltaLongitude) * Math.cos(lat2);
  const x =
    Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(deltaLongitude);
  return (Math.atan2(y, x) / radians + 360) % 360;
}

/** The trail with one more position: in time order, and not twice. */
export function extendTrail(trail: TrackPosition[], position: TrackPosition): TrackPosition[] {
  const last = trail.at(-1);
  if (!last || last.recordedAt < position.recordedAt) return [...trail, position];
  if (
    trail.some(
      (known) =>
        known.recordedAt === position.recordedAt &&
        known.latitude === position.latitude &&
        known.longitude === position.longitude,
    )
  )
    return trail;
  return [...trail, position].sort((a, b) =>
    a.recordedAt < b.recordedAt ? -1 : a.recordedAt > b.recordedAt ? 1 : 0,
  );
}

/** The truck's heading: the device's own, else from the last two positions. */
export function headingOf(trail: TrackPosition[]): number | null {
  const last = trail.at(-1) ?? null;
  const previous = trail.length > 1 ? trail[trail.length - 2] : null;
  return last?.heading ?? (last && previous ? bearing(previous, last) : null);
}
