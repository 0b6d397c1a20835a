import type { TourStatusId } from '../../domain/catalog.ts';
import {
  TOUR_ADD_EVENT,
  TOUR_ASSIGN,
  TOUR_CHANGE_STATUS,
  TOUR_GET,
  TOUR_GET_EVENTS,
} from '../../domain/permissions.ts';
import { tourTimeline } from '../../projections/marketplace/marketplace.queries.ts';
import type { OpenedTour } from '../../domain/tours/tour.types.ts';
import { toursContract, type TimelineType } from '../../domain/contracts/tours.contract.ts';
import type { App } from '../http/routeContext.ts';
import { parseWith } from '../http/parseWith.ts';
import { AssignBody } from '../../domain/contracts/dockRelease.contract.ts';
import { can, requireActor, type Actor } from '../http/auth.ts';
import { MARKETPLACE_VIEWS } from '../../projections/marketplace/marketplace.views.ts';
import { iso, statusNameOf, tourAnswer } from './tourAnswers.ts';

/** One tour and its course: assigning the driver, moving the status, and the timeline's events. */
export function tourCourseRoutes(app: App) {
  const { runner, marketplace } = app.platform;
  const { db } = app.platform.database;
  const visibleTour = async (actor: Actor, tourId: string): Promise<OpenedTour> =>
    marketplace.visibleTour(actor, tourId);

  app.get(
    '/tours/:id',
    {
      schema: { tags: ['tours'], summary: 'One tour', ...toursContract.tour },
      onRequest: can(TOUR_GET),
    },
    async (request) => {
      const actor = requireActor(request);
      return tourAnswer(await visibleTour(actor, request.params.id), actor);
    },
  );

  app.post(
    '/tours/:id/assign/:assigneeId',
    {
      schema: {
        tags: ['tours'],
        summary: "Assign one of the carrier's drivers",
        ...toursContract.assign,
      },
      onRequest: can(TOUR_ASSIGN),
    },
    async (request) => {
      const actor = requireActor(request);
      // No body, or an empty one, is an older caller's: the truck is then not named.
      const given = request.body as Record<string, unknown> | null | undefined;
      const truck =
        given && Object.keys(given).length > 0 ? parseWith(AssignBody, given) : undefined;
      const position = await marketplace.assignTour(
        { actor, requestId: request.id },
        request.params.id,
        request.params.assigneeId,
        new Date().toISOString(),
        truck
          ? { tractorNumber: truck.tractorNumber, trailerNumber: truck.trailerNumber ?? null }
          : undefined,
      );
      await runner.waitFor(MARKETPLACE_VIEWS, position);
      return { message: 'Driver assigned' };
    },
  );

  app.put(
    '/tours/:id/status',
    {
      schema: {
        tags: ['tours'],
        summary: 'Move a tour along its statuses',
        ...toursContract.changeStatus,
      },
      onRequest: can(TOUR_CHANGE_STATUS),
    },
    async (request) => {
      const actor = requireActor(request);
      const { status, message } = request.body;
      const position = await marketplace.changeTourStatus(
        { actor, requestId: request.id },
        request.params.id,
        status as TourStatusId,
        message,
        new Date().toISOString(),
      );
      await runner.waitFor(MARKETPLACE_VIEWS, position);
      return { id: request.params.id, status, statusName: statusNameOf(status) };
    },
  );

  app.get(
    '/tours/:id/events',
    {
      schema: {
        tags: ['tours'],
        summary: "The tour's timeline: status changes, arrivals, departures and notes",
        ...toursContract.events,
      },
      onRequest: can(TOUR_GET_EVENTS),
    },
    async (request) => {
      const tour = await visibleTour(requireActor(request), request.params.id);
      const rows = await tourTimeline(db, tour.tourId);
      return rows.map((row) => ({
        id: row.id,
        type: row.type as TimelineType,
        message: row.message,
        stopId: row.stop_id,
        at: iso(row.at)!,
        user: row.user_id ? { id: row.user_id, name: row.user_name } : null,
      }));
    },
  );

  app.post(
    '/tours/:id/events',
    {
      schema: {
        tags: ['tours'],
        summary: 'Add a note or milestone to the timeline',
        ...toursContract.addEvent,
      },
      onRequest: can(TOUR_ADD_EVENT),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const entry = request.body;
      const { id, position } = await marketplace.addTourEvent(
        { actor, requestId: request.id },
        request.params.id,
        entry,
        new Date().toISOString(),
      );
      await runner.waitFor(MARKETPLACE_VIEWS, position);
      return reply.code(201).send({ id });
    },
  );
}
