/**
 * Carrier and shipper profile fields (specification sections 3 and 5), shared by registration,
 * the administrator's organization create, and POST users/carrier and users/shipper.
 */
import { z } from 'zod';
import {
  driverTeams,
  hasId,
  insuredAmounts,
  trailerTypes,
  truckTypes,
  type Entry,
} from '../catalog.ts';
import {
  MC_NUMBER_MESSAGE,
  DOT_NUMBER_MESSAGE,
  TRUCK_TYPE_MESSAGE,
  TRAILER_TYPE_MESSAGE,
  DRIVER_TEAM_MESSAGE,
  COUNT_MESSAGE,
  INSURED_AMOUNT_MESSAGE,
} from './messages.ts';

// Defined in messages.ts, apart from zod and luxon, for the browser's message tables.
export {
  MC_NUMBER_MESSAGE,
  DOT_NUMBER_MESSAGE,
  TRUCK_TYPE_MESSAGE,
  TRAILER_TYPE_MESSAGE,
  DRIVER_TEAM_MESSAGE,
  COUNT_MESSAGE,
  INSURED_AMOUNT_MESSAGE,
};

/**
 * A positive whole number, sent as a number or as a numeric string (a multipart `data` field is
 * often built from text inputs); every failure gives the one message.
 */
const positiveNumber = (message: string) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)], { error: message })
    .pipe(
      z
        .number({ error: message })
        .int({ error: message })
        .positive({ error: message })
        .max(99_999_999, { error: message }),
    );

export const mcNumberSchema = positiveNumber(MC_NUMBER_MESSAGE);
export const dotNumberSchema = positiveNumber(DOT_NUMBER_MESSAGE);

const vehicleCounts = (list: readonly Entry[], typeMessage: string) =>
  z
    .array(
      z.object({
        type: z
          .number({ error: typeMessage })
          .refine((id) => hasId(list, id), { error: typeMessage }),
        count: z
          .number({ error: COUNT_MESSAGE })
          .int({ error: COUNT_MESSAGE })
          .positive({ error: COUNT_MESSAGE })
          .max(100_000, { error: COUNT_MESSAGE }),
      }),
    )
    .max(list.length, { error: typeMessage })
    .default([]);

/** `[{type, count}]` with a truck type id of the catalog; absent means none. */
export const trucksSchema = vehicleCounts(truckTypes, TRUCK_TYPE_MESSAGE);
/** `[{type, count}]` with a trailer type id of the catalog; absent means none. */
export const trailersSchema = vehicleCounts(trailerTypes, TRAILER_TYPE_MESSAGE);
/** `[{type, count}]` with a driver team id of the catalog; absent means none. */
export const driverTeamsSchema = vehicleCounts(driverTeams, DRIVER_TEAM_MESSAGE);

/** Free text; empty or absent is null. */
export const eldProviderSchema = z
  .string()
  .trim()
  .max(100, { error: 'The ELD provider can have at most 100 characters' })
  .nullish()
  .transform((value) => value || null);

/** The carrier fields the registration and the profile forms share. */
export const carrierFleetShape = {
  mcNumber: mcNumberSchema,
  dotNumber: dotNumberSchema,
  trucks: trucksSchema,
  trailers: trailersSchema,
  driverTeams: driverTeamsSchema,
};

/** POST users/carrier, field `data` (the documents come as files beside it). */
export const carrierProfileBodySchema = z.object({
  ...carrierFleetShape,
  eldProvider: eldProviderSchema,
});
export type CarrierProfileBody = z.infer<typeof carrierProfileBodySchema>;

const insuredAmountByName = new Map<string, number>(
  insuredAmounts.map((entry) => [entry.name, entry.id]),
);

/**
 * 1 (under $100,000.00) or 2 (over): the id as a number or numeric string, or the option's name as
 * the form shows it ('< $100,000.00', '> $100,000.00').
 */
export const insuredAmountSchema = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .transform(
          (value) =>
            insuredAmountByName.get(value) ?? (/^\d$/.test(value) ? Number(value) : Number.NaN),
        ),
    ],
    { error: INSURED_AMOUNT_MESSAGE },
  )
  .pipe(z.literal([1, 2], { error: INSURED_AMOUNT_MESSAGE }));

/** POST users/shipper, field `data` (the signature comes as a file beside it). */
export const shipperProfileBodySchema = z.object({ insuredAmount: insuredAmountSchema });
export type ShipperProfileBody = z.infer<typeof shipperProfileBodySchema>;
