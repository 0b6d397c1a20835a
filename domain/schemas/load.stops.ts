/** A load's stops: each stop's fields, and their order (a pickup first, a dropoff last). */
import { z } from 'zod';
import { limits, LocationType } from '../catalog.ts';
import { requiredText, textTooLongMessage } from './fields.ts';
import { optionalPhoneSchema } from './phone.ts';
import {
  LOCATION_REQUIRED_MESSAGE,
  LOCATION_NOT_PICKED_MESSAGE,
  FACILITY_NAME_REQUIRED_MESSAGE,
  FACILITY_NAME_TOO_SHORT_MESSAGE,
  LOCATION_TYPE_MESSAGE,
  LOCATION_ORDER_MESSAGE,
  SAVED_LOCATION_MESSAGE,
  SAVE_LOCATION_MESSAGE,
  CONTACT_NAME_MESSAGE,
  LOCATION_NUMBER_MESSAGE,
} from './messages.ts';
import {
  coordinate,
  isArray,
  isObject,
  LOAD_STOPS_MAX,
  LOAD_TEXT_MAX,
  numberFrom,
  optionalText,
  STOPS_TOO_MANY_MESSAGE,
} from './load.fields.ts';

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

export const locationsSchema = (id: z.ZodType<string | null, unknown>) =>
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
