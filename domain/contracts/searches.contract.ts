/** A carrier's saved searches (lane alerts): list, save, delete. */
import { z } from 'zod';
import { savedSearchBodySchema } from '../searches/savedSearch.schema.ts';
import { checkedInside, errorAnswers, guardedErrors, IdParamsSchema } from './common.ts';

export { IdParamsSchema as SearchIdParamsSchema };
// Checked inside with parseWith, so a missing body still names the search's name: documented here.
export const SavedSearchBodySchema = checkedInside(savedSearchBodySchema);
export type SavedSearchBody = z.input<typeof savedSearchBodySchema>;

/** An area of a search: a point and a radius in miles. */
export const SearchAreaSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  radius: z.number(),
});
export type SearchArea = z.infer<typeof SearchAreaSchema>;

/** A saved search as GET searches lists it. */
export const SavedSearchSchema = z.object({
  id: z.string(),
  name: z.string(),
  origin: SearchAreaSchema.nullable(),
  destination: SearchAreaSchema.nullable(),
  equipment: z.array(z.number().int()),
  equipmentNames: z.array(z.string()),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type SavedSearch = z.infer<typeof SavedSearchSchema>;

export const SearchSavedAnswerSchema = z.object({ id: z.string() });

export const searchesAnswers = {
  list: { 200: z.array(SavedSearchSchema), ...guardedErrors },
  save: { 201: SearchSavedAnswerSchema, ...errorAnswers(400, 409), ...guardedErrors },
  delete: {
    204: z.null().meta({ description: 'Deleted' }),
    ...errorAnswers(400, 404),
    ...guardedErrors,
  },
};
