import type { ClaimOutcome } from '../../domain/claims/detentionFigures.ts';
import type { NullableTimestamp, Timestamp } from '../../storage/columns.ts';

/** `detention_tours_view` (migration 2026_11_29_1400_detention_figures): the free time a booking agreed. */
export type DetentionToursViewTable = {
  tour_id: string;
  free_pickup_minutes: number;
  free_delivery_minutes: number;
};

/** `detention_stops_view`: a tour's stop, its place and its recorded arrival and departure. */
export type DetentionStopsViewTable = {
  tour_id: string;
  stop_id: string;
  stop_index: number;
  shipper_organization_id: string;
  place_key: string;
  kind: 'pickup' | 'delivery';
  arrived_at: NullableTimestamp;
  departed_at: NullableTimestamp;
  /** Whole minutes from arrival to departure; null until both are recorded. */
  minutes_on_site: number | null;
};

/** `detention_claims_view`: a claim and the shipper's first answer to it. */
export type DetentionClaimsViewTable = {
  claim_id: string;
  tour_id: string;
  stop_index: number | null;
  shipper_organization_id: string;
  due_at: Timestamp;
  outcome: ClaimOutcome;
};

/** `detention_figures_view`: per shipper (`scope` 'shipper', key its id) and per place (`scope` 'place', key `placeKey`). */
export type DetentionFiguresViewTable = {
  scope: 'shipper' | 'place';
  key: string;
  stops: number;
  median_minutes: number | null;
  detention_stops: number;
  claims_decided: number;
  claims_on_time: number;
};

export type DetentionFiguresTables = {
  detention_tours_view: DetentionToursViewTable;
  detention_stops_view: DetentionStopsViewTable;
  detention_claims_view: DetentionClaimsViewTable;
  detention_figures_view: DetentionFiguresViewTable;
};
