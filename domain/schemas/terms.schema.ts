/**
 * The `terms` of POST/PUT loads, of an offer and a counter-offer, and the `defaultTerms` of a
 * shipper organization (docs/api.md "Accessorial terms and claims"). Every field is optional (a
 * missing one comes from the defaults); a wrong one is refused under its name (`terms.tonu`).
 */
import { z } from 'zod';
import type { TermsInput } from '../loads/terms.ts';

export const TERMS_AMOUNT_MAX = 100_000;

const amount = (label: string) =>
  z
    .number({ error: `${label} must be a number of dollars` })
    .min(0, { error: `${label} cannot be negative` })
    .max(TERMS_AMOUNT_MAX, { error: `${label} can be at most $100,000` })
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
      error: `${label} has at most 2 decimals`,
    })
    .transform((value) => Math.round(value * 100) / 100);

const hours = (label: string) =>
  z
    .number({ error: `${label} must be a number of hours` })
    .min(0, { error: `${label} cannot be negative` })
    .max(72, { error: `${label} can be at most 72 hours` });

const wholeNumber = (label: string, unit: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a number of ${unit}` })
    .int({ error: `${label} must be a whole number of ${unit}` })
    .min(min, { error: `${label} must be at least ${min} ${unit}` })
    .max(max, { error: `${label} can be at most ${max} ${unit}` });

export const termsInputSchema = z.object(
  {
    freeTimeHours: z
      .object(
        {
          pickup: hours('The free time at pickup').optional(),
          delivery: hours('The free time at delivery').optional(),
        },
        { error: 'freeTimeHours is {pickup, delivery} in hours' },
      )
      .optional(),
    detentionPerHour: amount('The detention rate').optional(),
    detentionCap: amount('The detention cap').nullable().optional(),
    tonu: amount('The TONU amount').optional(),
    layoverPerDay: amount('The layover rate').optional(),
    lumper: z
      .enum(['shipper', 'carrier-reimbursed'], {
        error: "lumper is 'shipper' or 'carrier-reimbursed'",
      })
      .optional(),
    graceMinutes: wholeNumber('The grace', 'minutes', 0, 240).optional(),
    disputeWindowHours: wholeNumber('The dispute window', 'hours', 1, 720).optional(),
  },
  { error: 'terms must be an object' },
) satisfies z.ZodType<TermsInput, unknown>;

/** `terms`: absent (the defaults or the terms already agreed), null (no terms) or the terms asked for. */
export const optionalTermsSchema = termsInputSchema.nullable().optional();
