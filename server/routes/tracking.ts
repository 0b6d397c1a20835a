/**
 * Where a tour's truck is, as both tracking answers give it (the parties' `GET tours/track/{id}` and
 * the receiver's `GET shared/track/{token}`): the recent trail, the last position and the ETA to
 * the stops it has not left yet.
 */
import type { Kysely } from 'kysely';
import { TourStatus } from '../../domain/catalog.ts';
import { estimateArrival } from '../../domain/tours/geo.ts';
import type { OpenedTour } from '../../domain/tours/tour.types.ts';
import { recentTrail } from '../../projections/tourPositions/tourPositions.queries.ts';
import type { DB } from '../../storage/schema.ts';

export const TRAIL_LENGTH = 500;

const iso = (value: unknown): string => new Date(value as string).toISOString();

export async function trackingOf(db: Kysely<DB>, tour: OpenedTour, now = new Date().toISOString()) {
  const trail = (await recentTrail(db, tour.tourId, TRAIL_LENGTH)).map((row) => ({
    latitude: Number(row.latitude),
    longitude: Number(row.longitude),
    speed: row.speed === null ? null : Number(row.speed),
    heading: row.heading === null ? null : Number(row.heading),
    recordedAt: iso(row.recorded_at),
  }));
  const last = trail.at(-1) ?? null;
  const remaining = tour.stops.filter((stop) => !tour.departedStopIds.includes(stop.id));
  const estimate =
    last &&
    remaining.length > 0 &&
    tour.status !== TourStatus.Delivered &&
    tour.status !== TourStatus.Canceled
      ? estimateArrival({ from: last, stops: remaining, speedMph: last.speed, now })
      : null;
  return {
    trail,
    lastPosition: last,
    eta: estimate ? { at: estimate.etaAt, remainingMiles: estimate.remainingMiles } : null,
    nextStopId: remaining[0]?.id ?? null,
  };
}
