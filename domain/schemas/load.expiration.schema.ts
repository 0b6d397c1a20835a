/** The extend-expiration body of PUT loads: a new expiration, read in the body's zone or the load's. */
import { z } from 'zod';
import { timeZoneIds, type TimeZoneId } from '../catalog.ts';
import { BUSINESS_MAX_AHEAD_MS, businessDateTooFarMessage } from './saneTime.ts';
import {
  EXPIRATION_PAST_MESSAGE,
  DATE_TIME_INVALID_MESSAGE,
  TIMEZONE_REQUIRED_MESSAGE,
  LOAD_ID_MESSAGE,
} from './messages.ts';
import { isObject, requiredTime, timeZoneSchema } from './load.fields.ts';
import { hasExplicitOffset, parseLoadTime, startOfMinute } from './load.times.ts';

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
