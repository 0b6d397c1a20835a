/**
 * The commands of a tour (stream `tour-<id>`) and of its positions (`tourpositions-<id>`): its course
 * (`tourCourse.ts`), its positions with the geofence rule (`tourPositions.ts`), its tracking links
 * (`tourSharing.ts`) and its ratings. These modules are the only writers of both streams.
 */
import type { RatingEntry } from '../../domain/tours/tour.types.ts';
import { NotFoundError } from '../../domain/shared/errors.ts';
import type { Caller } from './caller.ts';
import { isTourParty, tourActorOf } from './streams.ts';
import { tourAccess, type TourCommandDeps } from './tourAccess.ts';
import { createTourCourseCommands } from './tourCourse.ts';
import { createTourPositionCommands } from './tourPositions.ts';
import { createTourSharingCommands } from './tourSharing.ts';
import { createTourDockCommands } from './tourDock.ts';

export function createTourCommands(deps: TourCommandDeps) {
  const { loadTour } = deps.readers;
  const { runTour, visibleTour } = tourAccess(deps);

  return {
    visibleTour,
    ...createTourCourseCommands(deps),
    ...createTourPositionCommands(deps),
    ...createTourSharingCommands(deps),
    ...createTourDockCommands(deps),

    /** The shipper confirms the delivery on the recorded proof (DeliveryConfirmed); once per tour. */
    async confirmDelivery(caller: Caller, tourId: string, now: string) {
      const tour = await loadTour(tourId);
      if (!tour || !isTourParty(caller.actor, tour)) throw new NotFoundError('Tour not found');
      return (
        await runTour(
          { type: 'ConfirmDelivery', data: { tourId, actor: tourActorOf(caller.actor), now } },
          tour.loadId,
          caller,
          now,
        )
      ).position;
    },

    async rateTour(caller: Caller, tourId: string, ratings: RatingEntry[], now: string) {
      const tour = await loadTour(tourId);
      if (!tour || !isTourParty(caller.actor, tour)) throw new NotFoundError('Tour not found');
      return (
        await runTour(
          { type: 'RateTour', data: { tourId, actor: tourActorOf(caller.actor), ratings, now } },
          tour.loadId,
          caller,
          now,
        )
      ).position;
    },
  };
}
export type TourCommands = ReturnType<typeof createTourCommands>;
