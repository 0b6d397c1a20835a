/**
 * Rating rules shared by the tour decider, the routes and the client (docs/domain.md "Ratings"): which
 * criteria a side fills in, the 0.5 to 5 scale in half steps, and an organization's averages.
 */
import { limits, ratingCriteria, ratingCriteriaRatedBy, type RatingSide } from '../catalog.ts';
import type { FieldError } from '../shared/errors.ts';
import type { RatingEntry } from './tour.types.ts';

export const RATING_VALUE_MESSAGE = 'Ratings go from 0.5 to 5 in steps of 0.5';
export const RATING_SET_MESSAGE = 'Rate every criterion once';

/** 0.5, 1, 1.5 … 5. */
export const isRatingValue = (value: unknown): value is number =>
  typeof value === 'number' &&
  Number.isFinite(value) &&
  value >= limits.ratingMin &&
  value <= limits.ratingMax &&
  Number.isInteger(value / limits.ratingStep);

/**
 * What is wrong with the ratings a rater of that side sends: each value on the scale (path
 * `ratings.<index>.rating`) and exactly the side's criteria, each once (path `ratings`). Empty
 * when they are fine.
 */
export const ratingErrors = (rater: RatingSide, ratings: readonly RatingEntry[]): FieldError[] => {
  const errors: FieldError[] = [];
  const expected = ratingCriteriaRatedBy(rater)
    .map((criterion) => criterion.id)
    .sort((a, b) => a - b);
  const sent = ratings.map((entry) => entry.criteria).sort((a, b) => a - b);
  if (sent.length !== expected.length || sent.some((id, index) => id !== expected[index])) {
    errors.push({ path: 'ratings', message: RATING_SET_MESSAGE });
  }
  ratings.forEach((entry, index) => {
    if (!isRatingValue(entry.rating))
      errors.push({ path: `ratings.${index}.rating`, message: RATING_VALUE_MESSAGE });
  });
  return errors;
};

const roundTo = (value: number, decimals: number) => {
  const factor = 10 ** decimals;
  return Math.round((value + Number.EPSILON) * factor) / factor;
};

/**
 * An organization's ratings: criterion name to the mean of that criterion over all its rated tours,
 * rounded to two decimals, in the catalog's order; `{}` when it has none. Criteria are keyed by
 * name as the profile's `ratings` map is; an organization is rated on one side's criteria only, so
 * the name 'Communication', which both sides have, does not mix the two. Unknown ids are ignored.
 */
export const averageRatings = (
  tourRatings: readonly (readonly RatingEntry[])[],
): Record<string, number> => {
  const sums = new Map<string, { total: number; count: number }>();
  for (const criterion of ratingCriteria) {
    for (const entries of tourRatings) {
      for (const entry of entries) {
        if (entry.criteria !== criterion.id) continue;
        const sum = sums.get(criterion.name) ?? { total: 0, count: 0 };
        sums.set(criterion.name, { total: sum.total + entry.rating, count: sum.count + 1 });
      }
    }
  }
  return Object.fromEntries(
    [...sums].map(([name, { total, count }]) => [
      name,
      roundTo(total / count, limits.ratingDecimals),
    ]),
  );
};

/** One tour's ratings as the name-to-value map the screens show. */
export const ratingsMap = (entries: readonly RatingEntry[]): Record<string, number> =>
  averageRatings([entries]);
