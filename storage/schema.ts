import type { ColumnType, Generated } from 'kysely';
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

/**
 * Every table of the database: the event store's and the server's own, declared here, and each read
 * model's, declared beside its projection and added to this interface by `projections/tables.ts`
 * (storage imports nothing from the projections).
 */
export interface DB extends EventStoreTables, ServerTables {}
