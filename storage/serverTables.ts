import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Int8, NullableInt8, NullableTimestamp, Timestamp } from './columns.ts';

/**
 * The server's own tables: state that is not an event and no projection keeps (sessions, outbox,
 * stored files, landing content, idempotency keys, which offers a user has seen, the ELD pickup
 * checks, the webhooks, the reactors' checkpoints). Written from migrations 1000, 1200
 * (proposals_seen), 1400, 1500 and 1600, and the later ones each type names.
 */

/** Refresh tokens: only their SHA-256; a family is one sign-in (server/auth/tokens.ts). */
export type RefreshTokensTable = {
  id: string;
  family_id: string;
  user_id: string;
  organization_id: string | null;
  role_id: number;
  token_hash: string;
  session_started_at: Date;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
};

/** The devices a user signed in from (server/auth/knownDevices.ts). */
export type KnownDevicesTable = {
  user_id: string;
  /** SHA-256 of the browser (user agent) and the address, 32 hex digits. */
  device_key: string;
  user_agent: string;
  address: string;
  first_seen_at: Date;
  last_seen_at: Date;
};

/** E-mails kept while no SMTP server is configured. */
export type OutboxTable = {
  id: string;
  to: string;
  subject: string;
  text: string;
  created_at: Date;
};

/** Stored documents, addressed by a random id. pg answers bytea as a Buffer, PGlite as a Uint8Array. */
export type FilesTable = {
  id: string;
  organization_id: string;
  kind: string;
  /** The load a contract belongs to; null for other files. */
  load_id: string | null;
  /** The tour a file of a tour (proof of delivery) belongs to; null for other files. */
  tour_id: string | null;
  mime: string;
  size: number;
  sha256: string;
  data: Uint8Array;
  created_at: Date;
};

/** The landing page's content, one row per item of a content type. */
export type ContentEntriesTable = {
  type: string;
  position: number;
  fields: ColumnType<unknown, string, string>;
  updated_at: Generated<Date>;
};

/** One row per user and idempotency key; a null status_code means the first request still runs. */
export type IdempotencyKeysTable = {
  user_id: string;
  key: string;
  target: string;
  request_hash: string | null;
  status_code: number | null;
  content_type: string | null;
  response_body: Uint8Array | null;
  created_at: ColumnType<Date, Date | undefined, Date>;
  completed_at: Date | null;
};

/** When a user last opened a load's offers (the "new offers" badge): UI state, not an event. */
export type OffersSeenTable = {
  user_id: string;
  load_id: string;
  seen_at: Timestamp;
};

/** The pickup truck checks: one per tour, claimed before the check runs. */
export type EldPickupChecksTable = {
  tour_id: string;
  stop_id: string;
  arrival_event_id: string;
  claimed_at: ColumnType<Date, Date | string | undefined, Date | string>;
  verified: boolean | null;
  message: string | null;
  checked_at: NullableTimestamp;
};

/**
 * Where in the log each reactor stands, one row per reactor by its name (migration
 * 2026_11_28_1000, which moved here the rows of the former eld_checkpoints and webhook_checkpoints).
 */
export type ReactorCheckpointsTable = {
  name: string;
  transaction_id: ColumnType<string, string | undefined, string>;
  global_position: ColumnType<string, string | undefined, string>;
  updated_at: Generated<Date>;
};

/** A webhook endpoint of an organization; the signing secret sealed under SECRETS_KEY (migration 1500). */
export type WebhookEndpointsTable = {
  id: string;
  organization_id: string;
  url: string;
  events: ColumnType<string[], string, string>;
  description: string;
  secret_sealed: string;
  created_by: string | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  failure_notified_at: NullableTimestamp;
};

/** An event as the webhooks send it, taken from the log once (its id is the log event's). */
export type WebhookEventsTable = {
  id: string;
  seq: Generated<string>;
  type: string;
  occurred_at: Timestamp;
  data: ColumnType<unknown, string, string>;
};

/** Which organizations may hear of a webhook event. */
export type WebhookEventAudienceTable = {
  organization_id: string;
  event_id: string;
  occurred_at: Timestamp;
};

