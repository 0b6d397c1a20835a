import { ratingCriteriaRatedBy, TourStatus } from '../../domain/catalog.ts';
import { TOUR_GET_RATING_CRITERIA, TOUR_RATE } from '../../domain/permissions.ts';
import type { OpenedTour } from '../../domain/tours/tour.types.ts';
import { toursContract } from '../../domain/contracts/tours.contract.ts';
import type { App } from '../http/routeContext.ts';
import { can, requireActor, type Actor } from '../http/auth.ts';
import { MARKETPLACE_VIEWS } from '../../projections/marketplace/marketplace.views.ts';

/** Rating a tour: the rating form's facts, and the rating itself. */
export function tourRatingRoutes(app: App) {
  const { runner, marketplace } = app.platform;
  const visibleTour = async (actor: Actor, tourId: string): Promise<OpenedTour> =>
    marketplace.visibleTour(actor, tourId);

  app.get(
    '/tours/rating/:id',
    {
      schema: {
        tags: ['tours'],
        summary:
          "A tour's rating criteria for the caller's side, its own rating and the other side's",
        ...toursContract.rating,
      },
      onRequest: can(TOUR_GET_RATING_CRITERIA),
    },
    async (request) => {
      const actor = requireActor(request);
      const tour = await visibleTour(actor, request.params.id);
      const side =
        actor.organizationId === tour.carrierOrganizationId
          ? ('carrier' as const)
          : ('shipper' as const);
      const other = side === 'carrier' ? 'shipper' : 'carrier';
      return {
        tourId: tour.tourId,
        status: tour.status,
        open: tour.status === TourStatus.Delivered,
        side,
        criteria: ratingCriteriaRatedBy(side).map(({ id, name }) => ({ id, name })),
        mine: tour.ratings[side],
        theirs: tour.ratings[other],
      };
    },
  );

  app.post(
    '/tours/:id/rate',
    {
      schema: {
        tags: ['tours'],
        summary: 'Rate the other side of a delivered tour, once',
        ...toursContract.rate,
      },
      onRequest: can(TOUR_RATE),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const { ratings } = request.body;
      const position = await marketplace.rateTour(
        { actor, requestId: request.id },
        request.params.id,
        ratings,
        new Date().toISOString(),
      );
      await runner.waitFor(MARKETPLACE_VIEWS, position);
      return reply.code(201).send({ message: 'Thank you for your rating' });
    },
  );
}
