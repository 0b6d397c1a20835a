/**
 * A carrier's saved search (stream `savedsearch-<uuid>`): an origin area, a destination area and
 * equipment, any of them optional but not all. A newly posted load matching one alerts that carrier
 * (lane alerts, issue 5). Types only; rules are in `savedSearch.decide.ts`.
 */
import type { SearchRadius } from '../catalog.ts';
import type { Command, Event } from '../shared/event.ts';

export const savedSearchStream = (searchId: string): string => `savedsearch-${searchId}`;

/** A circle on the map: a point and one of the catalog's `searchRadii`, in miles. */
export type SearchArea = { latitude: number; longitude: number; radius: SearchRadius };

/** What a search looks for; an absent criterion matches every load. */
export type SearchCriteria = {
  origin?: SearchArea;
  destination?: SearchArea;
  /** Trailer type ids (catalog `trailerTypes`); a load offering any one of them matches. */
  equipment?: number[];
};

export type SearchSaved = Event<
  'SearchSaved',
  SearchCriteria & {
    searchId: string;
    organizationId: string;
    /** Who saved it. */
    userId: string;
    name: string;
    at: string;
  }
>;
export type SearchDeleted = Event<
  'SearchDeleted',
  { searchId: string; organizationId: string; userId: string; at: string }
>;

export type SavedSearchEvent = SearchSaved | SearchDeleted;

/**
 * `savedCount`: how many searches the organization keeps now, read by the handler (the limit spans
 * streams, so it cannot be decided from this stream alone).
 */
export type SaveSearch = Command<
  'SaveSearch',
  SearchCriteria & {
    searchId: string;
    organizationId: string;
    userId: string;
    name: string;
    savedCount: number;
    now: string;
  }
>;
/** `by` is the acting organization; null for a Superadmin, who may delete any. */
export type DeleteSearch = Command<
  'DeleteSearch',
  { searchId: string; by: string | null; userId: string; now: string }
>;

export type SavedSearchCommand = SaveSearch | DeleteSearch;

export type ActiveSearch = SearchCriteria & {
  status: 'saved';
  searchId: string;
  organizationId: string;
  userId: string;
  name: string;
  savedAt: string;
};
export type SavedSearch =
  | { status: 'none' }
  | ActiveSearch
  | { status: 'deleted'; searchId: string; organizationId: string };
