/**
 * The load body of POST and PUT loads (specification section 3 "Load (sent on create)" and the rules
 * of section 5), shared by the client's load form, the routes and the CSV batch import; plus the
 * extend-expiration and cancel bodies. Errors are reported under the specification's field names
 * (`pickupTimestampStart`, `locations.0.address`…); the output uses the domain's names (`pickupStart`)
 * with every time as an ISO 8601 instant in UTC.
 */
import { roundCoordinate } from '../shared/coordinates.ts';
import { DateTime, IANAZone } from 'luxon';
import { z } from 'zod';
import {
  accessories,
  GenericStatus,
  hasId,
  limits,
  loadTypes,
  LocationType,
  locationTypeHasNumber,
  timeZoneIds,
  trailerTypes,
  type Entry,
  type TimeZoneId,
} from '../catalog.ts';
import type { LoadDetails, LoadStop } from '../loads/load.types.ts';
import { requiredText, textTooLongMessage } from './fields.ts';
import { BUSINESS_MAX_AHEAD_MS, businessDateTooFarMessage } from './saneTime.ts';
import { optionalPhoneSchema } from './phone.ts';
import {
  PICKUP_START_PAST_MESSAGE,
  PICKUP_DEADLINE_MESSAGE,
  DROPOFF_BEFORE_PICKUP_MESSAGE,
  DROPOFF_DEADLINE_MESSAGE,
  EXPIRATION_AFTER_PICKUP_MESSAGE,
  EXPIRATION_PAST_MESSAGE,
  DATE_IN_PAST_MESSAGE,
  DATE_TIME_INVALID_MESSAGE,
  TIMEZONE_REQUIRED_MESSAGE,
  TIMEZONE_INVALID_MESSAGE,
  LOAD_EQUIPMENT_MESSAGE,
  LOAD_EQUIPMENT_INVALID_MESSAGE,
  LOAD_ACCESSORIES_MESSAGE,
  LOAD_ACCESSORY_INVALID_MESSAGE,
  WEIGHT_MESSAGE,
  COMMODITY_MESSAGE,
  REFERENCE_NUMBER_MESSAGE,
  LOAD_TYPE_MESSAGE,
  RATE_MESSAGE,
  RATE_TYPE_MESSAGE,
  CARRIERS_SORTING_TYPE_MESSAGE,
  DESCRIPTION_MESSAGE,
  LOCATION_REQUIRED_MESSAGE,
  LOCATION_NOT_PICKED_MESSAGE,
  FACILITY_NAME_REQUIRED_MESSAGE,
  FACILITY_NAME_TOO_SHORT_MESSAGE,
  LOCATION_TYPE_MESSAGE,
  LOCATION_ORDER_MESSAGE,
  LOCATION_ID_MESSAGE,
  SAVED_LOCATION_MESSAGE,
  SAVE_LOCATION_MESSAGE,
  CONTACT_NAME_MESSAGE,
  LOCATION_NUMBER_MESSAGE,
  LOAD_ID_MESSAGE,
  CANCEL_STATUS_MESSAGE,
  CANCEL_MESSAGE_REQUIRED_MESSAGE,
} from './messages.ts';

