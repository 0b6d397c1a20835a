import type { ColumnType } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from '../../storage/columns.ts';

/**
 * The facilities read model (migration 2026_11_29_1900_facilities): facilities, load stops and
 * tour visits with their facility, drivers' tags and shippers' replies.
 */
export type FacilitiesViewTable = {
  id: string;
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  /** The organization whose saved location founded it; null for a facility founded by a stop. */
  organization_id: string | null;
  /** 1 for the first facility founded, and on: the tie-break of the clustering. */
  founded: number;
};

export type FacilityStopsViewTable = {
  load_id: string;
  stop_id: string;
  stop_index: number;
  facility_id: string;
  shipper_organization_id: string;
  appointment_at: NullableTimestamp;
  grace_minutes: number;
  time_zone: string;
};

export type FacilityVisitsViewTable = {
  tour_id: string;
  stop_id: string;
  stop_index: number;
  facility_id: string;
  shipper_organization_id: string;
  driver_id: string | null;
  appointment_at: NullableTimestamp;
  grace_minutes: number;
  time_zone: string;
  arrived_at: NullableTimestamp;
  departed_at: NullableTimestamp;
  detention: ColumnType<boolean, boolean | undefined, boolean>;
};

/** Per facility: the visits with an arrival and a departure, and their median minutes on site. */
export type FacilityFiguresViewTable = {
  facility_id: string;
  visits: number;
  median_minutes: number | null;
};

export type FacilityTagsViewTable = {
  facility_id: string;
  user_id: string;
  tour_id: string;
  tags: Json<string[]>;
  tagged_at: Timestamp;
};

export type FacilityRepliesViewTable = {
  reply_id: string;
  facility_id: string;
  text: string;
  organization_id: string;
  replied_by: string;
  replied_at: Timestamp;
};

export type FacilitiesTables = {
  facilities_view: FacilitiesViewTable;
  facility_stops_view: FacilityStopsViewTable;
  facility_visits_view: FacilityVisitsViewTable;
  facility_figures_view: FacilityFiguresViewTable;
  facility_tags_view: FacilityTagsViewTable;
  facility_replies_view: FacilityRepliesViewTable;
};
