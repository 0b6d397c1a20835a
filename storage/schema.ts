import type { ColumnType, Generated } from 'kysely';
import type { LaneRatesTables } from '../projections/laneRates/laneRates.tables.ts';
import type { LeadsTables } from '../projections/leads/leads.tables.ts';
import type { MarketplaceTables } from '../projections/marketplace/marketplace.tables.ts';
import type { OrganizationServicesTables } from '../projections/organizationServices/organizationServices.tables.ts';
import type { OrganizationsTables } from '../projections/organizations/organizations.tables.ts';
import type { SavedSearchesTables } from '../projections/savedSearches/savedSearches.tables.ts';
import type { TourChatTables } from '../projections/tourChat/tourChat.tables.ts';
import type { TourPositionsTables } from '../projections/tourPositions/tourPositions.tables.ts';
import type { TourSharesTables } from '../projections/tourShares/tourShares.tables.ts';
import type { UsersTables } from '../projections/users/users.tables.ts';
import type { ServerTables } from './serverTables.ts';

/** Tables of the event store itself. Read-model tables are declared beside their projections. */
export type StreamsTable = { stream_id: string; revision: string };
export type EventsTable = {
  global_position: Generated<string>;
  transaction_id: ColumnType<string, never, never>;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  type: string;
  data: unknown;
  metadata: unknown;
  created_at: Generated<Date>;
};
export type ProjectionCheckpointsTable = {
  name: string;
  version: number;
  transaction_id: ColumnType<string, string | undefined, string>;
  global_position: ColumnType<string, string | undefined, string>;
  updated_at: Generated<Date>;
};

/** Events a read model could not apply, set aside (migration 2026_11_25_1000_projection_parking). */
export type ProjectionParkedEventsTable = {
  projection: string;
  event_id: string;
  stream_id: string;
  type: string;
  transaction_id: string;
  global_position: string;
  error: string;
  parked_at: Generated<Date>;
};
/** Rebuilds asked for through the database, for the process that holds the projection. */
export type ProjectionRebuildRequestsTable = {
  projection: string;
  requested_at: Generated<Date>;
};

export type EventStoreTables = {
  streams: StreamsTable;
  events: EventsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  projection_parked_events: ProjectionParkedEventsTable;
  projection_rebuild_requests: ProjectionRebuildRequestsTable;
};

/** Every table of the database: the event store's, the server's own, and each read model's (declared beside its projection). */
export type DB = EventStoreTables &
  ServerTables &
  UsersTables &
  OrganizationsTables &
  MarketplaceTables &
  TourPositionsTables &
  TourChatTables &
  SavedSearchesTables &
  OrganizationServicesTables &
  LeadsTables &
  TourSharesTables &
  LaneRatesTables;