// Defined in messages.ts, apart from zod and luxon, for the browser's message tables.
export {
  PICKUP_START_PAST_MESSAGE,
  PICKUP_DEADLINE_MESSAGE,
  DROPOFF_BEFORE_PICKUP_MESSAGE,
  DROPOFF_DEADLINE_MESSAGE,
  EXPIRATION_AFTER_PICKUP_MESSAGE,
  EXPIRATION_PAST_MESSAGE,
  DATE_IN_PAST_MESSAGE,
  DATE_TIME_INVALID_MESSAGE,
  TIMEZONE_REQUIRED_MESSAGE,
  TIMEZONE_INVALID_MESSAGE,
  LOAD_EQUIPMENT_MESSAGE,
  LOAD_EQUIPMENT_INVALID_MESSAGE,
  LOAD_ACCESSORIES_MESSAGE,
  LOAD_ACCESSORY_INVALID_MESSAGE,
  WEIGHT_MESSAGE,
  COMMODITY_MESSAGE,
  REFERENCE_NUMBER_MESSAGE,
  LOAD_TYPE_MESSAGE,
  RATE_MESSAGE,
  RATE_TYPE_MESSAGE,
  CARRIERS_SORTING_TYPE_MESSAGE,
  DESCRIPTION_MESSAGE,
  LOCATION_REQUIRED_MESSAGE,
  LOCATION_NOT_PICKED_MESSAGE,
  FACILITY_NAME_REQUIRED_MESSAGE,
  FACILITY_NAME_TOO_SHORT_MESSAGE,
  LOCATION_TYPE_MESSAGE,
  LOCATION_ORDER_MESSAGE,
  LOCATION_ID_MESSAGE,
  SAVED_LOCATION_MESSAGE,
  SAVE_LOCATION_MESSAGE,
  CONTACT_NAME_MESSAGE,
  LOCATION_NUMBER_MESSAGE,
  LOAD_ID_MESSAGE,
  CANCEL_STATUS_MESSAGE,
  CANCEL_MESSAGE_REQUIRED_MESSAGE,
};

// Times

const SERVER_FORMAT = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(\d{1,2}):(\d{2})\s*([AaPp])\.?[Mm]\.?$/;
const ISO_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

const HOUR_MS = 3_600_000;
const MAX_CACHED_HOURS = 100_000;

/**
 * A zone that remembers its UTC offset per UTC hour. Asking ICU for an offset costs tens of
 * microseconds, and a batch import reads thousands of times; the six zones only change offset on
 * whole UTC hours, so the hour's offset is the offset of every instant in it.
 */
class HourlyCachedZone extends IANAZone {
  readonly #offsets = new Map<number, number>();
  override offset(ts: number): number {
    const hour = Math.floor(ts / HOUR_MS);
    let offset = this.#offsets.get(hour);
    if (offset === undefined) {
      if (this.#offsets.size >= MAX_CACHED_HOURS) this.#offsets.clear();
      offset = super.offset(ts);
      this.#offsets.set(hour, offset);
    }
    return offset;
  }
}
const cachedZones = new Map<string, IANAZone>(
  timeZoneIds.map((id) => [id, new HourlyCachedZone(id)]),
);
const luxonZone = (zone: string): IANAZone | string => cachedZones.get(zone) ?? zone;

/**
 * An ISO instant in UTC (`2026-12-01T16:00:00.000Z`) for a load time, or null when unreadable.
 * Reads the specification's server format `MM/DD/YYYY hh:mm a` (one-digit month, day and hour too)
 * and ISO 8601 date-times (the internal `YYYY-MM-DDTHH:mm` included): a time without an offset is
 * read in `zone`, one with an offset (or Z) stands as sent. A wall time skipped by a daylight saving
 * change moves forward by the gap.
 */
export const parseLoadTime = (value: string, zone: string): string | null => {
  // A body's times are read twice (the date rules, then the output): the second read is a lookup.
  const key = `${zone} ${value}`;
  const known = readTimes.get(key);
  if (known !== undefined) return known;
  const instant = readLoadTime(value, zone);
  if (readTimes.size >= 1024) readTimes.clear();
  readTimes.set(key, instant);
  return instant;
};
const readTimes = new Map<string, string | null>();

const readLoadTime = (value: string, zone: string): string | null => {
  const text = value.trim();
  let time: DateTime | null = null;
  const server = SERVER_FORMAT.exec(text);
  if (server) {
    const [, month, day, year, hour, minute, meridiem] = server;
    const hour12 = Number(hour);
    if (hour12 < 1 || hour12 > 12) return null;
    time = DateTime.fromObject(
      {
        year: Number(year),
        month: Number(month),
        day: Number(day),
        hour: (hour12 % 12) + (meridiem.toLowerCase() === 'p' ? 12 : 0),
        minute: Number(minute),
      },
      { zone: luxonZone(zone) },
    );
  } else {
    const iso = ISO_DATE_TIME.exec(text);
    if (iso)
      time = DateTime.fromISO(text.replace(' ', 'T'), { zone: iso[1] ? 'utc' : luxonZone(zone) });
  }
  return time?.isValid ? new Date(time.toMillis()).toISOString() : null;
};

/** Whether a load time carries its own offset (then it needs no zone to be read). */
export const hasExplicitOffset = (value: string): boolean =>
  Boolean(ISO_DATE_TIME.exec(value.trim())?.[1]);

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
const numberFrom = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) =>
      typeof value === 'string' && NUMERIC.test(value.trim()) ? Number(value.trim()) : value,
    schema,
  );

