/**
 * The commands of a carrier's saved searches (lane alerts): save and delete. Each search is its own
 * stream (`savedsearch-<id>`); this module is its only writer.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { savedSearchDecider } from '../../domain/searches/savedSearch.decide.ts';
import type { SavedSearchBody } from '../../domain/searches/savedSearch.schema.ts';
import {
  savedSearchStream,
  type SavedSearch,
  type SavedSearchCommand,
  type SavedSearchEvent,
} from '../../domain/searches/savedSearch.types.ts';
import { ForbiddenError } from '../../domain/shared/errors.ts';
import { savedSearchCount } from '../../projections/savedSearches/savedSearches.queries.ts';
import type { DB } from '../../storage/schema.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { EventStore } from '../eventstore/eventStore.ts';
import { isSuperadmin, metadataOf, type Caller } from './caller.ts';

export function createSearchCommands(deps: { store: EventStore; db: Kysely<DB> }) {
  const { store, db } = deps;
  const run = (command: SavedSearchCommand, caller: Caller, now: string) =>
    handleCommand<SavedSearch, SavedSearchCommand, SavedSearchEvent>(
      store,
      savedSearchStream(command.data.searchId),
      savedSearchDecider,
      command,
      metadataOf(caller, now),
    );

  return {
    /** A Superadmin belongs to no organization: it saves nothing. */
    async saveSearch(caller: Caller, body: SavedSearchBody, now: string) {
      const { actor } = caller;
      if (isSuperadmin(actor) || !actor.organizationId)
        throw new ForbiddenError('Saved searches belong to a carrier organization');
      const count = await savedSearchCount(db, actor.organizationId);
      const searchId = randomUUID();
      const { position } = await run(
        {
          type: 'SaveSearch',
          data: {
            searchId,
            organizationId: actor.organizationId,
            userId: actor.userId,
            ...body,
            savedCount: count,
            now,
          },
        },
        caller,
        now,
      );
      return { id: searchId, position };
    },

    /** Another organization's search is not found; a Superadmin may delete any. */
    async deleteSearch(caller: Caller, searchId: string, now: string) {
      const { actor } = caller;
      const { position } = await run(
        {
          type: 'DeleteSearch',
          data: {
            searchId,
            by: isSuperadmin(actor) ? null : (actor.organizationId ?? ''),
            userId: actor.userId,
            now,
          },
        },
        caller,
        now,
      );
      return position;
    },
  };
}
export type SearchCommands = ReturnType<typeof createSearchCommands>;
