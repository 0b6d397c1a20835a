/** The pieces of a load body's fields: bounds, numbers from text, catalog ids, times, zones and texts. */
import { roundCoordinate } from '../shared/coordinates.ts';
import { z } from 'zod';
import { hasId, timeZoneIds, type Entry } from '../catalog.ts';
import { textTooLongMessage } from './fields.ts';
import {
  DATE_TIME_INVALID_MESSAGE,
  TIMEZONE_REQUIRED_MESSAGE,
  TIMEZONE_INVALID_MESSAGE,
  LOCATION_ID_MESSAGE,
} from './messages.ts';

// Bounds: what a real load never exceeds, so a typing slip or a probe gets a 400 naming the field
// instead of a 500 from SQL, or half a megabyte sent to every carrier.

export const LOAD_WEIGHT_MAX = 200_000;
export const LOAD_RATE_MAX = 1_000_000;
export const LOAD_STOPS_MAX = 10;
export const LOAD_TEXT_MAX = {
  commodity: 200,
  refNumber: 100,
  description: 2000,
  address: 300,
  place: 100,
  name: 200,
  contactName: 100,
  number: 100,
  message: 2000,
} as const;
export const WEIGHT_TOO_HIGH_MESSAGE = `Please enter a weight of at most ${LOAD_WEIGHT_MAX.toLocaleString('en-US')} lb`;
export const RATE_TOO_HIGH_MESSAGE = `Please enter a rate of at most ${LOAD_RATE_MAX.toLocaleString('en-US')}`;
export const STOPS_TOO_MANY_MESSAGE = `A load has at most ${LOAD_STOPS_MAX} stops`;

// Field pieces

const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
/** Numbers may come as numeric strings (text inputs, CSV cells). */
export const numberFrom = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) =>
      typeof value === 'string' && NUMERIC.test(value.trim()) ? Number(value.trim()) : value,
    schema,
  );

export const catalogId = (list: readonly Entry[], message: string) =>
  numberFrom(z.number({ error: message }).refine((id) => hasId(list, id), { error: message }));

/** A list of catalog ids, at least one, duplicates dropped. */
export const catalogIds = (
  list: readonly Entry[],
  requiredMessage: string,
  invalidMessage: string,
) =>
  z
    .array(catalogId(list, invalidMessage), { error: requiredMessage })
    .min(1, { error: requiredMessage })
    .max(list.length, { error: invalidMessage })
    .transform((ids) => [...new Set(ids)]);

export const requiredTime = z
  .string({ error: DATE_TIME_INVALID_MESSAGE })
  .trim()
  .min(1, { error: DATE_TIME_INVALID_MESSAGE })
  .max(64, { error: DATE_TIME_INVALID_MESSAGE });
/** A disabled optional time may come as absent, null or empty. */
export const optionalTime = z
  .string({ error: DATE_TIME_INVALID_MESSAGE })
  .trim()
  .max(64, { error: DATE_TIME_INVALID_MESSAGE })
  .nullish()
  .transform((value) => value || null);

/** One of the six zones: 'Please select a timezone' when missing, else 'Please select a valid timezone'. */
export const timeZoneSchema = z
  .string({ error: TIMEZONE_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: TIMEZONE_REQUIRED_MESSAGE, abort: true })
  .pipe(z.enum(timeZoneIds, { error: TIMEZONE_INVALID_MESSAGE }));

export const optionalText = (message: string, label = 'This field', max = 200) =>
  z
    .union([z.string(), z.number()], { error: message })
    .nullish()
    .transform((value) =>
      value === null || value === undefined ? null : String(value).trim() || null,
    )
    .refine((value) => value === null || value.length <= max, {
      error: textTooLongMessage(label, max),
    });

// An unreadable coordinate counts as none (0): the stop then reports that no place was picked.
export const coordinate = numberFrom(z.number()).catch(0).transform(roundCoordinate);

export const optionalLocationId = optionalText(LOCATION_ID_MESSAGE, 'The stop id', 100);

// Cross-field rules run also while other fields are invalid (so a form shows every error at once),
// but only on a value of the right kind: an invalid type has already been reported.
export const isObject = (payload: { value: unknown }) =>
  typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value);
export const isArray = (payload: { value: unknown }) => Array.isArray(payload.value);
export type Issues = {
  addIssue: (issue: { code: 'custom'; message: string; path: PropertyKey[] }) => void;
};
