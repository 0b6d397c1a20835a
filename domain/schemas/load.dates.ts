/** The date rules of a load body (specification section 5): times in route order, none in the past, none years ahead. */
import { timeZoneIds } from '../catalog.ts';
import { BUSINESS_MAX_AHEAD_MS, businessDateTooFarMessage } from './saneTime.ts';
import {
  PICKUP_START_PAST_MESSAGE,
  PICKUP_DEADLINE_MESSAGE,
  DROPOFF_BEFORE_PICKUP_MESSAGE,
  DROPOFF_DEADLINE_MESSAGE,
  EXPIRATION_AFTER_PICKUP_MESSAGE,
  EXPIRATION_PAST_MESSAGE,
  DATE_TIME_INVALID_MESSAGE,
} from './messages.ts';
import type { Issues } from './load.fields.ts';
import { parseLoadTime, startOfMinute } from './load.times.ts';

/** The load's times in route order, with the zone each is read in; the spec's field names. */
const timeFields = [
  ['pickupTimestampStart', 'pickupTimezone'],
  ['pickupTimestampEnd', 'pickupTimezone'],
  ['dropOffTimestampStart', 'dropoffTimezone'],
  ['dropOffTimestampEnd', 'dropoffTimezone'],
  ['expiration', 'expirationTimezone'],
] as const;
type TimeField = (typeof timeFields)[number][0];

/** The date rules of section 5; runs also while other fields are invalid so the form shows them all. */
export const checkLoadDates =
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
