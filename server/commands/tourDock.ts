/**
 * Who comes to the dock: the driver's release code, the shipper's dock links, and the dock's tries
 * (domain/tours/dockRelease.decide.ts). The handler checks what lies outside the tour's stream (the
 * code against the sealed secret, the truck's last ELD position); the decider records the outcome.
 */
import { randomUUID } from 'node:crypto';
import { Role, TourStatus } from '../../domain/catalog.ts';
import { isPickupLocationType } from '../../domain/catalog/loads.ts';
import { ForbiddenError, IllegalStateError, NotFoundError } from '../../domain/shared/errors.ts';
import type { OpenedTour } from '../../domain/tours/tour.types.ts';
import { hashShareToken, newShareToken } from '../auth/shareTokens.ts';
import { isSuperadmin, type Caller } from './caller.ts';
import { RELEASE_WINDOW_BEFORE_MS, releaseCodeAt, releaseCodeMatches } from './releaseCode.ts';
import { tourActorOf } from './streams.ts';
import { tourAccess, type TourCommandDeps } from './tourAccess.ts';

/** A dock link works until this long after the end of the pickup window. */
export const DOCK_LINK_HOURS_AFTER_WINDOW = 6;
export const RELEASE_CODE_OUTSIDE_WINDOW =
  'The release code shows from 1 hour before the pickup appointment until the truck leaves the pickup';

/** The tour's first pickup stop. */
export const pickupStopOf = (tour: OpenedTour) =>
  tour.stops.find((stop) => isPickupLocationType(stop.locationType)) ?? tour.stops[0] ?? null;

export function createTourDockCommands(deps: TourCommandDeps) {
  const { runTour, visibleTour } = tourAccess(deps);
  const { loadLoad } = deps.readers;
  const secrets = () => {
    if (!deps.secrets) throw new Error('Release codes need the server secret box');
    return deps.secrets;
  };

  /** The pickup appointment and the end of its window. */
  const pickupWindowOf = async (tour: OpenedTour) => {
    const load = await loadLoad(tour.loadId);
    if (!load) throw new NotFoundError('Tour not found');
    const start = load.details.pickupStart;
    return { start, end: load.details.pickupEnd ?? start };
  };

  return {
    pickupWindowOf,

    /** The assigned driver's code of the moment, inside the release window only. */
    async releaseCode(caller: Caller, tourId: string, now: Date) {
      const { actor } = caller;
      const tour = await visibleTour(actor, tourId);
      if (actor.roleId !== Role.Driver || tour.assigneeId !== actor.userId)
        throw new ForbiddenError('Only the assigned driver sees the release code');
      const pickup = pickupStopOf(tour);
      const window = await pickupWindowOf(tour);
      const open =
        (tour.status === TourStatus.ReadyForPickup || tour.status === TourStatus.Dispatched) &&
        now.getTime() >= Date.parse(window.start) - RELEASE_WINDOW_BEFORE_MS &&
        !(pickup && tour.departedStopIds.includes(pickup.id));
      if (!open || !tour.sealedReleaseSecret)
        throw new IllegalStateError(RELEASE_CODE_OUTSIDE_WINDOW);
      return releaseCodeAt(
        secrets(),
        tour.sealedReleaseSecret,
        tourId,
        actor.userId,
        now.getTime(),
      );
    },

    /** A dock link for the pickup: a random token (256 bits) shown once; the stream keeps its hash. */
    async createDockLink(caller: Caller, tourId: string, now: string) {
      const { actor } = caller;
      if (isSuperadmin(actor))
        throw new ForbiddenError("Only the tour's shipper makes a dock link");
      const tour = await visibleTour(actor, tourId);
      const window = await pickupWindowOf(tour);
      const expiresAt = new Date(
        Math.max(
          Date.parse(window.end) + DOCK_LINK_HOURS_AFTER_WINDOW * 3_600_000,
          Date.parse(now) + 3_600_000,
        ),
      ).toISOString();
      const token = newShareToken();
      const linkId = randomUUID();
      const result = await runTour(
        {
          type: 'CreateDockLink',
          data: {
            tourId,
            actor: tourActorOf(actor),
            linkId,
            tokenHash: hashShareToken(token),
            expiresAt,
            now,
          },
        },
        tour.loadId,
        caller,
        now,
      );
      return { token, linkId, expiresAt, tour, position: result.position };
    },

    async revokeDockLink(caller: Caller, tourId: string, linkId: string, now: string) {
      const { actor } = caller;
      if (isSuperadmin(actor))
        throw new ForbiddenError("Only the tour's shipper revokes its dock links");
      const tour = await visibleTour(actor, tourId);
      return (
        await runTour(
          { type: 'RevokeDockLink', data: { tourId, actor: tourActorOf(actor), linkId, now } },
          tour.loadId,
          caller,
          now,
        )
      ).position;
    },

    /** One try of the dock through its link (no caller: the link is who entered it). */
    async recordDockRelease(
      tour: OpenedTour,
      linkId: string,
      entered: {
        code: string;
        tractorNumber: string | null;
        eldDistanceMiles: number | null;
        eldPositionAt: string | null;
      },
      now: Date,
    ) {
      const codeVerified =
        tour.assigneeId !== null &&
        !!tour.sealedReleaseSecret &&
        releaseCodeMatches(
          secrets(),
          tour.sealedReleaseSecret,
          tour.tourId,
          tour.assigneeId,
          entered.code,
          now.getTime(),
        );
      const at = now.toISOString();
      return runTour(
        {
          type: 'RecordDockRelease',
          data: {
            tourId: tour.tourId,
            linkId,
            codeVerified,
            tractorNumberEntered: entered.tractorNumber,
            eldDistanceMiles: entered.eldDistanceMiles,
            eldPositionAt: entered.eldPositionAt,
            now: at,
          },
        },
        tour.loadId,
        null,
        at,
      );
    },
  };
}