const catalogId = (list: readonly Entry[], message: string) =>
  numberFrom(z.number({ error: message }).refine((id) => hasId(list, id), { error: message }));

/** A list of catalog ids, at least one, duplicates dropped. */
const catalogIds = (list: readonly Entry[], requiredMessage: string, invalidMessage: string) =>
  z
    .array(catalogId(list, invalidMessage), { error: requiredMessage })
    .min(1, { error: requiredMessage })
    .max(list.length, { error: invalidMessage })
    .transform((ids) => [...new Set(ids)]);

const requiredTime = z
  .string({ error: DATE_TIME_INVALID_MESSAGE })
  .trim()
  .min(1, { error: DATE_TIME_INVALID_MESSAGE })
  .max(64, { error: DATE_TIME_INVALID_MESSAGE });
/** A disabled optional time may come as absent, null or empty. */
const optionalTime = z
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

const optionalText = (message: string, label = 'This field', max = 200) =>
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
const coordinate = numberFrom(z.number()).catch(0).transform(roundCoordinate);

const optionalLocationId = optionalText(LOCATION_ID_MESSAGE, 'The stop id', 100);

// Cross-field rules run also while other fields are invalid (so a form shows every error at once),
// but only on a value of the right kind: an invalid type has already been reported.
const isObject = (payload: { value: unknown }) =>
  typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value);
const isArray = (payload: { value: unknown }) => Array.isArray(payload.value);
type Issues = {
  addIssue: (issue: { code: 'custom'; message: string; path: PropertyKey[] }) => void;
};

