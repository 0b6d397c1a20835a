import { sql } from 'kysely';
import { z } from 'zod';
import {
  accessories,
  GenericStatus,
  loadTypes,
  locationTypes,
  statusName,
  trailerTypes,
} from '../../domain/catalog.ts';
import { carrierProposalActions } from '../../domain/loads/loadRows.ts';
import {
  LOAD_PROPOSAL_VIEW,
  LOADS_PROPOSALS,
  OFFER_SUBMIT,
  PROPOSAL_CANCEL,
  PROPOSAL_CHANGE_STATUS,
  PROPOSAL_LIST_CARRIER,
  PROPOSAL_SUBMIT,
  PROPOSAL_VIEW,
  PROPOSAL_VIEW_ALL,
} from '../../domain/permissions.ts';
import {
  ContractUploadBodySchema,
  LoadIdParamsSchema as LoadParams,
  OfferBody,
  OffersOfLoadParamsSchema as OffersOfLoadParams,
  OfferBodySchema,
  ProposalChangeBody,
  ProposalChangeBodySchema,
  ProposalIdParamsSchema as IdParams,
  ProposalParamsSchema as ProposalParams,
  type ProposalRow,
  proposalsAnswers,
} from '../../domain/contracts/proposals.contract.ts';
import { NotFoundError, ValidationError } from '../../domain/shared/errors.ts';
import {
  carrierProposalOn,
  loadShipper,
  organizationRatings,
  PROPOSAL_ORDER,
  proposalOnLoad,
  proposalsPage,
  type ProposalScope,
} from '../../projections/marketplace/marketplace.queries.ts';
import { organizationsById } from '../../projections/organizations/organizations.queries.ts';
import type { App } from '../http/routeContext.ts';
import { can, isSuperadmin, requireActor, type Actor } from '../http/auth.ts';
import {
  actionsNamed,
  activeFilters,
  numbersOf,
  orderOf,
  pageOf,
  TableQuery,
  tableAnswer,
} from '../http/table.ts';
import { parseWith } from '../http/parseWith.ts';
import { createFileStore } from '../integrations/files/files.ts';
import { contentDisposition, readMultipart } from '../integrations/files/uploads.ts';
import {
  renderRateConfirmation,
  sha256Hex,
  type RateConfirmationParty,
} from '../integrations/pdf/rateConfirmation.ts';
import { MARKETPLACE_VIEWS } from '../../projections/marketplace/marketplace.views.ts';

export {
  OfferBody,
  PRICE_MAX,
  PRICE_MESSAGE,
  PRICE_TOO_HIGH_MESSAGE,
  ProposalChangeBody,
} from '../../domain/contracts/proposals.contract.ts';

type Row = Record<string, any>;
const money = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();

