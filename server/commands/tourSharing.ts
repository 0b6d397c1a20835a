/** A tour's tracking links for the receiver: shared by the tour's shipper or carrier, and revoked. */
import { randomUUID } from 'node:crypto';
import { ForbiddenError } from '../../domain/shared/errors.ts';
import { hashShareToken, newShareToken } from '../auth/shareTokens.ts';
import { isSuperadmin, type Caller } from './caller.ts';
import { tourActorOf } from './streams.ts';
import { tourAccess, type TourCommandDeps } from './tourAccess.ts';

export function createTourSharingCommands(deps: TourCommandDeps) {
  const { runTour, visibleTour } = tourAccess(deps);

  return {
    /**
     * A read-only tracking link for the receiver: a random token (256 bits, base64url) shown once;
     * the tour's stream keeps only its hash. The caller must be a party of the tour (else not found).
     */
    async shareTour(caller: Caller, tourId: string, expiresInHours: number, now: string) {
      const { actor } = caller;
      if (isSuperadmin(actor))
        throw new ForbiddenError("Only the tour's shipper or carrier shares its tracking");
      const tour = await visibleTour(actor, tourId);
      const token = newShareToken();
      const shareId = randomUUID();
      const expiresAt = new Date(Date.parse(now) + expiresInHours * 3_600_000).toISOString();
      const result = await runTour(
        {
          type: 'ShareTour',
          data: {
            tourId,
            actor: tourActorOf(actor),
            shareId,
            tokenHash: hashShareToken(token),
            expiresAt,
            now,
          },
        },
        tour.loadId,
        caller,
        now,
      );
      return { token, shareId, expiresAt, position: result.position };
    },

    /** Ends a link of the caller's side at once. */
    async revokeTourShare(caller: Caller, tourId: string, shareId: string, now: string) {
      const { actor } = caller;
      if (isSuperadmin(actor))
        throw new ForbiddenError("Only the tour's shipper or carrier revokes its tracking links");
      const tour = await visibleTour(actor, tourId);
      return (
        await runTour(
          { type: 'RevokeTrackingLink', data: { tourId, actor: tourActorOf(actor), shareId, now } },
          tour.loadId,
          caller,
          now,
        )
      ).position;
    },
  };
}
