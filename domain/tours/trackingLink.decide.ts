/** Sharing a tour's tracking by link, and revoking the link. */
import { ForbiddenError, NotFoundError } from '../shared/errors.ts';
import type { OpenedTour, RevokeTrackingLink, ShareTour, TourEvent } from './tour.types.ts';

/** Only the shipper's and the carrier's people share a tour: a driver works it, a Superadmin belongs to neither side. */
export const shareTour = ({ data }: ShareTour, tour: OpenedTour): TourEvent[] => {
  const { actor } = data;
  if (
    (actor.party !== 'shipper' && actor.party !== 'carrier') ||
    !actor.organizationId ||
    !actor.userId
  ) {
    throw new ForbiddenError("Only the tour's shipper or carrier shares its tracking");
  }
  return [
    {
      type: 'TourShared',
      data: {
        tourId: tour.tourId,
        shareId: data.shareId,
        tokenHash: data.tokenHash,
        organizationId: actor.organizationId,
        sharedBy: actor.userId,
        expiresAt: data.expiresAt,
        sharedAt: data.now,
      },
    },
  ];
};

/** A link is revoked by its own side (shipper or carrier), once; another side's link does not exist for the caller. */
export const revokeTrackingLink = ({ data }: RevokeTrackingLink, tour: OpenedTour): TourEvent[] => {
  const { actor } = data;
  if ((actor.party !== 'shipper' && actor.party !== 'carrier') || !actor.userId)
    throw new ForbiddenError("Only the tour's shipper or carrier revokes its tracking links");
  const share = (tour.shares ?? []).find((entry) => entry.shareId === data.shareId);
  if (!share || share.organizationId !== actor.organizationId)
    throw new NotFoundError('Link not found');
  return [
    {
      type: 'TourShareRevoked',
      data: {
        tourId: tour.tourId,
        shareId: data.shareId,
        revokedBy: actor.userId,
        revokedAt: data.now,
      },
    },
  ];
};
