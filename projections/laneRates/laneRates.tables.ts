import type { Selectable } from 'kysely';
import type { Decimal, Timestamp } from '../../storage/columns.ts';

type LaneEnds = {
  pickup_latitude: number;
  pickup_longitude: number;
  pickup_city: string | null;
  pickup_state: string | null;
  dropoff_latitude: number;
  dropoff_longitude: number;
  dropoff_city: string | null;
  dropoff_state: string | null;
  /** Trailer type ids (catalog `trailerTypes`) the load asked for. */
  equipment: number[];
  /** Road miles: the straight lines through the stops times the road factor (see laneRates.projection.ts). */
  miles: Decimal;
};

/** `lane_loads_view` (migration 2026_11_26_1100_lane_rates): a load's lane as posted or last edited. */
export type LaneLoadsViewTable = LaneEnds & { load_id: string };

/** `lane_rates_view`: one agreed price per accepted offer, with its load's lane and the month (UTC, YYYY-MM) of the acceptance. */
export type LaneRatesViewTable = LaneEnds & {
  proposal_id: string;
  load_id: string;
  price: Decimal;
  month: string;
  accepted_at: Timestamp;
};

export type LaneRatesTables = {
  lane_loads_view: LaneLoadsViewTable;
  lane_rates_view: LaneRatesViewTable;
};

export type LaneRateRow = Selectable<LaneRatesViewTable>;
