import { Role } from '../../domain/catalog.ts';
import { agreedTerms } from '../../domain/loads/terms.ts';
import { TOUR_ASSIGNEE, TOUR_TRACK_STATUS } from '../../domain/permissions.ts';
import { ForbiddenError } from '../../domain/shared/errors.ts';
import { positionsSince } from '../../projections/tourPositions/tourPositions.queries.ts';
import type { OpenedTour } from '../../domain/tours/tour.types.ts';
import {
  PositionBody,
  PositionListBody,
  PositionsQuery,
  toursContract,
} from '../../domain/contracts/tours.contract.ts';
import type { App } from '../http/routeContext.ts';
import { rateLimitPerMinute } from '../config.ts';
import { can, isSuperadmin, requireActor, type Actor } from '../http/auth.ts';
import { parseWith } from '../http/parseWith.ts';
import { trackingOf, TRAIL_LENGTH } from './tracking.ts';
import { iso, tourAnswer } from './tourAnswers.ts';

// One position or a list, told apart before parsing: a union would answer 'Invalid input' instead of the field's own message.
const parsePositions = (body: unknown) =>
  Array.isArray(body) ? parseWith(PositionListBody, body) : [parseWith(PositionBody, body)];

/** The road: the positions trucks send, the trail since a time, and the tracking view.*/
export function tourTrackingRoutes(app: App) {
  const { marketplace } = app.platform;
  const { db } = app.platform.database;
  const visibleTour = async (actor: Actor, tourId: string): Promise<OpenedTour> =>
    marketplace.visibleTour(actor, tourId);
  // Positions come in bursts from the trucks of a fleet behind one address: a limit of their own,
  // never below the rest of the API's.
  const positionsPerMinute = Math.max(6000, rateLimitPerMinute());

  app.get(
    '/tours/:id/positions',
    {
      schema: {
        tags: ['tours'],
        summary:
          'The positions recorded after `since` (oldest first, at most 500): what a map missed while offline',
        ...toursContract.positions,
      },
      onRequest: can(TOUR_TRACK_STATUS),
    },
    async (request) => {
      const actor = requireActor(request);
      // The tour first: another organization's id answers 404 whatever the query.
      const tour = await visibleTour(actor, request.params.id);
      const { since } = parseWith(PositionsQuery, request.query ?? {});
      const rows = await positionsSince(db, tour.tourId, since, TRAIL_LENGTH);
      return rows.map((row) => ({
        tourId: tour.tourId,
        latitude: Number(row.latitude),
        longitude: Number(row.longitude),
        speed: row.speed === null ? null : Number(row.speed),
        heading: row.heading === null ? null : Number(row.heading),
        recordedAt: iso(row.recorded_at)!,
      }));
    },
  );

  app.get(
    '/tours/track/:id',
    {
      schema: {
        tags: ['tours'],
        summary: 'Tracking: stops, the recent trail, the last position and the ETA',
        ...toursContract.track,
      },
      onRequest: can(TOUR_TRACK_STATUS),
    },
    async (request) => {
      const actor = requireActor(request);
      const tour = await visibleTour(actor, request.params.id);
      const tracking = await trackingOf(db, tour);
      // Every party of a tour (its shipper, the carrier, the assigned driver) may see the facilities' contacts.
      const load = await marketplace.loadLoad(tour.loadId);
      const contacts = new Map(
        load?.details.stops.map((stop) => [
          stop.id,
          { contactName: stop.contactName, contactPhone: stop.contactPhone, number: stop.number },
        ]) ?? [],
      );
      const answer = tourAnswer(tour, actor);
      // The detention clock's inputs, as the claims count them (server/commands/claims.ts).
      const detention = load
        ? {
            terms: load.agreedTerms ?? agreedTerms(load.details, null),
            appointments: tour.stops.map((stop, index) =>
              index === 0
                ? {
                    stopId: stop.id,
                    at: load.details.pickupStart,
                    timezone: load.details.pickupTimezone,
                  }
                : index === tour.stops.length - 1
                  ? {
                      stopId: stop.id,
                      at: load.details.dropoffStart,
                      timezone: load.details.dropoffTimezone,
                    }
                  : { stopId: stop.id, at: null, timezone: null },
            ),
          }
        : undefined;
      return {
        ...answer,
        stops: answer.stops.map((stop) => ({
          ...stop,
          ...(contacts.get(stop.id) ?? { contactName: null, contactPhone: null, number: null }),
        })),
        ...tracking,
        ...(detention ? { detention } : {}),
      };
    },
  );

  app.post(
    '/tours/:id/positions',
    {
      schema: {
        tags: ['tours'],
        summary: "The assigned driver's positions, one or a batch (speed in mph)",
        ...toursContract.recordPositions,
      },
      onRequest: can(TOUR_ASSIGNEE),
      config: { rateLimit: { max: positionsPerMinute, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      if (actor.roleId !== Role.Driver && !isSuperadmin(actor))
        throw new ForbiddenError('Only the assigned driver sends positions');
      const now = new Date().toISOString();
      const positions = parsePositions(request.body).map((position) => ({
        ...position,
        recordedAt: position.recordedAt ?? now,
      }));
      const { accepted } = await marketplace.recordPositions(
        { actor, requestId: request.id },
        request.params.id,
        positions,
        now,
      );
      return reply.code(202).send({ accepted });
    },
  );
}
