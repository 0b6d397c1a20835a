/** Rating a tour: the shipper rates the carrier, the carrier the shipper. */
import { TourStatus, type RatingSide } from '../catalog.ts';
import {
  ConflictError,
  ForbiddenError,
  IllegalStateError,
  ValidationError,
} from '../shared/errors.ts';
import { ratingErrors } from './ratings.ts';
import type { OpenedTour, RateTour, TourActor, TourEvent } from './tour.types.ts';

/** A shipper rates the carrier and a carrier the shipper; nobody else rates. */
const raterOf = ({ party, userId }: TourActor): { side: RatingSide; userId: string } => {
  if ((party !== 'shipper' && party !== 'carrier') || userId === null) {
    throw new ForbiddenError('Only the shipper and the carrier of a tour rate it');
  }
  return { side: party, userId };
};

export const rateTour = ({ data }: RateTour, tour: OpenedTour): TourEvent[] => {
  const rater = raterOf(data.actor);
  if (tour.status !== TourStatus.Delivered)
    throw new IllegalStateError('Ratings open once the tour is delivered');
  if (tour.ratings[rater.side] !== null)
    throw new ConflictError('You have already rated this tour');
  const errors = ratingErrors(rater.side, data.ratings);
  if (errors.length > 0) throw new ValidationError(errors[0].message, errors);
  const ratings = data.ratings
    .map(({ criteria, rating }) => ({ criteria, rating }))
    .sort((a, b) => a.criteria - b.criteria);
  const ratedOrganizationId =
    rater.side === 'shipper' ? tour.carrierOrganizationId : tour.shipperOrganizationId;
  return [
    {
      type: 'TourRated',
      data: {
        tourId: tour.tourId,
        side: rater.side,
        ratedOrganizationId,
        ratings,
        ratedBy: rater.userId,
        ratedAt: data.now,
      },
    },
  ];
};