/** Offers: the carriers' bids on a load, the shipper's answers, the contract and the rate confirmation. */
export async function proposalsRoutes(app: App) {
  const { runner, marketplace, logger } = app.platform;
  const { db } = app.platform.database;
  const files = createFileStore(app.platform.database.db);

  const ratingsOf = (organizationIds: string[]) => organizationRatings(db, organizationIds);

  const proposalRow = (
    row: Row,
    ratings: Map<string, Record<string, number>>,
    actor: Actor,
  ): ProposalRow => {
    const asCarrier = row.carrier_organization_id === actor.organizationId;
    const loadOpen =
      row.load_status === GenericStatus.Created &&
      new Date(row.load_expiration).getTime() > Date.now();
    const open =
      row.status === GenericStatus.SubmittedProposal ||
      row.status === GenericStatus.PendingAcceptance;
    const asShipper =
      !asCarrier && (isSuperadmin(actor) || row.shipper_organization_id === actor.organizationId);
    return {
      id: row.id as string,
      loadId: row.load_id as string,
      loadGuid: row.load_guid as string,
      status: row.status as number,
      statusName: statusName(row.status),
      price: money(row.price),
      counterPrice: money(row.counter_price),
      message: row.message as string,
      eldTruckName: row.eld_truck_name as string | null,
      submittedAt: iso(row.submitted_at),
      updatedAt: iso(row.updated_at),
      carrier: {
        id: row.carrier_organization_id as string,
        name: row.carrier_name as string,
        ratings: ratings.get(row.carrier_organization_id) ?? {},
      },
      tourId: row.tour_id as string | null,
      contractFileId: row.contract_file_id as string | null,
      load:
        row.pickup_address === undefined
          ? undefined
          : {
              guid: row.load_guid,
              status: row.load_status,
              statusName: statusName(row.load_status),
              pickup: {
                address: row.pickup_address,
                city: row.pickup_city,
                state: row.pickup_state,
                time: iso(row.pickup_start),
                timezone: row.pickup_timezone,
              },
              dropoff: {
                address: row.dropoff_address,
                city: row.dropoff_city,
                state: row.dropoff_state,
                time: iso(row.dropoff_start),
                timezone: row.dropoff_timezone,
              },
              weight: Number(row.weight),
              commodity: row.commodity,
              expiration: iso(row.load_expiration),
            },
      actions: asCarrier ? carrierProposalActions(row.status, loadOpen) : [1],
      /** What the load's shipper may answer now. */
      canAccept: asShipper && loadOpen && row.status === GenericStatus.SubmittedProposal,
      canCounter: asShipper && loadOpen && row.status === GenericStatus.SubmittedProposal,
      canDecline: asShipper && open,
    };
  };

  const table = async (
    request: { query: TableQuery },
    actor: Actor,
    scope: ProposalScope,
    withLoad: boolean,
  ) => {
    const query = request.query;
    const filters = activeFilters(query);
    const statuses = numbersOf(filters.get('status'), [5, 7, 10, 11, 12, 14], 'status');
    const order = orderOf(query, PROPOSAL_ORDER, 'p.submitted_at');
    const { total, rows } = await proposalsPage(
      db,
      scope,
      { statuses, withLoad },
      pageOf(query, order),
    );
    const ratings = await ratingsOf([...new Set(rows.map((row) => row.carrier_organization_id))]);
    return tableAnswer(
      query,
      total,
      rows.map((row) => proposalRow(row, ratings, actor)),
      actionsNamed([1, 5, 10, 15]),
    );
  };

  // `{id}` (the load's), as PUT proposal/{id} (the offer's) names it: one path, one parameter name.
  app.get(
    '/proposal/:id',
    {
      schema: {
        tags: ['proposals'],
        summary: 'The offers on one load (its shipper; a carrier sees only its own)',
        params: OffersOfLoadParams,
        querystring: TableQuery,
        response: proposalsAnswers.onLoad,
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
          ? await carrierProposalOn(db, loadId, actor.organizationId)
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
      );
    },
  );

  app.get(
    '/proposal/:loadId/proposal/:proposalId',
    {
      schema: {
        tags: ['proposals'],
        summary: 'One offer',
        params: ProposalParams,
        response: proposalsAnswers.one,
      },
      onRequest: can(PROPOSAL_VIEW, LOAD_PROPOSAL_VIEW),
    },
    async (request) => {
      const actor = requireActor(request);
      const row = await proposalOnLoad(db, request.params.loadId, request.params.proposalId);
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
      return proposalRow(row, await ratingsOf([row.carrier_organization_id]), actor);
    },
  );

  app.post(
    '/proposal/:id',
    {
      schema: {
        tags: ['proposals'],
        summary: 'Make an offer on a load; a second offer by the same carrier revises it',
        params: OffersOfLoadParams,
        body: OfferBodySchema,
        response: proposalsAnswers.submit,
      },
      onRequest: can(OFFER_SUBMIT, PROPOSAL_SUBMIT),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const now = new Date().toISOString();
      const offer = parseWith(OfferBody, request.body);
      const { id, revised, position } = await marketplace.submitProposal(
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

  app.put(
    '/proposal/:id',
    {
      schema: {
        tags: ['proposals'],
        summary:
          'Answer an offer: 5 accept, 12 decline, 11 counter (with price), 10 accept counter, 7 withdraw',
        params: IdParams,
        body: ProposalChangeBodySchema,
        response: proposalsAnswers.change,
      },
      onRequest: can(PROPOSAL_CHANGE_STATUS, PROPOSAL_CANCEL),
    },
    async (request) => {
      const actor = requireActor(request);
      const now = new Date().toISOString();
      const change = parseWith(ProposalChangeBody, request.body);
      const position = await marketplace.changeProposal(
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

  app.post(
    '/proposal/load/:loadId',
    {
      schema: {
        tags: ['proposals'],
        summary: 'Upload the signed contract (multipart: status 14 and the file `contract`, a PDF)',
        params: LoadParams,
        consumes: ['multipart/form-data'],
        body: ContractUploadBodySchema,
        response: proposalsAnswers.contract,
      },
      onRequest: can(PROPOSAL_CHANGE_STATUS),
    },
    async (request) => {
      const actor = requireActor(request);
      const {
        fields,
        files: uploaded,
        data,
      } = await readMultipart(request, { files: { contract: { required: true, accept: 'pdf' } } });
      const status = Number(fields.status ?? (data as { status?: unknown } | undefined)?.status);
      if (status !== GenericStatus.Confirmed)
        throw ValidationError.field(
          'status',
          'status must be 14 (Confirmed) to upload the signed contract',
        );
      const load = await marketplace.loadLoad(request.params.loadId);
      if (
        !load ||
        !load.carrierOrganizationId ||
        (!isSuperadmin(actor) && load.carrierOrganizationId !== actor.organizationId)
      )
        throw new NotFoundError('Load not found');
      const contract = uploaded.contract!;
      const fileId = await files.save({
        organizationId: load.carrierOrganizationId,
        kind: 'contract',
        loadId: load.loadId,
        mime: contract.mime,
        data: contract.buffer,
      });
      try {
        const now = new Date().toISOString();
        const { proposalId, position } = await marketplace.uploadContract(
          { actor, requestId: request.id },
          load.loadId,
          fileId,
          now,
        );
        await runner.waitFor(MARKETPLACE_VIEWS, position);
        return {
          proposalId,
          status: GenericStatus.Confirmed,
          statusName: statusName(GenericStatus.Confirmed),
          contractFileId: fileId,
        };
      } catch (error) {
        await files.delete(fileId);
        throw error;
      }
    },
  );

  app.get(
    '/proposal/:id/rate-confirmation',
    {
      schema: {
        tags: ['proposals'],
        summary: 'The rate confirmation PDF of an accepted offer, for the carrier to sign',
        params: IdParams,
        response: proposalsAnswers.rateConfirmation,
      },
      onRequest: can(PROPOSAL_VIEW, LOAD_PROPOSAL_VIEW),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const proposal = await marketplace.loadProposal(request.params.id);
      const party =
        proposal &&
        (isSuperadmin(actor) ||
          proposal.shipperOrganizationId === actor.organizationId ||
          proposal.carrierOrganizationId === actor.organizationId);
      if (!proposal || !party) throw new NotFoundError('Proposal not found');
      if (
        proposal.status !== GenericStatus.Accepted &&
        proposal.status !== GenericStatus.Confirmed
      ) {
        throw new NotFoundError('A rate confirmation exists once the offer is accepted');
      }
      const load = await marketplace.loadLoad(proposal.loadId);
      if (!load) throw new NotFoundError('Load not found');
      const organizations = await organizationsById(db, [
        proposal.shipperOrganizationId,
        proposal.carrierOrganizationId,
      ]);
      const partyOf = (id: string): RateConfirmationParty => {
        const o = organizations.find((row) => row.id === id);
        return {
          name: o?.name ?? '',
          address: o?.address ?? '',
          person: o?.person ?? '',
          email: o?.email ?? '',
          phone: o?.phone ?? '',
          mcNumber:
            o?.mc_number === null || o?.mc_number === undefined ? null : Number(o.mc_number),
          dotNumber:
            o?.dot_number === null || o?.dot_number === undefined ? null : Number(o.dot_number),
        };
      };
      const shipperRow = organizations.find((row) => row.id === proposal.shipperOrganizationId);
      let signature = null;
      if (shipperRow?.signature_file_id) {
        const file = await files.get(shipperRow.signature_file_id);
        if (file && (file.mime === 'image/png' || file.mime === 'image/jpeg'))
          signature = {
            bytes: new Uint8Array(file.data),
            mimeType: file.mime as 'image/png' | 'image/jpeg',
          };
      }
      const d = load.details;
      const issuedAt = proposal.updatedAt;
      const bytes = await renderRateConfirmation({
        loadGuid: load.guid,
        loadId: load.loadId,
        proposalId: proposal.proposalId,
        issuedAt,
        shipper: partyOf(proposal.shipperOrganizationId),
        carrier: partyOf(proposal.carrierOrganizationId),
        stops: d.stops.map((stop) => {
          const pickupSide = stop.locationType === 1 || stop.locationType === 2;
          return {
            locationType: stop.locationType,
            typeName: locationTypes.find((type) => type.id === stop.locationType)?.name ?? '',
            name: stop.name,
            address: stop.address,
            contactName: stop.contactName,
            contactPhone: stop.contactPhone,
            number: stop.number,
            windowStart: pickupSide ? d.pickupStart : d.dropoffStart,
            windowEnd: pickupSide ? d.pickupEnd : d.dropoffEnd,
            timezone: pickupSide ? d.pickupTimezone : d.dropoffTimezone,
          };
        }),
        equipment: d.equipment.map(
          (id) => trailerTypes.find((type) => type.id === id)?.name ?? String(id),
        ),
        accessories: d.accessories.map(
          (id) => accessories.find((entry) => entry.id === id)?.name ?? String(id),
        ),
        loadType: loadTypes.find((type) => type.id === d.loadTypeId)?.name ?? '',
        weight: d.weight,
        commodity: d.commodity,
        refNumber: d.refNumber,
        description: d.description,
        price: proposal.price,
        eldTruckName: proposal.eldTruckName,
        shipperSignature: signature,
      });
      const sha256 = sha256Hex(bytes);
      await marketplace
        .recordRateConfirmation(
          { actor, requestId: request.id },
          proposal,
          sha256,
          bytes.length,
          new Date().toISOString(),
        )
        .catch((error: unknown) =>
          logger.warn({ err: error }, 'could not record the rate confirmation'),
        );
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition(`rate-confirmation-${load.guid}.pdf`))
        .header('x-content-sha256', sha256)
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(bytes));
    },
  );

  app.get(
    '/proposals/carrier',
    {
      schema: {
        tags: ['proposals'],
        summary: "The carrier's own offers with their loads",
        querystring: TableQuery,
        response: proposalsAnswers.table,
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
        response: proposalsAnswers.table,
      },
      onRequest: can(PROPOSAL_VIEW_ALL),
    },
    async (request) => table(request, requireActor(request), {}, true),
  );
}