const locationSchema = (id: z.ZodType<string | null, unknown>) =>
  z
    .object({
      id,
      locationType: numberFrom(
        z.literal(
          [
            LocationType.Pickup,
            LocationType.ExtraPickupStop,
            LocationType.ExtraDropoffStop,
            LocationType.Dropoff,
          ],
          { error: LOCATION_TYPE_MESSAGE },
        ),
      ),
      address: requiredText(LOCATION_REQUIRED_MESSAGE, LOAD_TEXT_MAX.address, 'The address'),
      latitude: coordinate,
      longitude: coordinate,
      city: optionalText(LOCATION_REQUIRED_MESSAGE, 'The city', LOAD_TEXT_MAX.place),
      state: optionalText(LOCATION_REQUIRED_MESSAGE, 'The state', LOAD_TEXT_MAX.place),
      // One message per state, without aborting: an aborted issue would keep the load's date rules from running.
      name: z
        .string({ error: FACILITY_NAME_REQUIRED_MESSAGE })
        .trim()
        .check((ctx) => {
          const { length } = ctx.value;
          if (length === 0)
            ctx.issues.push({
              code: 'custom',
              message: FACILITY_NAME_REQUIRED_MESSAGE,
              input: ctx.value,
            });
          else if (length < limits.facilityNameMinLength)
            ctx.issues.push({
              code: 'custom',
              message: FACILITY_NAME_TOO_SHORT_MESSAGE,
              input: ctx.value,
            });
          else if (length > LOAD_TEXT_MAX.name)
            ctx.issues.push({
              code: 'custom',
              message: textTooLongMessage('The facility name', LOAD_TEXT_MAX.name),
              input: ctx.value,
            });
        }),
      contactName: optionalText(
        CONTACT_NAME_MESSAGE,
        'The contact name',
        LOAD_TEXT_MAX.contactName,
      ),
      contactPhone: optionalPhoneSchema.nullable().transform((value) => value || null),
      number: optionalText(LOCATION_NUMBER_MESSAGE, 'The number', LOAD_TEXT_MAX.number),
      saveLocation: z
        .boolean({ error: SAVE_LOCATION_MESSAGE })
        .nullish()
        .transform((value) => value ?? false),
      savedLocationId: z
        .preprocess(
          (value) => (value === '' ? null : value),
          z.uuid({ error: SAVED_LOCATION_MESSAGE }).nullish(),
        )
        .transform((value) => value ?? null),
    })
    .superRefine(
      (stop, ctx) => {
        // Only once a place is named: a blank one already says 'Please select a valid location.'.
        if (typeof stop.address !== 'string' || stop.address.trim() === '') return;
        const { latitude, longitude } = stop;
        const picked =
          latitude !== 0 &&
          longitude !== 0 &&
          Math.abs(latitude) <= 90 &&
          Math.abs(longitude) <= 180;
        if (!picked)
          ctx.addIssue({ code: 'custom', message: LOCATION_NOT_PICKED_MESSAGE, path: ['address'] });
      },
      { when: isObject },
    );

const isOrdered = (types: number[]): boolean =>
  types.length >= 2 &&
  types[0] === LocationType.Pickup &&
  types[types.length - 1] === LocationType.Dropoff &&
  types
    .slice(1, -1)
    .every(
      (type) => type === LocationType.ExtraPickupStop || type === LocationType.ExtraDropoffStop,
    );

const locationsSchema = (id: z.ZodType<string | null, unknown>) =>
  z
    .array(locationSchema(id), { error: LOCATION_ORDER_MESSAGE })
    .max(LOAD_STOPS_MAX, { error: STOPS_TOO_MANY_MESSAGE, abort: true })
    .superRefine(
      (stops, ctx) => {
        const types = (stops as unknown[]).map(
          (stop) => (stop as { locationType?: unknown } | null)?.locationType,
        );
        // A stop with an unknown type already has its own error.
        if (!types.every((type) => typeof type === 'number' && type >= 1 && type <= 4)) return;
        if (!isOrdered(types as number[]))
          ctx.addIssue({ code: 'custom', message: LOCATION_ORDER_MESSAGE, path: [] });
      },
      { when: isArray },
    );

