import type { ColumnType, Generated } from 'kysely';

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

export type EventStoreTables = {
  streams: StreamsTable;
  events: EventsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
};

// Read-model tables join this type as projections declare them.
export type DB = EventStoreTables & Record<string, any>;
