/** The columns of the loads CSV, its limits and messages, and what reading it answers. */
import type { LoadBody } from '../../../domain/schemas/load.schema.ts';

export const LOADS_CSV_COLUMNS = [
  'pickupStart',
  'pickupEnd',
  'pickupTimezone',
  'pickupFacility',
  'pickupAddress',
  'pickupContactName',
  'pickupContactPhone',
  'pickupNumber',
  'dropoffStart',
  'dropoffEnd',
  'dropoffTimezone',
  'dropoffFacility',
  'dropoffAddress',
  'dropoffContactName',
  'dropoffContactPhone',
  'dropoffNumber',
  'expiration',
  'expirationTimezone',
  'loadType',
  'equipment',
  'accessories',
  'weight',
  'commodity',
  'refNumber',
  'description',
] as const;
export type LoadsCsvColumn = (typeof LOADS_CSV_COLUMNS)[number];

export const LOADS_CSV_DEFAULT_MAX_ROWS = 5000;
export const LOADS_CSV_MAX_ERRORS = 1000;
/** Separates several equipment or accessory ids or names in one cell. */
export const LOADS_CSV_LIST_SEPARATOR = ';';

export const LOADS_CSV_INVALID_MESSAGE = 'The file has errors; no load was imported';
export const LOADS_CSV_EMPTY_MESSAGE = 'The file has no loads';
export const loadsCsvTooManyRowsMessage = (maxRows: number) =>
  `The file has more than ${maxRows} loads; import at most ${maxRows} loads at a time`;

export type GeocodedPlace = {
  address: string;
  latitude: number;
  longitude: number;
  city: string | null;
  state: string | null;
};
export type LoadsCsvOptions = {
  /** The instant the rows are checked at (no load may start or expire before it). */
  now: string;
  /** A US place for an address as typed, or null when unknown. */
  geocode: (query: string) => GeocodedPlace | null;
  maxRows?: number;
};
/** `row` is the file's line where the record starts (the header is 1); `field` a column name, 'header' or 'file'. */
export type LoadsCsvError = { row: number; field: string; message: string };
export type LoadsCsvResult =
  | { ok: true; loads: LoadBody[] }
  | { ok: false; message: string; errors: LoadsCsvError[] };

// Reading a row

/** A row's cells by column. */
export type Row = Record<LoadsCsvColumn, string>;