const loadObject = (id: z.ZodType<string | null, unknown>) =>
  z.object({
    pickupTimestampStart: requiredTime,
    pickupTimestampEnd: optionalTime,
    pickupTimezone: timeZoneSchema,
    dropOffTimestampStart: requiredTime,
    dropOffTimestampEnd: optionalTime,
    dropoffTimezone: timeZoneSchema,
    expiration: requiredTime,
    expirationTimezone: timeZoneSchema,
    loadTypeId: catalogId(loadTypes, LOAD_TYPE_MESSAGE),
    rate: numberFrom(
      z
        .number({ error: RATE_MESSAGE })
        .positive({ error: RATE_MESSAGE })
        .max(LOAD_RATE_MAX, { error: RATE_TOO_HIGH_MESSAGE }),
    )
      .nullish()
      .transform((value) => value ?? 1),
    rateTypeId: numberFrom(
      z
        .number({ error: RATE_TYPE_MESSAGE })
        .int({ error: RATE_TYPE_MESSAGE })
        .positive({ error: RATE_TYPE_MESSAGE })
        .max(1000, { error: RATE_TYPE_MESSAGE }),
    )
      .nullish()
      .transform((value) => value ?? 1),
    carriersSortingTypeId: numberFrom(
      z
        .number({ error: CARRIERS_SORTING_TYPE_MESSAGE })
        .int({ error: CARRIERS_SORTING_TYPE_MESSAGE })
        .positive({ error: CARRIERS_SORTING_TYPE_MESSAGE })
        .max(1000, { error: CARRIERS_SORTING_TYPE_MESSAGE }),
    )
      .nullish()
      .transform((value) => value ?? null),
    loadAccessories: catalogIds(
      accessories,
      LOAD_ACCESSORIES_MESSAGE,
      LOAD_ACCESSORY_INVALID_MESSAGE,
    ),
    loadEquipment: catalogIds(trailerTypes, LOAD_EQUIPMENT_MESSAGE, LOAD_EQUIPMENT_INVALID_MESSAGE),
    description: z
      .string({ error: DESCRIPTION_MESSAGE })
      .trim()
      .max(LOAD_TEXT_MAX.description, {
        error: textTooLongMessage('The description', LOAD_TEXT_MAX.description),
      })
      .nullish()
      .transform((value) => value ?? ''),
    weight: numberFrom(
      z
        .number({ error: WEIGHT_MESSAGE })
        .positive({ error: WEIGHT_MESSAGE })
        .max(LOAD_WEIGHT_MAX, { error: WEIGHT_TOO_HIGH_MESSAGE }),
    ),
    commodity: requiredText(COMMODITY_MESSAGE, LOAD_TEXT_MAX.commodity, 'The commodity'),
    refNumber: requiredText(
      REFERENCE_NUMBER_MESSAGE,
      LOAD_TEXT_MAX.refNumber,
      'The reference number',
    ),
    locations: locationsSchema(id),
  });
type LoadObject = z.output<ReturnType<typeof loadObject>>;

/** The load's times in route order, with the zone each is read in; the spec's field names. */
const timeFields = [
  ['pickupTimestampStart', 'pickupTimezone'],
  ['pickupTimestampEnd', 'pickupTimezone'],
  ['dropOffTimestampStart', 'dropoffTimezone'],
  ['dropOffTimestampEnd', 'dropoffTimezone'],
  ['expiration', 'expirationTimezone'],
] as const;
type TimeField = (typeof timeFields)[number][0];

// Minute precision: a time picked for the current minute is not "before now".
const startOfMinute = (nowIso: string): number => Math.floor(Date.parse(nowIso) / 60_000) * 60_000;

/** The date rules of section 5; runs also while other fields are invalid so the form shows them all. */
const checkLoadDates =
  (nowIso: string) =>
  (body: object, ctx: Issues): void => {
    const raw = body as Record<string, unknown>;
    const at: Partial<Record<TimeField, number>> = {};
    for (const [field, zoneField] of timeFields) {
      const text = raw[field];
      const zone = raw[zoneField];
      // A missing time or zone already has its own error.
      if (
        typeof text !== 'string' ||
        text.trim() === '' ||
        !(timeZoneIds as readonly unknown[]).includes(zone)
      )
        continue;
      const instant = parseLoadTime(text, zone as string);
      if (instant === null)
        ctx.addIssue({ code: 'custom', message: DATE_TIME_INVALID_MESSAGE, path: [field] });
      else at[field] = Date.parse(instant);
    }
    const now = startOfMinute(nowIso);
    const rule = (broken: boolean, field: TimeField, message: string) => {
      if (broken) ctx.addIssue({ code: 'custom', message, path: [field] });
    };
    const {
      pickupTimestampStart: pickup,
      pickupTimestampEnd: pickupEnd,
      dropOffTimestampStart: dropoff,
      dropOffTimestampEnd: dropoffEnd,
      expiration,
    } = at;
    if (pickup !== undefined) {
      rule(pickup < now, 'pickupTimestampStart', PICKUP_START_PAST_MESSAGE);
      rule(
        pickupEnd !== undefined && pickupEnd < pickup,
        'pickupTimestampEnd',
        PICKUP_DEADLINE_MESSAGE,
      );
      rule(
        dropoff !== undefined && dropoff < pickup,
        'dropOffTimestampStart',
        DROPOFF_BEFORE_PICKUP_MESSAGE,
      );
      rule(
        expiration !== undefined && expiration > pickup,
        'expiration',
        EXPIRATION_AFTER_PICKUP_MESSAGE,
      );
    }
    if (dropoff !== undefined)
      rule(
        dropoffEnd !== undefined && dropoffEnd < dropoff,
        'dropOffTimestampEnd',
        DROPOFF_DEADLINE_MESSAGE,
      );
    if (expiration !== undefined) rule(expiration < now, 'expiration', EXPIRATION_PAST_MESSAGE);
    // Years ahead: a pickup in 9999 is a typing slip, and would sit on the marketplace for good.
    for (const [field] of timeFields) {
      const time = at[field];
      rule(
        time !== undefined && time > now + BUSINESS_MAX_AHEAD_MS,
        field,
        businessDateTooFarMessage,
      );
    }
  };

