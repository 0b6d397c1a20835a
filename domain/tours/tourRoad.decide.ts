/** The road: timeline events people add, and the positions the geofence turns into arrivals and departures. */
import { LocationType, TourStatus, type TourStatusId } from '../catalog.ts';
import { IllegalStateError, ValidationError } from '../shared/errors.ts';
import { stopAt } from './geo.ts';
import {
  manualTourEventTypes,
  type AddTourEvent,
  type ObservePosition,
  type OpenedTour,
  type TourEvent,
} from './tour.types.ts';
import { tourStatusName } from './tour.evolve.ts';
import { statusChange, stopMessage, timelineEntry } from './tour.timeline.ts';

export const addTourEvent = ({ data }: AddTourEvent, tour: OpenedTour): TourEvent[] => {
  if (tour.status === TourStatus.Delivered || tour.status === TourStatus.Canceled) {
    throw new IllegalStateError(
      `A tour that is ${tourStatusName(tour.status)} takes no new events`,
    );
  }
  if (!(manualTourEventTypes as readonly string[]).includes(data.type))
    throw ValidationError.field('type', 'Unknown event type');
  const stop =
    data.stopId === null ? null : tour.stops.find((candidate) => candidate.id === data.stopId);
  if (stop === undefined) throw ValidationError.field('stopId', 'Unknown stop');
  const message = data.message.trim();
  const isStopEvent = data.type === 'arrived' || data.type === 'departed';
  if (message === '' && !isStopEvent)
    throw ValidationError.field('message', 'Please enter a message');
  return [
    {
      type: 'TourEventAdded',
      data: {
        tourId: tour.tourId,
        eventId: data.eventId,
        type: data.type,
        message: message || stopMessage(data.type, stop),
        stopId: data.stopId,
        addedBy: data.actor.userId,
        at: data.now,
      },
    },
  ];
};

/** The statuses in which the truck is on the road for this tour and its positions count. */
const trackedStatuses: TourStatusId[] = [
  TourStatus.ReadyForPickup,
  TourStatus.Dispatched,
  TourStatus.InTransit,
  TourStatus.PendingDeliveryConfirmation,
];

/**
 * The geofence: entering a stop records its arrival once, leaving the stop the truck was in records
 * its departure once, and leaving the first pickup moves a Dispatched tour to In Transit. The
 * events are dated when the position was recorded, which is when it happened.
 */
export const observePosition = ({ data }: ObservePosition, tour: OpenedTour): TourEvent[] => {
  if (!trackedStatuses.includes(tour.status)) return [];
  const here = stopAt(tour.stops, data);
  const insideId = tour.insideStopId;
  if ((here?.id ?? null) === insideId) return [];
  const at = data.recordedAt;
  const events: TourEvent[] = [];
  if (insideId !== null && !tour.departedStopIds.includes(insideId)) {
    const left = tour.stops.find((stop) => stop.id === insideId) ?? null;
    const message = stopMessage('departed', left);
    events.push(
      timelineEntry(
        tour,
        { type: 'departed', message, stopId: insideId, addedBy: null, at },
        insideId,
      ),
    );
    const firstPickup = tour.stops.find((stop) => stop.locationType === LocationType.Pickup);
    if (tour.status === TourStatus.Dispatched && insideId === firstPickup?.id) {
      events.push(
        ...statusChange(tour, { to: TourStatus.InTransit, message, by: null, party: 'system', at }),
      );
    }
  }
  if (here && !tour.arrivedStopIds.includes(here.id)) {
    events.push(
      timelineEntry(
        tour,
        {
          type: 'arrived',
          message: stopMessage('arrived', here),
          stopId: here.id,
          addedBy: null,
          at,
        },
        here.id,
      ),
    );
  }
  return events;
};
