/** The timeline entries the tour decider writes itself: status changes and the geofence's arrivals and departures. */
import type { TourStatusId } from '../catalog.ts';
import type {
  OpenedTour,
  TourActor,
  TourEvent,
  TourEventAdded,
  TourEventType,
  TourStop,
} from './tour.types.ts';
import { tourStatusName } from './tour.evolve.ts';

export type Party = TourActor['party'];

/**
 * A timeline entry the decider writes itself. Its id comes from what it records, which happens once
 * per tour: a tour reaches each status at most once (statuses only move forward), and the geofence
 * records one arrival and one departure per stop. Replaying a stream thus gives the same ids, and
 * they never meet the ids people's entries take from their command (UUIDs).
 */
export const timelineEntry = (
  tour: OpenedTour,
  entry: Omit<TourEventAdded['data'], 'tourId' | 'eventId'>,
  key: string,
): TourEventAdded => ({
  type: 'TourEventAdded',
  data: { tourId: tour.tourId, eventId: `${tour.tourId}-${entry.type}-${key}`, ...entry },
});

/** A status change and its timeline entry (whose message falls back to the status name). */
export const statusChange = (
  tour: OpenedTour,
  {
    to,
    message,
    by,
    party,
    at,
  }: { to: TourStatusId; message: string; by: string | null; party: Party; at: string },
): TourEvent[] => [
  {
    type: 'TourStatusChanged',
    data: {
      tourId: tour.tourId,
      from: tour.status,
      to,
      message,
      changedBy: by,
      party,
      changedAt: at,
    },
  },
  timelineEntry(
    tour,
    { type: 'status', message: message || tourStatusName(to), stopId: null, addedBy: by, at },
    String(to),
  ),
];

export const stopMessage = (type: TourEventType, stop: TourStop | null): string => {
  const verb = type === 'arrived' ? 'Arrived at' : 'Departed';
  return stop ? `${verb} ${stop.name}` : type === 'arrived' ? 'Arrived' : 'Departed';
};
