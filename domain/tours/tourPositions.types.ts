/** The truck's positions on a tour (stream `tourpositions-<tourId>`) and how to read them from its events. */
import type { Event } from '../shared/event.ts';

/** One reading of the truck's place: what the driver's phone or the ELD sends. */
export type TourPosition = {
  latitude: number;
  longitude: number;
  speed: number | null;
  heading: number | null;
  accuracy: number | null;
  recordedAt: string;
};

/**
 * Positions (stream `tourpositions-<tourId>`), appended without a decider: only the assigned driver
 * or the ELD poller writes them. A batch is one `PositionsRecorded` (oldest first); logs written
 * before batches hold one `PositionRecorded` per position, and every reader takes both.
 */
export type PositionRecorded = Event<
  'PositionRecorded',
  TourPosition & { tourId: string; source: 'driver' | 'eld' }
>;
export type PositionsRecorded = Event<
  'PositionsRecorded',
  { tourId: string; source: 'driver' | 'eld'; positions: TourPosition[] }
>;

/** The event types that carry positions. */
export const POSITION_EVENT_TYPES: ReadonlySet<string> = new Set([
  'PositionRecorded',
  'PositionsRecorded',
]);

/** The positions an event carries, oldest first, each with its place in the event; none for any other event. */
export function positionsIn(event: {
  type: string;
  data: unknown;
}): (TourPosition & { tourId: string; source: 'driver' | 'eld'; index: number })[] {
  if (event.type === 'PositionRecorded')
    return [{ ...(event.data as PositionRecorded['data']), index: 0 }];
  if (event.type !== 'PositionsRecorded') return [];
  const { tourId, source, positions } = event.data as PositionsRecorded['data'];
  return positions.map((position, index) => ({ ...position, tourId, source, index }));
}
