import type { ColumnType, Selectable } from 'kysely';
import type { NullableInt8, Timestamp } from '../../storage/columns.ts';

/**
 * `tour_positions_view` (migrations 2026_11_22_1200_marketplace_read_models, 1700 and
 * 2026_11_26_1300_position_batches): a tour's trail, one row per truck position;
 * `stream_revision` null on rows older than migration 1700.
 */
export type TourPositionsViewTable = {
  id: ColumnType<string, never, never>;
  tour_id: string;
  latitude: number;
  longitude: number;
  speed: number | null;
  heading: number | null;
  accuracy: number | null;
  source: string;
  recorded_at: Timestamp;
  stream_revision: NullableInt8;
  /** The position's place inside its event (a batch is one event); 0 for single-position events. */
  position_index: ColumnType<number, number | undefined, number>;
};

export type TourPositionsTables = { tour_positions_view: TourPositionsViewTable };

export type TourPositionRow = Selectable<TourPositionsViewTable>;
