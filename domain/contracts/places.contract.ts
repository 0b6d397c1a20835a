/** Place search for the stop editor and the maps: towns and ZIP codes of the US. */
import { z } from 'zod';
import { errorAnswers, guardedErrors } from './common.ts';

export const AutocompleteQuerySchema = z.object({
  q: z.string().trim().max(200, 'q is at most 200 characters').default(''),
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit is at least 1')
    .max(25, 'limit is at most 25')
    .default(10),
});
export const ReverseQuerySchema = z.object({
  latitude: z.coerce
    .number()
    .min(-90, 'latitude is between -90 and 90')
    .max(90, 'latitude is between -90 and 90'),
  longitude: z.coerce
    .number()
    .min(-180, 'longitude is between -180 and 180')
    .max(180, 'longitude is between -180 and 180'),
});

/** A place: a town or a ZIP code with its centroid. */
export const PlaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  city: z.string(),
  state: z.string(),
  zip: z.string().nullable(),
});
export type Place = z.infer<typeof PlaceSchema>;

export const placesAnswers = {
  autocomplete: { 200: z.array(PlaceSchema), ...errorAnswers(400), ...guardedErrors },
  reverse: { 200: PlaceSchema, ...errorAnswers(400, 404), ...guardedErrors },
};