// Output

/** A stop as the body sends it: the stored stop's fields plus the save-location choice. */
export type LoadLocationBody = Omit<LoadStop, 'id' | 'city' | 'state'> & {
  /** The stop's id when editing (the form's numeric ids arrive as text); null for a new stop. */
  id: string | null;
  city: string | null;
  state: string | null;
  saveLocation: boolean;
  savedLocationId: string | null;
};
export type LoadBody = Omit<LoadDetails, 'stops'> & { locations: LoadLocationBody[] };
export type UpdateLoadBody = LoadBody & { loadId: string };

const at = (value: string, zone: TimeZoneId): string => parseLoadTime(value, zone) as string;

const toLoadBody = (body: LoadObject): LoadBody => ({
  pickupStart: at(body.pickupTimestampStart, body.pickupTimezone),
  pickupEnd:
    body.pickupTimestampEnd === null ? null : at(body.pickupTimestampEnd, body.pickupTimezone),
  pickupTimezone: body.pickupTimezone,
  dropoffStart: at(body.dropOffTimestampStart, body.dropoffTimezone),
  dropoffEnd:
    body.dropOffTimestampEnd === null ? null : at(body.dropOffTimestampEnd, body.dropoffTimezone),
  dropoffTimezone: body.dropoffTimezone,
  expiration: at(body.expiration, body.expirationTimezone),
  expirationTimezone: body.expirationTimezone,
  loadTypeId: body.loadTypeId,
  rate: body.rate,
  rateTypeId: body.rateTypeId,
  carriersSortingTypeId: body.carriersSortingTypeId,
  accessories: body.loadAccessories,
  equipment: body.loadEquipment,
  description: body.description,
  weight: body.weight,
  commodity: body.commodity,
  refNumber: body.refNumber,
  locations: body.locations.map((stop) => ({
    ...stop,
    // Only pickup and dropoff locations carry a number.
    number: locationTypeHasNumber(stop.locationType) ? stop.number : null,
  })),
});

/**
 * The date rules read "now" to the minute, so a schema built for one minute serves every body of
 * that minute: building a zod schema (and its compiled parser) per request cost more than parsing.
 */
const perMinute = <S>(build: (nowIso: string) => S) => {
  let built: { minute: number; schema: S } | null = null;
  return (nowIso: string): S => {
    const minute = startOfMinute(nowIso);
    if (built?.minute !== minute) built = { minute, schema: build(new Date(minute).toISOString()) };
    return built.schema;
  };
};

/** POST loads: the body of section 3, checked against the rules of section 5 at `nowIso`. */
export const loadBodySchema = perMinute((nowIso) =>
  loadObject(optionalLocationId)
    .superRefine(checkLoadDates(nowIso), { when: isObject })
    .transform(toLoadBody),
);

