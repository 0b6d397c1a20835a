import { statusName } from '../../domain/catalog.ts';
import {
  OFFER_SUBMIT,
  PROPOSAL_CANCEL,
  PROPOSAL_CHANGE_STATUS,
  PROPOSAL_SUBMIT,
} from '../../domain/permissions.ts';
import {
  BookNowBody,
  BookNowBodySchema,
  OfferBody,
  OffersOfLoadParamsSchema as OffersOfLoadParams,
  OfferBodySchema,
  OfferChangeBody,
  OfferChangeBodySchema,
  OfferIdParamsSchema as IdParams,
  OffersOfLoadParamsSchema as LoadParams,
  offersAnswers,
} from '../../domain/contracts/offers.contract.ts';
import type { App } from '../http/routeContext.ts';
import { can, requireActor } from '../http/auth.ts';
import { parseWith } from '../http/parseWith.ts';
import { MARKETPLACE_VIEWS } from '../../projections/marketplace/marketplace.views.ts';

/** Making an offer (or revising it) and the shipper's answers: accept, counter, decline, withdraw. */
export function offerCommandRoutes(app: App) {
  const { runner, marketplace } = app.platform;

  app.post(
    '/proposal/:id',
    {
      schema: {
        tags: ['proposals'],
        summary: 'Make an offer on a load; a second offer by the same carrier revises it',
        params: OffersOfLoadParams,
        body: OfferBodySchema,
        response: offersAnswers.submit,
      },
      onRequest: can(OFFER_SUBMIT, PROPOSAL_SUBMIT),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const now = new Date().toISOString();
      const offer = parseWith(OfferBody, request.body);
      const { id, revised, position } = await marketplace.submitOffer(
        { actor, requestId: request.id },
        request.params.id,
        offer,
        now,
      );
      await runner.waitFor(MARKETPLACE_VIEWS, position);
      return reply
        .code(revised ? 200 : 201)
        .send({ id, message: revised ? 'Offer revised' : 'Offer submitted' });
    },
  );

  app.post(
    '/loads/:id/book',
    {
      schema: {
        tags: ['proposals'],
        summary:
          'Book a load at its Book Now price: an accepted offer at that price, with its tour (409 to a second booking)',
        params: LoadParams,
        body: BookNowBodySchema,
        response: offersAnswers.book,
      },
      onRequest: can(OFFER_SUBMIT, PROPOSAL_SUBMIT),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const now = new Date().toISOString();
      parseWith(BookNowBody, request.body ?? {});
      const { proposalId, tourId, position } = await marketplace.bookNow(
        { actor, requestId: request.id },
        request.params.id,
        now,
      );
      await runner.waitFor(MARKETPLACE_VIEWS, position);
      return reply.code(201).send({ proposalId, tourId });
    },
  );

  app.put(
    '/proposal/:id',
    {
      schema: {
        tags: ['proposals'],
        summary:
          'Answer an offer: 5 accept, 12 decline, 11 counter (with price), 10 accept counter, 7 withdraw',
        params: IdParams,
        body: OfferChangeBodySchema,
        response: offersAnswers.change,
      },
      onRequest: can(PROPOSAL_CHANGE_STATUS, PROPOSAL_CANCEL),
    },
    async (request) => {
      const actor = requireActor(request);
      const now = new Date().toISOString();
      const change = parseWith(OfferChangeBody, request.body);
      const position = await marketplace.changeOffer(
        { actor, requestId: request.id },
        request.params.id,
        change,
        now,
      );
      await runner.waitFor(MARKETPLACE_VIEWS, position);
      return {
        id: request.params.id,
        status: change.status,
        statusName: statusName(change.status),
      };
    },
  );
}
