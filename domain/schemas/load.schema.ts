/**
 * The load body of POST and PUT loads (specification section 3 "Load (sent on create)" and the rules
 * of section 5), shared by the client's load form, the routes and the CSV batch import; plus the
 * extend-expiration and cancel bodies. Errors are reported under the specification's field names
 * (`pickupTimestampStart`, `locations.0.address`…); the output uses the domain's names (`pickupStart`)
 * with every time as an ISO 8601 instant in UTC.
 */
import { z } from 'zod';
import {
  accessories,
  GenericStatus,
  loadTypes,
  locationTypeHasNumber,
  trailerTypes,
  type TimeZoneId,
} from '../catalog.ts';
import type { LoadDetails, LoadStop } from '../loads/load.types.ts';
import type { TermsInput } from '../loads/terms.ts';
import { requiredText, textTooLongMessage } from './fields.ts';
import { optionalTermsSchema } from './terms.schema.ts';
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
  BOOK_NOW_PRICE_MESSAGE,
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
  BOOK_NOW_PRICE_MESSAGE,
};

import {
  catalogId,
  catalogIds,
  isObject,
  LOAD_RATE_MAX,
  LOAD_TEXT_MAX,
  LOAD_WEIGHT_MAX,
  numberFrom,
  optionalLocationId,
  optionalTime,
  RATE_TOO_HIGH_MESSAGE,
  requiredTime,
  timeZoneSchema,
  WEIGHT_TOO_HIGH_MESSAGE,
} from './load.fields.ts';
import { checkLoadDates } from './load.dates.ts';
import { locationsSchema } from './load.stops.ts';
import { parseLoadTime, startOfMinute } from './load.times.ts';

export { hasExplicitOffset, parseLoadTime } from './load.times.ts';
export {
  LOAD_RATE_MAX,
  LOAD_STOPS_MAX,
  LOAD_TEXT_MAX,
  LOAD_WEIGHT_MAX,
  RATE_TOO_HIGH_MESSAGE,
  STOPS_TOO_MANY_MESSAGE,
  timeZoneSchema,
  WEIGHT_TOO_HIGH_MESSAGE,
} from './load.fields.ts';
export {
  extendExpirationBodySchema,
  isExtendExpirationBody,
  type ExtendExpirationBody,
} from './load.expiration.schema.ts';

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
    /** The Book Now price: absent, none (editing: the load's own); null, none. */
    bookNowPrice: numberFrom(
      z
        .number({ error: BOOK_NOW_PRICE_MESSAGE })
        .positive({ error: BOOK_NOW_PRICE_MESSAGE })
        .max(LOAD_RATE_MAX, { error: RATE_TOO_HIGH_MESSAGE })
        .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
          error: BOOK_NOW_PRICE_MESSAGE,
        }),
    ).nullish(),
    locations: locationsSchema(id),
    /** The accessorial terms: absent, the shipper's defaults (or, editing, the load's own); null, none. */
    terms: optionalTermsSchema,
    /** Preferred carriers first for `preferredOnlyHours` (0 to 168); absent: none (editing: the load's own). */
    audience: z
      .object(
        {
          preferredOnlyHours: z
            .number({ error: 'preferredOnlyHours must be a number of hours from 0 to 168' })
            .int({ error: 'preferredOnlyHours must be a whole number of hours' })
            .min(0, { error: 'preferredOnlyHours must be from 0 to 168' })
            .max(168, { error: 'preferredOnlyHours must be from 0 to 168' })
            .optional(),
        },
        { error: 'audience must be an object' },
      )
      .nullable()
      .optional(),
  });
type LoadObject = z.output<ReturnType<typeof loadObject>>;

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
export type LoadBody = Omit<LoadDetails, 'stops' | 'terms'> & {
  locations: LoadLocationBody[];
  /** Absent: the shipper's default terms (editing: the load's own); null: no terms. */
  terms?: TermsInput | null;
};
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
  ...(body.terms === undefined ? {} : { terms: body.terms }),
  ...(body.audience === undefined
    ? {}
    : {
        audience: body.audience?.preferredOnlyHours
          ? { preferredOnlyHours: body.audience.preferredOnlyHours }
          : null,
      }),
  ...(body.bookNowPrice === undefined ? {} : { bookNowPrice: body.bookNowPrice }),
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

/** PUT loads/{id}/status: only 7 Canceled, with a message. */
export const cancelLoadBodySchema = z.object({
  status: numberFrom(z.literal(GenericStatus.Canceled, { error: CANCEL_STATUS_MESSAGE })),
  message: requiredText(CANCEL_MESSAGE_REQUIRED_MESSAGE, LOAD_TEXT_MAX.message, 'The message'),
});
export type CancelLoadBody = z.infer<typeof cancelLoadBodySchema>;
