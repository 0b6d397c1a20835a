import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { trailerTypes } from '../../domain/catalog.ts';
import { LOADS_CARRIER } from '../../domain/permissions.ts';
import { savedSearchDecider } from '../../domain/searches/savedSearch.decide.ts';
import { savedSearchBodySchema } from '../../domain/searches/savedSearch.schema.ts';
import { savedSearchStream, type SavedSearch, type SavedSearchCommand, type SavedSearchEvent } from '../../domain/searches/savedSearch.types.ts';
import type { EventMetadata } from '../../domain/shared/event.ts';
import { ForbiddenError } from '../../domain/shared/errors.ts';
import { criteriaOfRow } from '../../projections/searches/searches.projection.ts';
import { savedSearchCount, savedSearchesOf } from '../../projections/searches/searches.queries.ts';
import type { SavedSearchRow } from '../../projections/searches/searches.tables.ts';
import type { App } from '../http/routeContext.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import { can, isSuperadmin, requireActor, type Actor } from '../http/auth.ts';
import { parseWith } from '../identity/accounts.ts';

const IdParams = z.object({ id: z.uuid('Not a valid id') });
const LooseBody = z.looseObject({});
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
    equipmentNames: (criteria.equipment ?? []).map((id) => trailerTypes.find((type) => type.id === id)?.name ?? String(id)),
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

  const metadata = (request: { id: string }, actor: Actor, now: string): EventMetadata => ({
    userId: actor.userId, organizationId: actor.organizationId, correlationId: request.id, causationId: request.id, at: now,
  });
  const run = (command: SavedSearchCommand, request: { id: string }, actor: Actor, now: string) =>
    handleCommand<SavedSearch, SavedSearchCommand, SavedSearchEvent>(store, savedSearchStream(command.data.searchId), savedSearchDecider, command, metadata(request, actor, now));

  app.get('/searches', {
    schema: { tags: ['searches'], summary: "The organization's saved searches (lane alerts), oldest first" },
    onRequest: can(LOADS_CARRIER),
  }, async (request) => {
    const actor = requireActor(request);
    if (!actor.organizationId) return [];
    const rows = await savedSearchesOf(db, actor.organizationId);
    return rows.map(searchOfRow);
  });

  app.post('/searches', {
    schema: { tags: ['searches'], summary: 'Save a search: {name, origin?: {latitude, longitude, radius}, destination?, equipment?}; a new load matching it alerts the organization', body: LooseBody },
    onRequest: can(LOADS_CARRIER),
  }, async (request, reply) => {
    const actor = requireActor(request);
    const body = parseWith(savedSearchBodySchema, request.body);
    if (isSuperadmin(actor) || !actor.organizationId) throw new ForbiddenError('Saved searches belong to a carrier organization');
    const now = new Date().toISOString();
    const count = await savedSearchCount(db, actor.organizationId);
    const searchId = randomUUID();
    const { position } = await run({
      type: 'SaveSearch',
      data: { searchId, organizationId: actor.organizationId, userId: actor.userId, ...body, savedCount: count, now },
    }, request, actor, now);
    await runner.waitFor(SEARCH_VIEWS, position);
    return reply.code(201).send({ id: searchId });
  });

  app.delete('/searches/:id', {
    schema: { tags: ['searches'], summary: 'Delete a saved search of the organization', params: IdParams },
    onRequest: can(LOADS_CARRIER),
  }, async (request, reply) => {
    const actor = requireActor(request);
    const now = new Date().toISOString();
    const { position } = await run({
      type: 'DeleteSearch', data: { searchId: request.params.id, by: isSuperadmin(actor) ? null : actor.organizationId ?? '', userId: actor.userId, now },
    }, request, actor, now);
    await runner.waitFor(SEARCH_VIEWS, position);
    return reply.code(204).send();
  });
}