/**
 * PUT loads (edit): the same plus `loadId`. Existing stops carry their id; a stop added while
 * editing has none yet (the server gives it one).
 */
export const updateLoadBodySchema = perMinute((nowIso) =>
  loadObject(optionalLocationId)
    .extend({ loadId: z.uuid({ error: LOAD_ID_MESSAGE }) })
    .superRefine(checkLoadDates(nowIso), { when: isObject })
    .transform(({ loadId, ...body }): UpdateLoadBody => ({ loadId, ...toLoadBody(body) })),
);

/** PUT loads carries either an edit or `{loadId, newExpiration}`: this tells them apart. */
export const isExtendExpirationBody = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && 'newExpiration' in body && !('locations' in body);

export type ExtendExpirationBody = {
  loadId: string;
  expiration: string;
  expirationTimezone: TimeZoneId | null;
};

/**
 * PUT loads `{loadId, newExpiration, expirationTimezone?}`. Without a zone in the body the time is
 * read in `defaultZone` (the load's expiration zone, when the caller knows it), else it must carry its
 * own offset. Only "not before now" is checked here; "not after pickup start" needs the load.
 */
export const extendExpirationBodySchema = (nowIso: string, defaultZone?: TimeZoneId) =>
  z
    .object({
      loadId: z.uuid({ error: LOAD_ID_MESSAGE }),
      newExpiration: requiredTime,
      expirationTimezone: z
        .preprocess((value) => (value === '' ? null : value), timeZoneSchema.nullish())
        .transform((value) => value ?? null),
    })
    .superRefine(
      (body, ctx) => {
        const { newExpiration, expirationTimezone } = body as {
          newExpiration?: unknown;
          expirationTimezone?: unknown;
        };
        if (typeof newExpiration !== 'string' || newExpiration.trim() === '') return;
        if (
          expirationTimezone !== null &&
          expirationTimezone !== undefined &&
          typeof expirationTimezone !== 'string'
        )
          return;
        const zone = expirationTimezone ?? defaultZone;
        if (zone !== undefined && !(timeZoneIds as readonly string[]).includes(zone)) return;
        if (zone === undefined && !hasExplicitOffset(newExpiration)) {
          ctx.addIssue({
            code: 'custom',
            message: TIMEZONE_REQUIRED_MESSAGE,
            path: ['expirationTimezone'],
          });
          return;
        }
        const instant = parseLoadTime(newExpiration, zone ?? 'utc');
        if (instant === null)
          ctx.addIssue({
            code: 'custom',
            message: DATE_TIME_INVALID_MESSAGE,
            path: ['newExpiration'],
          });
        else if (Date.parse(instant) < startOfMinute(nowIso))
          ctx.addIssue({
            code: 'custom',
            message: EXPIRATION_PAST_MESSAGE,
            path: ['newExpiration'],
          });
        else if (Date.parse(instant) > startOfMinute(nowIso) + BUSINESS_MAX_AHEAD_MS)
          ctx.addIssue({
            code: 'custom',
            message: businessDateTooFarMessage,
            path: ['newExpiration'],
          });
      },
      { when: isObject },
    )
    .transform(({ loadId, newExpiration, expirationTimezone }): ExtendExpirationBody => {
      const zone = expirationTimezone ?? defaultZone ?? null;
      return {
        loadId,
        expiration: parseLoadTime(newExpiration, zone ?? 'utc') as string,
        expirationTimezone: zone,
      };
    });

/** PUT loads/{id}/status: only 7 Canceled, with a message. */
export const cancelLoadBodySchema = z.object({
  status: numberFrom(z.literal(GenericStatus.Canceled, { error: CANCEL_STATUS_MESSAGE })),
  message: requiredText(CANCEL_MESSAGE_REQUIRED_MESSAGE, LOAD_TEXT_MAX.message, 'The message'),
});
export type CancelLoadBody = z.infer<typeof cancelLoadBodySchema>;
