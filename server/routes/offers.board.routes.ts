import { sql } from 'kysely';
import { GenericStatus } from '../../domain/catalog.ts';
import {
  LOAD_PROPOSAL_VIEW,
  LOADS_PROPOSALS,
  PROPOSAL_LIST_CARRIER,
  PROPOSAL_VIEW,
  PROPOSAL_VIEW_ALL,
} from '../../domain/permissions.ts';
import {
  OffersOfLoadParamsSchema as OffersOfLoadParams,
  OfferParamsSchema as OfferParams,
  offersAnswers,
} from '../../domain/contracts/offers.contract.ts';
import { NotFoundError } from '../../domain/shared/errors.ts';
import {
  carrierOfferOn,
  loadShipper,
  offerOnLoad,
} from '../../projections/marketplace/marketplace.queries.ts';
import type { App } from '../http/routeContext.ts';
import { can, isSuperadmin, requireActor } from '../http/auth.ts';
import { TableQuery } from '../http/table.ts';
import { createOfferTables, offerRow } from './offerRows.ts';
import { createTrustReader } from '../http/loadTrust.ts';

/** The offers tables: the offers on one load, one offer, the carrier's own offers, and every offer. */
export function offerBoardRoutes(app: App) {
  const { db } = app.platform.database;
  const { ratingsOf, table } = createOfferTables(
    db,
    createTrustReader({ db, store: app.platform.store, runner: app.platform.runner }),
  );

  // `{id}` (the load's), as PUT proposal/{id} (the offer's) names it: one path, one parameter name.
  app.get(
    '/proposal/:id',
    {
      schema: {
        tags: ['proposals'],
        summary: 'The offers on one load (its shipper; a carrier sees only its own)',
        params: OffersOfLoadParams,
        querystring: TableQuery,
        response: offersAnswers.onLoad,
      },
      onRequest: can(LOADS_PROPOSALS, LOAD_PROPOSAL_VIEW),
    },
    async (request) => {
      const actor = requireActor(request);
      const { id: loadId } = request.params;
      const load = await loadShipper(db, loadId);
      if (!load) throw new NotFoundError('Load not found');
      const owner = isSuperadmin(actor) || load.shipper_organization_id === actor.organizationId;
      if (!owner) {
        const own = actor.organizationId
          ? await carrierOfferOn(db, loadId, actor.organizationId)
          : undefined;
        if (!own) throw new NotFoundError('Load not found');
      }
      if (owner && !isSuperadmin(actor)) {
        await sql`INSERT INTO proposals_seen (user_id, load_id, seen_at) VALUES (${actor.userId}, ${loadId}, now())
        ON CONFLICT (user_id, load_id) DO UPDATE SET seen_at = now()`.execute(db);
      }
      // The shipper does not see the open offers of blocked carriers; a Superadmin sees every offer.
      return table(
        request,
        actor,
        owner
          ? { loadId, hideBlockedCarriers: !isSuperadmin(actor) }
          : { loadId, carrierOrganizationId: actor.organizationId! },
        false,
        owner,
      );
    },
  );

  app.get(
    '/proposal/:loadId/proposal/:proposalId',
    {
      schema: {
        tags: ['proposals'],
        summary: 'One offer',
        params: OfferParams,
        response: offersAnswers.one,
      },
      onRequest: can(PROPOSAL_VIEW, LOAD_PROPOSAL_VIEW),
    },
    async (request) => {
      const actor = requireActor(request);
      const row = await offerOnLoad(db, request.params.loadId, request.params.proposalId);
      const hiddenFromShipper =
        row &&
        row.carrier_status === GenericStatus.Blocked &&
        (row.status === GenericStatus.SubmittedProposal ||
          row.status === GenericStatus.PendingAcceptance);
      const visible =
        row &&
        (isSuperadmin(actor) ||
          (row.shipper_organization_id === actor.organizationId && !hiddenFromShipper) ||
          row.carrier_organization_id === actor.organizationId);
      if (!row || !visible) throw new NotFoundError('Proposal not found');
      return offerRow(row, await ratingsOf([row.carrier_organization_id]), actor);
    },
  );

  app.get(
    '/proposals/carrier',
    {
      schema: {
        tags: ['proposals'],
        summary: "The carrier's own offers with their loads",
        querystring: TableQuery,
        response: offersAnswers.table,
      },
      onRequest: can(PROPOSAL_LIST_CARRIER),
    },
    async (request) => {
      const actor = requireActor(request);
      return table(
        request,
        actor,
        isSuperadmin(actor)
          ? {}
          : {
              carrierOrganizationId: actor.organizationId ?? '00000000-0000-0000-0000-000000000000',
            },
        true,
      );
    },
  );

  app.get(
    '/proposals',
    {
      schema: {
        tags: ['proposals'],
        summary: 'Every offer (Superadmin)',
        querystring: TableQuery,
        response: offersAnswers.table,
      },
      onRequest: can(PROPOSAL_VIEW_ALL),
    },
    async (request) => table(request, requireActor(request), {}, true),
  );
}
