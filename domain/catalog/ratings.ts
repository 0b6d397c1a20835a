import type { Entry } from './lookup.ts';

/** The side being rated: carrier criteria are rated by the shipper, shipper criteria by the carrier. */
export type RatingSide = 'carrier' | 'shipper';
export type RatingCriterion = Entry & { readonly side: RatingSide; readonly ratedBy: RatingSide };

export const ratingCriteria: readonly RatingCriterion[] = [
  { id: 1, name: 'Punctuality', side: 'carrier', ratedBy: 'shipper' },
  { id: 2, name: 'Communication', side: 'carrier', ratedBy: 'shipper' },
  { id: 3, name: 'Cargo condition', side: 'carrier', ratedBy: 'shipper' },
  { id: 4, name: 'Professionalism', side: 'carrier', ratedBy: 'shipper' },
  { id: 5, name: 'Loading speed', side: 'shipper', ratedBy: 'carrier' },
  { id: 6, name: 'Communication', side: 'shipper', ratedBy: 'carrier' },
  { id: 7, name: 'Accuracy of load details', side: 'shipper', ratedBy: 'carrier' },
  { id: 8, name: 'Payment reliability', side: 'shipper', ratedBy: 'carrier' },
];

/** The criteria on which an organization of that side is rated. */
export const ratingCriteriaFor = (side: RatingSide): RatingCriterion[] =>
  ratingCriteria.filter((criterion) => criterion.side === side);

/** The criteria a rater of that side fills in (a shipper rates the carrier, and the reverse). */
export const ratingCriteriaRatedBy = (rater: RatingSide): RatingCriterion[] =>
  ratingCriteria.filter((criterion) => criterion.ratedBy === rater);
