import { isPickupLocationType } from '../../domain/catalog/loads.ts';
import { tourStatuses } from '../../domain/catalog.ts';
import {
  SHARE_DEFAULT_HOURS,
  ShareBody,
  trackingLinkContract,
  type SharedStop,
} from '../../domain/contracts/trackingLink.contract.ts';
import { TOURS_ALL } from '../../domain/permissions.ts';
import { ForbiddenError, NotFoundError } from '../../domain/shared/errors.ts';
import { tourTimeline } from '../../projections/marketplace/marketplace.queries.ts';
import {
  liveShareByHash,
  shareOfTourByHash,
} from '../../projections/tourShares/tourShares.queries.ts';
import { hashShareToken } from '../auth/shareTokens.ts';
import { can, isSuperadmin, requireActor } from '../http/auth.ts';
import { parseWith } from '../http/parseWith.ts';
import type { App } from '../http/routeContext.ts';
import { trackingOf } from './tracking.ts';

/** The read model the share routes wait for, so that a link works (or stops) as soon as the call answers. */
export const SHARE_VIEWS = ['tourShares'];

const LINK_NOT_FOUND = 'This tracking link does not exist or has ended';
const iso = (value: unknown): string => new Date(value as string).toISOString();

/** The e-mail that carries a tracking link to its receiver (English, like the product's other e-mails). */
export const shareMail = (
  to: string,
  facts: { link: string; loadGuid: string; sender: string | null; expiresAt: string },
) => ({
  to,
  subject: `Track load ${facts.loadGuid}`,
  text:
    `Hello,\n\n${facts.sender ?? "The shipment's sender"} shares the tracking of load ${facts.loadGuid} with you. ` +
    `Follow the truck and its arrival time here, no sign-in needed:\n${facts.link}\n\n` +
    `The link works until ${facts.expiresAt.slice(0, 16).replace('T', ' ')} UTC, unless the sender ends it earlier.`,
});

/**
 * Tracking shared with a receiver: the tour's shipper or carrier makes and revokes read-only links;
 * `GET shared/track/{token}` answers anyone holding one, without prices, contacts or names. An
 * unknown, expired or revoked token all answer the same 404, so the route tells nothing about tours.
 */
export async function trackingLinkRoutes(app: App) {
  const { runner, marketplace } = app.platform;
  const { db } = app.platform.database;

  app.post(
    '/tours/:id/share',
    {
      schema: {
        tags: ['tours'],
        summary:
          "A read-only tracking link for the receiver (the tour's shipper or carrier; 1 to 168 hours, 24 by default)",
        ...trackingLinkContract.share,
      },
      onRequest: can(TOURS_ALL),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const body = parseWith(ShareBody, request.body ?? {});
      const hours = body.expiresInHours ?? SHARE_DEFAULT_HOURS;
      const { token, expiresAt, position } = await marketplace.shareTour(
        { actor, requestId: request.id },
        request.params.id,
        hours,
        new Date().toISOString(),
      );
      await runner.waitFor(SHARE_VIEWS, position);
      const url = `/shared/track/${token}`;
      if (!body.email) return reply.code(201).send({ token, url, expiresAt });
      // The link exists whatever happens to the e-mail: the answer says whether it went out.
      let emailed = true;
      try {
        const tour = await marketplace.loadTour(request.params.id);
        const sender = actor.organizationId
          ? await app.platform.identity.loadOrganization(actor.organizationId)
          : null;
        await app.platform.mailer.send(
          shareMail(body.email, {
            // From the configured PUBLIC_URL, never the request's Host header: the caller chooses that one.
            link: `${app.platform.config.publicUrl}${url}`,
            loadGuid: tour?.loadGuid ?? '',
            sender: sender?.name ?? null,
            expiresAt,
          }),
        );
      } catch (err) {
        request.log.warn({ err }, 'tracking link e-mail not sent');
        emailed = false;
      }
      return reply.code(201).send({ token, url, expiresAt, emailed });
    },
  );

  app.delete(
    '/tours/:id/share/:token',
    {
      schema: {
        tags: ['tours'],
        summary: "Ends a tracking link of the caller's side at once (its open pages close)",
        ...trackingLinkContract.revoke,
      },
      onRequest: can(TOURS_ALL),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      if (isSuperadmin(actor))
        throw new ForbiddenError("Only the tour's shipper or carrier revokes its tracking links");
      const tour = await marketplace.visibleTour(actor, request.params.id);
      const share = await shareOfTourByHash(db, tour.tourId, hashShareToken(request.params.token));
      if (!share || share.revoked_at !== null) throw new NotFoundError('Link not found');
      const position = await marketplace.revokeTourShare(
        { actor, requestId: request.id },
        tour.tourId,
        share.id,
        new Date().toISOString(),
      );
      await runner.waitFor(SHARE_VIEWS, position);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/shared/track/:token',
    {
      schema: {
        tags: ['tours'],
        summary:
          'A shared tour, for anyone holding the link: stops with times, the trail, the last position and the ETA',
        ...trackingLinkContract.track,
      },
      config: { public: true, rateLimit: { max: 60, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const share = await liveShareByHash(db, hashShareToken(request.params.token), new Date());
      const tour = share ? await marketplace.loadTour(share.tour_id) : null;
      if (!share || !tour) throw new NotFoundError(LINK_NOT_FOUND);
      const [load, timeline, tracking] = await Promise.all([
        marketplace.loadLoad(tour.loadId),
        tourTimeline(db, tour.tourId),
        trackingOf(db, tour),
      ]);
      const firstAt = (type: 'arrived' | 'departed', stopId: string) => {
        const entry = timeline.find((row) => row.type === type && row.stop_id === stopId);
        return entry ? iso(entry.at) : null;
      };
      const stops: SharedStop[] = tour.stops.map((stop) => {
        const pickup = isPickupLocationType(stop.locationType);
        const scheduled = pickup ? load?.details.pickupStart : load?.details.dropoffStart;
        return {
          type: pickup ? 'pickup' : 'dropoff',
          city: stop.city,
          state: stop.state,
          latitude: stop.latitude,
          longitude: stop.longitude,
          scheduledAt: scheduled ?? null,
          arrivedAt: firstAt('arrived', stop.id),
          leftAt: firstAt('departed', stop.id),
        };
      });
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'no-referrer');
      return {
        loadGuid: tour.loadGuid,
        status: tour.status,
        statusName:
          tourStatuses.find((entry) => entry.id === tour.status)?.name ?? String(tour.status),
        stops,
        lastPosition: tracking.lastPosition,
        eta: tracking.eta,
        trail: tracking.trail,
        expiresAt: iso(share.expires_at),
      };
    },
  );
}
