/**
 * The body of POST searches (`{name, origin?: {latitude, longitude, radius}, destination?: …,
 * equipment?: number[]}`), shared by the client's "save this search" dialog and the route. Null or
 * an empty equipment list count as absent.
 */
import { roundCoordinate } from '../shared/coordinates.ts';
import { z } from 'zod';
import { searchRadii, trailerTypes, type SearchRadius } from '../catalog.ts';
import { requiredText } from '../schemas/fields.ts';
import type { SearchArea, SearchCriteria } from './savedSearch.types.ts';
import {
  SEARCH_NAME_MESSAGE,
  SEARCH_NAME_TOO_LONG_MESSAGE,
  SEARCH_CRITERIA_MESSAGE,
  SEARCH_LOCATION_MESSAGE,
  SEARCH_RADIUS_MESSAGE,
  SEARCH_EQUIPMENT_MESSAGE,
  SEARCH_LIMIT_MESSAGE,
} from './savedSearch.messages.ts';

// Defined in savedSearch.messages.ts, apart from zod and luxon, for the browser's message tables.
export {
  SEARCH_NAME_MESSAGE,
  SEARCH_NAME_TOO_LONG_MESSAGE,
  SEARCH_CRITERIA_MESSAGE,
  SEARCH_LOCATION_MESSAGE,
  SEARCH_RADIUS_MESSAGE,
  SEARCH_EQUIPMENT_MESSAGE,
  SEARCH_LIMIT_MESSAGE,
};

/** How many searches one organization may keep. */
export const MAX_SAVED_SEARCHES = 50;
export const SEARCH_NAME_MAX_LENGTH = 100;

const coordinate = (min: number, max: number) =>
  z
    .number({ error: SEARCH_LOCATION_MESSAGE })
    .min(min, { error: SEARCH_LOCATION_MESSAGE })
    .max(max, { error: SEARCH_LOCATION_MESSAGE })
    .transform(roundCoordinate);

const areaSchema = z
  .object(
    {
      latitude: coordinate(-90, 90),
      longitude: coordinate(-180, 180),
      radius: z
        .number({ error: SEARCH_RADIUS_MESSAGE })
        .refine(
          (radius): radius is SearchRadius => (searchRadii as readonly number[]).includes(radius),
          { error: SEARCH_RADIUS_MESSAGE },
        ),
    },
    { error: SEARCH_LOCATION_MESSAGE },
  )
  // A place picked from the search has coordinates; 0, 0 is the empty form.
  .refine((area) => area.latitude !== 0 || area.longitude !== 0, {
    error: SEARCH_LOCATION_MESSAGE,
    path: ['latitude'],
  });

const equipmentIds = new Set(trailerTypes.map((type) => type.id));

export const savedSearchBodySchema = z
  .object({
    name: requiredText(SEARCH_NAME_MESSAGE).max(SEARCH_NAME_MAX_LENGTH, {
      error: SEARCH_NAME_TOO_LONG_MESSAGE,
    }),
    origin: areaSchema.nullish(),
    destination: areaSchema.nullish(),
    equipment: z
      .array(
        z
          .number({ error: SEARCH_EQUIPMENT_MESSAGE })
          .refine((id) => equipmentIds.has(id), { error: SEARCH_EQUIPMENT_MESSAGE }),
        { error: SEARCH_EQUIPMENT_MESSAGE },
      )
      .max(trailerTypes.length, { error: SEARCH_EQUIPMENT_MESSAGE })
      .nullish(),
  })
  .superRefine((body, context) => {
    if (!body.origin && !body.destination && !body.equipment?.length) {
      context.addIssue({ code: 'custom', message: SEARCH_CRITERIA_MESSAGE, path: ['origin'] });
    }
  })
  .transform(({ name, origin, destination, equipment }): { name: string } & SearchCriteria => ({
    name,
    ...(origin ? { origin: origin as SearchArea } : {}),
    ...(destination ? { destination: destination as SearchArea } : {}),
    ...(equipment?.length ? { equipment: [...new Set(equipment)].sort((a, b) => a - b) } : {}),
  }));

export type SavedSearchBody = z.infer<typeof savedSearchBodySchema>;
