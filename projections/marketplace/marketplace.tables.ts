import type { Generated, Selectable } from 'kysely';
import type { LoadStop } from '../../domain/loads/load.types.ts';
import type { AccessorialTerms } from '../../domain/loads/terms.ts';
import type { TourStop } from '../../domain/tours/tour.types.ts';
import type {
  Decimal,
  Json,
  NullableDecimal,
  NullableTimestamp,
  Timestamp,
} from '../../storage/columns.ts';

/**
 * The marketplace read model (migration 2026_11_22_1200_marketplace_read_models and
 * 2026_11_23_0900, terms 2026_11_29_1400_marketplace_terms): loads, offers and tours with their timeline, ratings and saved locations. Truck
 * positions and chat are read models of their own (`tourPositions/`, `tourChat/`).
 */

/** `loads_view`: a load with its offer counts and its tour's status. Pickup and dropoff are the first and last stop. */
export type LoadsViewTable = {
  id: string;
  guid: string;
  shipper_organization_id: string;
  posted_by: string;
  status: number;
  pickup_start: Timestamp;
  pickup_end: NullableTimestamp;
  pickup_timezone: string;
  dropoff_start: Timestamp;
  dropoff_end: NullableTimestamp;
  dropoff_timezone: string;
  expiration: Timestamp;
  expiration_timezone: string;
  load_type_id: number;
  equipment: number[];
  accessories: number[];
  weight: number;
  commodity: string;
  ref_number: string;
  description: string;
  pickup_address: string;
  pickup_city: string | null;
  pickup_state: string | null;
  pickup_latitude: number;
  pickup_longitude: number;
  dropoff_address: string;
  dropoff_city: string | null;
  dropoff_state: string | null;
  dropoff_latitude: number;
  dropoff_longitude: number;
  distance_miles: number;
  stops: Json<LoadStop[]>;
  /** The load's accessorial terms; null: none (a load posted without, or before terms existed). */
  terms: Json<AccessorialTerms | null>;
  /** Preferred carriers first (migration 2026_11_29_1600_carrier_preferences); null: everyone at once. */
  audience: Json<{ preferredOnlyHours: number; openedAt: string | null } | null>;
  /** When the preferred-only window ends; null: the load is open to the whole marketplace. */
  opens_at: NullableTimestamp;
  /** The Book Now price; null: the load only takes offers. */
  book_now_price: NullableDecimal;
  accepted_proposal_id: string | null;
  carrier_organization_id: string | null;
  price: NullableDecimal;
  tour_id: string | null;
  tour_status: number | null;
  assignee_id: string | null;
  contract_file_id: string | null;
  cancel_message: string | null;
  proposals_count: Generated<number>;
  open_proposals: Generated<number>;
  best_price: NullableDecimal;
  last_proposal_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
};

/** `proposals_view`: one row per carrier offer on a load. */
export type OffersViewTable = {
  id: string;
  load_id: string;
  load_guid: string;
  shipper_organization_id: string;
  carrier_organization_id: string;
  submitted_by: string;
  status: number;
  price: Decimal;
  counter_price: NullableDecimal;
  /** The offer's own accessorial terms; null: the load's. */
  terms: Json<AccessorialTerms | null>;
  /** The terms of the shipper's counter while it waits for the carrier; null: none proposed. */
  counter_terms: Json<AccessorialTerms | null>;
  message: string;
  eld_truck_name: string | null;
  tour_id: string | null;
  contract_file_id: string | null;
  submitted_at: Timestamp;
  updated_at: Timestamp;
};

/** `tours_view`: one row per accepted offer's tour. */
export type ToursViewTable = {
  id: string;
  load_id: string;
  load_guid: string;
  proposal_id: string;
  shipper_organization_id: string;
  carrier_organization_id: string;
  status: number;
  assignee_id: string | null;
  assignee_name: string | null;
  price: Decimal;
  eld_truck_name: string | null;
  stops: Json<TourStop[]>;
  contract_file_id: string | null;
  shipper_rated: Generated<boolean>;
  carrier_rated: Generated<boolean>;
  opened_at: Timestamp;
  updated_at: Timestamp;
};

/** `tour_events_view`: a tour's timeline. */
export type TourEventsViewTable = {
  id: string;
  tour_id: string;
  type: string;
  message: string;
  stop_id: string | null;
  added_by: string | null;
  at: Timestamp;
};

/** `tour_ratings_view`: one row per tour, side and criterion. */
export type TourRatingsViewTable = {
  tour_id: string;
  side: string;
  rated_organization_id: string;
  criteria: number;
  rating: Decimal;
  rated_by: string;
  rated_at: Timestamp;
};

/** `saved_locations_view`: an organization's saved facilities. */
export type SavedLocationsViewTable = {
  id: string;
  organization_id: string;
  name: string;
  address: string;
  city: string | null;
  state: string | null;
  latitude: number;
  longitude: number;
  contact_name: string | null;
  contact_phone: string | null;
  number: string | null;
  location_type: number;
  saved_at: Timestamp;
};

export type MarketplaceTables = {
  loads_view: LoadsViewTable;
  proposals_view: OffersViewTable;
  tours_view: ToursViewTable;
  tour_events_view: TourEventsViewTable;
  tour_ratings_view: TourRatingsViewTable;
  saved_locations_view: SavedLocationsViewTable;
};

export type LoadRow = Selectable<LoadsViewTable>;
export type OfferRow = Selectable<OffersViewTable>;
export type TourRow = Selectable<ToursViewTable>;
export type TourEventRow = Selectable<TourEventsViewTable>;
export type TourRatingRow = Selectable<TourRatingsViewTable>;
export type SavedLocationRow = Selectable<SavedLocationsViewTable>;
