/**
 * Market insight from the agreed prices of accepted offers: the typical price of a lane
 * (GET insights/lanes) and the busiest lanes with their price per mile over time (GET insights/lanes/top).
 */
import { roundCoordinate } from '../shared/coordinates.ts';
import { z } from 'zod';
import { trailerTypes } from '../catalog.ts';
import { LOAD_EQUIPMENT_INVALID_MESSAGE } from '../schemas/messages.ts';
import { errorAnswers, guardedErrors } from './common.ts';

const POINT = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;

/** `<latitude>,<longitude>` in decimal degrees, e.g. `41.88,-87.63`. */
export const parsePoint = (text: string): { latitude: number; longitude: number } | null => {
  const match = POINT.exec(text);
  if (!match) return null;
  const latitude = Number(match[1]);
  const longitude = Number(match[2]);
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { latitude: roundCoordinate(latitude), longitude: roundCoordinate(longitude) };
};

const pointField = (field: string) =>
  z
    .string({ error: `${field} is required, as <latitude>,<longitude>` })
    .max(60, `${field} is <latitude>,<longitude>`)
    .refine((text) => parsePoint(text) !== null, {
      error: `${field} is <latitude>,<longitude>, latitude between -90 and 90 and longitude between -180 and 180`,
    });

const monthsField = z.coerce
  .number({ error: 'months must be a whole number from 1 to 24' })
  .int('months must be a whole number from 1 to 24')
  .min(1, 'months must be a whole number from 1 to 24')
  .max(24, 'months must be a whole number from 1 to 24')
  .default(12);

export const LaneQuerySchema = z.object({
  origin: pointField('origin'),
  destination: pointField('destination'),
  radius: z.coerce
    .number({ error: 'radius is in miles, from 1 to 500' })
    .min(1, 'radius is in miles, from 1 to 500')
    .max(500, 'radius is in miles, from 1 to 500')
    .default(100),
  equipment: z.coerce
    .number({ error: LOAD_EQUIPMENT_INVALID_MESSAGE })
    .int(LOAD_EQUIPMENT_INVALID_MESSAGE)
    .refine((id) => trailerTypes.some((type) => type.id === id), {
      error: LOAD_EQUIPMENT_INVALID_MESSAGE,
    })
    .optional(),
  months: monthsField,
});
export type LaneQuery = z.input<typeof LaneQuerySchema>;

export const TopLanesQuerySchema = z.object({
  months: monthsField,
  limit: z.coerce
    .number({ error: 'limit must be a whole number from 1 to 20' })
    .int('limit must be a whole number from 1 to 20')
    .min(1, 'limit must be a whole number from 1 to 20')
    .max(20, 'limit must be a whole number from 1 to 20')
    .default(8),
});

/** p25, median and p75 (interpolated), prices to the nearest $25 and per mile to the nearest $0.05; all null below five agreed prices. */
const BandSchema = z.object({
  p25: z.number().nullable(),
  median: z.number().nullable(),
  p75: z.number().nullable(),
});

export const LaneRatesSchema = z.object({
  count: z.number().int(),
  price: BandSchema,
  perMile: BandSchema,
  /** Every month of the window, oldest first; `median` (to the nearest $25) null below five agreed prices that month. */
  series: z.array(
    z.object({ month: z.string(), count: z.number().int(), median: z.number().nullable() }),
  ),
});
export type LaneRates = z.infer<typeof LaneRatesSchema>;

const LaneEndSchema = z.object({
  city: z.string().nullable(),
  state: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
});

export const TopLaneSchema = z.object({
  origin: LaneEndSchema,
  destination: LaneEndSchema,
  count: z.number().int(),
  medianPrice: z.number().nullable(),
  medianPerMile: z.number().nullable(),
  /** Every month of the window, oldest first; `medianPerMile` (to the nearest $0.05) null below five agreed prices that month. */
  series: z.array(
    z.object({ month: z.string(), count: z.number().int(), medianPerMile: z.number().nullable() }),
  ),
});
export type TopLane = z.infer<typeof TopLaneSchema>;

export const TopLanesSchema = z.object({
  months: z.array(z.string()),
  lanes: z.array(TopLaneSchema),
});
export type TopLanes = z.infer<typeof TopLanesSchema>;

export const laneRatesAnswers = {
  lanes: { 200: LaneRatesSchema, ...errorAnswers(400), ...guardedErrors },
  top: { 200: TopLanesSchema, ...errorAnswers(400), ...guardedErrors },
};
