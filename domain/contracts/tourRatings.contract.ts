/** Rating a tour: each side rates the other once, per criterion, after the delivery. */
import { z } from 'zod';

export const RatingEntrySchema = z.object({
  criteria: z.number().int().min(1).max(1000),
  rating: z.number(),
});
export type RatingEntry = z.infer<typeof RatingEntrySchema>;
export const RateBody = z.object({
  ratings: z
    .array(RatingEntrySchema)
    .min(1, { error: 'Rate every criterion once' })
    .max(20, { error: 'Rate every criterion once' }),
});

/** GET /api/tours/rating/{id}: the criteria of the caller's side, its own rating and the other side's. */
export const RatingAnswerSchema = z.object({
  tourId: z.string(),
  status: z.number(),
  open: z.boolean(),
  side: z.enum(['shipper', 'carrier']),
  criteria: z.array(z.object({ id: z.number(), name: z.string() })),
  mine: z.array(RatingEntrySchema).nullable(),
  theirs: z.array(RatingEntrySchema).nullable(),
});
export type RatingAnswer = z.infer<typeof RatingAnswerSchema>;
