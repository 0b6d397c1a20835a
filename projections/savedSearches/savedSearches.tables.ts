import type { Generated, Selectable } from 'kysely';
import type { Timestamp } from '../../storage/columns.ts';

/**
 * `saved_searches_view` (migration 2026_11_22_1300_saved_searches). An absent origin or destination
 * is null in all three of its columns; no equipment is an empty array.
 */
export type SavedSearchesViewTable = {
  id: string;
  organization_id: string;
  user_id: string;
  name: string;
  origin_latitude: number | null;
  origin_longitude: number | null;
  origin_radius: number | null;
  destination_latitude: number | null;
  destination_longitude: number | null;
  destination_radius: number | null;
  equipment: Generated<number[]>;
  created_at: Timestamp;
};

export type SavedSearchesTables = { saved_searches_view: SavedSearchesViewTable };

export type SavedSearchRow = Selectable<SavedSearchesViewTable>;
