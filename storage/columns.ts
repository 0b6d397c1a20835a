import type { ColumnType } from 'kysely';

/**
 * Column types as both drivers (pg and PGlite, see server/db/database.ts) hand them back:
 * timestamptz as a Date, numeric and int8 as a decimal string, jsonb parsed. Writes take what the
 * code passes: an ISO string or a Date, a number or a string.
 */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamptz column that may be null. */
export type NullableTimestamp = ColumnType<Date | null, Date | string | null, Date | string | null>;
/** numeric(p, s): exact, so a string; `Number()` it for arithmetic. */
export type Decimal = ColumnType<string, string | number, string | number>;
/** int8 (bigint, bigserial): a decimal string. */
export type Int8 = ColumnType<string, string | number, string | number>;
/** jsonb holding a T; written as the object or as its JSON text. */
export type Json<T> = ColumnType<T, T | string, T | string>;
/** A numeric column that may be null. */
export type NullableDecimal = ColumnType<
  string | null,
  string | number | null,
  string | number | null
>;
/** An int8 column that may be null. */
export type NullableInt8 = ColumnType<
  string | null,
  string | number | null,
  string | number | null
>;
