import { facilitiesContract } from '../../domain/contracts/facilities.contract.ts';
import { LOADS_SHIPPER, TOUR_ASSIGNEE, TOUR_GET } from '../../domain/permissions.ts';
import { NotFoundError } from '../../domain/shared/errors.ts';
import { facilitiesOfTour, facilityById } from '../../projections/facilities/facilities.queries.ts';
import { createFacilityCommands, FACILITY_VIEWS } from '../commands/facilities.ts';
import type { Caller } from '../commands/caller.ts';
import { can, requireActor } from '../http/auth.ts';
import type { App } from '../http/routeContext.ts';

/**
 * Facilities (docs/api.md "Facilities"): a facility's page with its figures, tags and replies, for
 * any Active user; a driver whose tour left it tags it, its shipper replies. Stream `facility-<id>`;
 * read from the `facilities` read model.
 */
export async function facilityRoutes(app: App) {
  const { store, runner, marketplace } = app.platform;
  const { db } = app.platform.database;
  const commands = createFacilityCommands({ store, db, runner });

  const page = async (caller: Caller, id: string) => {
    const facility = await facilityById(db, id);
    if (!facility) throw new NotFoundError('Facility not found');
    return { ...facility, ...(await commands.abilities(caller, id)) };
  };

  app.get(
    '/facilities/:id',
    {
      schema: {
        tags: ['facilities'],
        summary:
          "A facility's figures (time on site, by weekday and hour, on-time and detention shares; null under three visits), tags and replies",
        ...facilitiesContract.get,
      },
      onRequest: can(),
    },
    async (request) => {
      const caller = { actor: requireActor(request), requestId: request.id };
      // The visits come from tours' arrivals and departures, which answer no consistency token.
      await runner.waitFor(FACILITY_VIEWS, await store.committedHead(), 2_000);
      return page(caller, request.params.id);
    },
  );

  app.post(
    '/facilities/:id/tags',
    {
      schema: {
        tags: ['facilities'],
        summary:
          "Tag a facility: parking, restrooms, entrance, staff, wait (a driver whose tour left it; replaces the driver's earlier tags)",
        ...facilitiesContract.tags,
      },
      onRequest: can(TOUR_ASSIGNEE),
    },
    async (request, reply) => {
      const caller = { actor: requireActor(request), requestId: request.id };
      const { id } = request.params;
      await commands.tag(caller, id, request.body.tags, new Date().toISOString());
      return reply.code(201).send(await page(caller, id));
    },
  );

  app.post(
    '/facilities/:id/replies',
    {
      schema: {
        tags: ['facilities'],
        summary: "Reply on a facility's page (its shipper: an organization whose loads stop there)",
        ...facilitiesContract.replies,
      },
      onRequest: can(LOADS_SHIPPER),
    },
    async (request, reply) => {
      const caller = { actor: requireActor(request), requestId: request.id };
      const { id } = request.params;
      await commands.reply(caller, id, request.body.text, new Date().toISOString());
      return reply.code(201).send(await page(caller, id));
    },
  );

  app.get(
    '/tours/:id/facilities',
    {
      schema: {
        tags: ['tours'],
        summary:
          "Each stop's facility with its median time on site and visits (the tour's parties; the driver's page)",
        ...facilitiesContract.ofTour,
      },
      onRequest: can(TOUR_GET),
    },
    async (request) => {
      await marketplace.visibleTour(requireActor(request), request.params.id);
      await runner.waitFor(FACILITY_VIEWS, await store.committedHead(), 2_000);
      return facilitiesOfTour(db, request.params.id);
    },
  );
}
