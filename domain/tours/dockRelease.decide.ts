/**
 * Who comes to the dock (docs/domain.md "Release code", "Dock link"): the tour's shipper makes a
 * link for the pickup dock; the dock enters the driver's release code there (and may type the
 * tractor number it sees). Each try is recorded with its evidence: released when the code is the
 * assigned driver's, the tractor is the one the carrier named and the ELD (when the truck has one)
 * puts it near the pickup; held otherwise, with the reasons. A link takes at most 10 tries.
 */
import {
  ForbiddenError,
  IllegalStateError,
  NotFoundError,
  TooManyRequestsError,
} from '../shared/errors.ts';
import type {
  CreateDockLink,
  OpenedTour,
  PickupHoldReason,
  RecordDockRelease,
  RevokeDockLink,
  TourEvent,
} from './tour.types.ts';
import { TourStatus } from '../catalog.ts';

/** Tries a dock link takes; the next one is refused. */
export const DOCK_LINK_MAX_TRIES = 10;
/** Farther than this from the pickup stop, the ELD says the truck is not at the dock. */
export const DOCK_MAX_ELD_MILES = 5;
export const DOCK_LINK_NOT_FOUND = 'This dock link does not exist or has ended';
export const DOCK_TOO_MANY_TRIES =
  'This dock link has taken its 10 tries: ask the shipper for a new one';

/** Only the tour's shipper makes a dock link (the dock is the shipper's). */
export const createDockLink = ({ data }: CreateDockLink, tour: OpenedTour): TourEvent[] => {
  const { actor } = data;
  if (actor.party !== 'shipper' || !actor.organizationId || !actor.userId)
    throw new ForbiddenError("Only the tour's shipper makes a dock link");
  if (tour.status === TourStatus.Canceled)
    throw new IllegalStateError('A canceled tour has no pickup to release');
  return [
    {
      type: 'DockLinkCreated',
      data: {
        tourId: tour.tourId,
        linkId: data.linkId,
        tokenHash: data.tokenHash,
        organizationId: actor.organizationId,
        createdBy: actor.userId,
        expiresAt: data.expiresAt,
        createdAt: data.now,
      },
    },
  ];
};

export const revokeDockLink = ({ data }: RevokeDockLink, tour: OpenedTour): TourEvent[] => {
  const { actor } = data;
  if (actor.party !== 'shipper' || !actor.userId)
    throw new ForbiddenError("Only the tour's shipper revokes its dock links");
  const link = (tour.dockLinks ?? []).find((entry) => entry.linkId === data.linkId);
  if (!link || link.revoked || link.organizationId !== actor.organizationId)
    throw new NotFoundError('Link not found');
  return [
    {
      type: 'DockLinkRevoked',
      data: {
        tourId: tour.tourId,
        linkId: data.linkId,
        revokedBy: actor.userId,
        revokedAt: data.now,
      },
    },
  ];
};

const sameTractor = (a: string, b: string) =>
  a.replace(/[\s-]/g, '').toUpperCase() === b.replace(/[\s-]/g, '').toUpperCase();

/** The reasons to hold a pickup, none when it may be released. */
export const holdReasons = (
  tour: OpenedTour,
  entered: Pick<
    RecordDockRelease['data'],
    'codeVerified' | 'tractorNumberEntered' | 'eldDistanceMiles'
  >,
): PickupHoldReason[] => {
  const reasons: PickupHoldReason[] = [];
  if (!entered.codeVerified) reasons.push('wrong_code');
  const assigned = tour.tractorNumber ?? null;
  if (
    entered.tractorNumberEntered &&
    (!assigned || !sameTractor(entered.tractorNumberEntered, assigned))
  )
    reasons.push('tractor_mismatch');
  if (entered.eldDistanceMiles !== null && entered.eldDistanceMiles > DOCK_MAX_ELD_MILES)
    reasons.push('truck_far_away');
  return reasons;
};

/** One try at the dock: released or held, with the evidence; an ended link does not exist. */
export const recordDockRelease = ({ data }: RecordDockRelease, tour: OpenedTour): TourEvent[] => {
  const link = (tour.dockLinks ?? []).find((entry) => entry.linkId === data.linkId);
  if (!link || link.revoked || !(Date.parse(link.expiresAt) > Date.parse(data.now)))
    throw new NotFoundError(DOCK_LINK_NOT_FOUND);
  if (link.attempts >= DOCK_LINK_MAX_TRIES)
    throw new TooManyRequestsError(DOCK_TOO_MANY_TRIES, 3600);
  const evidence = {
    tourId: tour.tourId,
    linkId: link.linkId,
    driverId: tour.assigneeId,
    codeVerified: data.codeVerified,
    tractorNumberEntered: data.tractorNumberEntered,
    tractorNumberAssigned: tour.tractorNumber ?? null,
    eldDistanceMiles: data.eldDistanceMiles,
    eldPositionAt: data.eldPositionAt,
    enteredBy: 'dock_link' as const,
    attempt: link.attempts + 1,
    at: data.now,
  };
  const reasons = holdReasons(tour, data);
  return reasons.length === 0
    ? [{ type: 'PickupReleased', data: evidence }]
    : [{ type: 'PickupHeld', data: { ...evidence, reasons } }];
};