/** One delivery of an event to an endpoint: 'retrying' until 'delivered' or 'failed'. */
export type WebhookDeliveriesTable = {
  id: Generated<string>;
  endpoint_id: string;
  event_id: string;
  status: ColumnType<string, string | undefined, string>;
  attempts: ColumnType<number, number | undefined, number>;
  response_status: number | null;
  error: string | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_attempt_at: NullableTimestamp;
  /** Queued by a replay (migration 2026_11_27_1000): one replay per endpoint waits at a time. */
  replayed: Generated<boolean>;
};

/** A key of the cluster (migration 2026_11_26_1200): signing keys of access tokens, sealing keys. */
export type ClusterSecretsTable = {
  purpose: 'jwt' | 'sealing';
  generation: number;
  secret: string | null;
  key_check: string;
  origin: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
};

/** The last imported FMCSA carrier file, by DOT number (migration 2026_11_29_1000). */
export type CarrierAuthorityTable = {
  dot_number: Int8;
  mc_number: NullableInt8;
  legal_name: string;
  status: string;
  insurance_on_file: boolean;
  as_of: Timestamp;
};

/** A shipper's EDI trading partner (migration 2026_11_29_1900): only its API key's SHA-256 is kept. */
export type EdiPartnersTable = {
  id: string;
  organization_id: string;
  name: string;
  isa_qualifier: string;
  isa_id: string;
  gs_id: string;
  element_separator: string;
  segment_terminator: string;
  sub_element_separator: string;
  /** Where outgoing documents are POSTed; null: they wait in the partner's mailbox. */
  deliver_url: string | null;
  /** The secret that signs deliveries to `deliver_url`, sealed under SECRETS_KEY. */
  signing_secret_sealed: string | null;
  api_key_hash: string;
  /** The last control number used on a document to this partner. */
  control_number: ColumnType<string, string | number | undefined, string | number>;
  created_by: string;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
};

/** One interchange in or out, with its X12 text and, going out, its delivery. */
export type EdiDocumentsTable = {
  id: string;
  seq: Generated<string>;
  partner_id: string;
  organization_id: string;
  direction: 'in' | 'out';
  type: string;
  control_number: string;
  load_id: string | null;
  status: string;
  raw: string;
  errors: ColumnType<unknown, string | undefined, string>;
  source_event_id: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  response_status: number | null;
  last_error: string | null;
  next_attempt_at: NullableTimestamp;
  last_attempt_at: NullableTimestamp;
  fetched_at: NullableTimestamp;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
};

/** One attempt to deliver an outgoing document to its partner's URL. */
export type EdiAttemptsTable = {
  id: Generated<string>;
  document_id: string;
  ok: boolean;
  response_status: number | null;
  error: string | null;
  at: ColumnType<Date, Date | string | undefined, Date | string>;
};

/** Which tender (the partner's shipment id, B204) became which load, and its tour once booked. */
export type EdiTendersTable = {
  partner_id: string;
  shipment_id: string;
  load_id: string;
  tour_id: string | null;
  status: ColumnType<string, string | undefined, string>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
};

export type ServerTables = {
  refresh_tokens: RefreshTokensTable;
  known_devices: KnownDevicesTable;
  outbox: OutboxTable;
  files: FilesTable;
  content_entries: ContentEntriesTable;
  idempotency_keys: IdempotencyKeysTable;
  proposals_seen: OffersSeenTable;
  eld_pickup_checks: EldPickupChecksTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_event_audience: WebhookEventAudienceTable;
  webhook_deliveries: WebhookDeliveriesTable;
  reactor_checkpoints: ReactorCheckpointsTable;
  cluster_secrets: ClusterSecretsTable;
  carrier_authority: CarrierAuthorityTable;
  edi_partners: EdiPartnersTable;
  edi_documents: EdiDocumentsTable;
  edi_attempts: EdiAttemptsTable;
  edi_tenders: EdiTendersTable;
};

export type RefreshTokenRow = Selectable<RefreshTokensTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type FileRow = Selectable<FilesTable>;
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;
