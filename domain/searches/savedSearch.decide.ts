/**
 * The saved search's rules: a pure evolve over its events and one function per command. A search is
 * saved once and deleted once; another organization's search is "not found".
 */
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { assertNever, type Decider } from '../shared/event.ts';
import {
  MAX_SAVED_SEARCHES,
  SEARCH_CRITERIA_MESSAGE,
  SEARCH_LIMIT_MESSAGE,
  SEARCH_NAME_MESSAGE,
} from './savedSearch.schema.ts';
import type {
  DeleteSearch,
  SavedSearch,
  SavedSearchCommand,
  SavedSearchEvent,
  SaveSearch,
  SearchCriteria,
} from './savedSearch.types.ts';

export const initialSavedSearch = (): SavedSearch => ({ status: 'none' });

export const evolveSavedSearch = (_state: SavedSearch, event: SavedSearchEvent): SavedSearch => {
  switch (event.type) {
    case 'SearchSaved': {
      const { searchId, organizationId, userId, name, at } = event.data;
      return {
        status: 'saved',
        searchId,
        organizationId,
        userId,
        name,
        savedAt: at,
        ...criteriaOf(event.data),
      };
    }
    case 'SearchDeleted':
      return {
        status: 'deleted',
        searchId: event.data.searchId,
        organizationId: event.data.organizationId,
      };
    default:
      return assertNever(event);
  }
};

export const decideSavedSearch = (
  command: SavedSearchCommand,
  state: SavedSearch,
): SavedSearchEvent[] => {
  switch (command.type) {
    case 'SaveSearch':
      return saveSearch(command, state);
    case 'DeleteSearch':
      return deleteSearch(command, state);
    default:
      return assertNever(command);
  }
};

export const savedSearchDecider: Decider<SavedSearch, SavedSearchCommand, SavedSearchEvent> = {
  initialState: initialSavedSearch,
  evolve: evolveSavedSearch,
  decide: decideSavedSearch,
};

/** Only the criteria that are there: an absent one is left out of the event, not stored as null. */
export const criteriaOf = ({ origin, destination, equipment }: SearchCriteria): SearchCriteria => ({
  ...(origin ? { origin } : {}),
  ...(destination ? { destination } : {}),
  ...(equipment?.length ? { equipment } : {}),
});

const saveSearch = ({ data }: SaveSearch, state: SavedSearch): SavedSearchEvent[] => {
  if (state.status !== 'none') throw new ConflictError('This saved search already exists');
  const name = data.name.trim();
  if (!name) throw ValidationError.field('name', SEARCH_NAME_MESSAGE);
  const criteria = criteriaOf(data);
  if (Object.keys(criteria).length === 0)
    throw ValidationError.field('origin', SEARCH_CRITERIA_MESSAGE);
  if (data.savedCount >= MAX_SAVED_SEARCHES) throw new ConflictError(SEARCH_LIMIT_MESSAGE);
  return [
    {
      type: 'SearchSaved',
      data: {
        searchId: data.searchId,
        organizationId: data.organizationId,
        userId: data.userId,
        name,
        ...criteria,
        at: data.now,
      },
    },
  ];
};

const deleteSearch = ({ data }: DeleteSearch, state: SavedSearch): SavedSearchEvent[] => {
  if (state.status !== 'saved' || (data.by !== null && data.by !== state.organizationId))
    throw new NotFoundError('Saved search not found');
  return [
    {
      type: 'SearchDeleted',
      data: {
        searchId: state.searchId,
        organizationId: state.organizationId,
        userId: data.userId,
        at: data.now,
      },
    },
  ];
};
