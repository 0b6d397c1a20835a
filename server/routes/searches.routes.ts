import {
  SavedSearchBodySchema,
  SearchIdParamsSchema as IdParams,
  searchesAnswers,
} from '../../domain/contracts/searches.contract.ts';
import { trailerTypes } from '../../domain/catalog.ts';
import { LOADS_CARRIER } from '../../domain/permissions.ts';
import { savedSearchBodySchema } from '../../domain/searches/savedSearch.schema.ts';
import { criteriaOfRow } from '../../projections/savedSearches/savedSearches.projection.ts';
import { savedSearchesOf } from '../../projections/savedSearches/savedSearches.queries.ts';
import type { SavedSearchRow } from '../../projections/savedSearches/savedSearches.tables.ts';
import type { App } from '../http/routeContext.ts';
import { createSearchCommands } from '../commands/searches.ts';
import { can, requireActor } from '../http/auth.ts';
import { parseWith } from '../http/parseWith.ts';

const SEARCH_VIEWS = ['savedSearches'] as const;

/** A saved search as GET searches lists it. */
const searchOfRow = (row: SavedSearchRow) => {
  const criteria = criteriaOfRow(row);
  return {
    id: row.id,
    name: row.name,
    origin: criteria.origin ?? null,
    destination: criteria.destination ?? null,
    equipment: criteria.equipment ?? [],
    equipmentNames: (criteria.equipment ?? []).map(
      (id) => trailerTypes.find((type) => type.id === id)?.name ?? String(id),
    ),
    createdBy: row.user_id,
    createdAt: new Date(row.created_at).toISOString(),
  };
};

/**
 * A carrier's saved searches (lane alerts, issue 5): list, save, delete. Each is its own stream
 * (`savedsearch-<id>`); lists come from `saved_searches_view`, always the caller's organization.
 * A Superadmin belongs to none: it lists nothing and saves nothing, but may delete any search.
 */
export async function searchesRoutes(app: App) {
  const { store, runner } = app.platform;
  const { db } = app.platform.database;

  const searches = createSearchCommands({ store, db });

  app.get(
    '/searches',
    {
      schema: {
        tags: ['searches'],
        summary: "The organization's saved searches (lane alerts), oldest first",
        response: searchesAnswers.list,
      },
      onRequest: can(LOADS_CARRIER),
    },
    async (request) => {
      const actor = requireActor(request);
      if (!actor.organizationId) return [];
      const rows = await savedSearchesOf(db, actor.organizationId);
      return rows.map(searchOfRow);
    },
  );

  app.post(
    '/searches',
    {
      schema: {
        tags: ['searches'],
        summary:
          'Save a search: {name, origin?: {latitude, longitude, radius}, destination?, equipment?}; a new load matching it alerts the organization',
        body: SavedSearchBodySchema,
        response: searchesAnswers.save,
      },
      onRequest: can(LOADS_CARRIER),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const body = parseWith(savedSearchBodySchema, request.body);
      const { id, position } = await searches.saveSearch(
        { actor, requestId: request.id },
        body,
        new Date().toISOString(),
      );
      await runner.waitFor(SEARCH_VIEWS, position);
      return reply.code(201).send({ id });
    },
  );

  app.delete(
    '/searches/:id',
    {
      schema: {
        tags: ['searches'],
        summary: 'Delete a saved search of the organization',
        params: IdParams,
        response: searchesAnswers.delete,
      },
      onRequest: can(LOADS_CARRIER),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const position = await searches.deleteSearch(
        { actor, requestId: request.id },
        request.params.id,
        new Date().toISOString(),
      );
      await runner.waitFor(SEARCH_VIEWS, position);
      return reply.code(204).send(null);
    },
  );
}
