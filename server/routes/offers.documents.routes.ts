import { DEFAULT_PAYMENT_TERMS_DAYS } from '../../domain/invoices/invoice.decide.ts';
import {
  accessories,
  GenericStatus,
  loadTypes,
  locationTypes,
  statusName,
  trailerTypes,
} from '../../domain/catalog.ts';
import { agreedTerms } from '../../domain/loads/terms.ts';
import {
  LOAD_PROPOSAL_VIEW,
  PROPOSAL_CHANGE_STATUS,
  PROPOSAL_VIEW,
} from '../../domain/permissions.ts';
import {
  ContractUploadBodySchema,
  LoadIdParamsSchema as LoadParams,
  OfferIdParamsSchema as IdParams,
  offersAnswers,
} from '../../domain/contracts/offers.contract.ts';
import { NotFoundError, ValidationError } from '../../domain/shared/errors.ts';
import { organizationsById } from '../../projections/organizations/organizations.queries.ts';
import type { App } from '../http/routeContext.ts';
import { can, isSuperadmin, requireActor } from '../http/auth.ts';
import { createFileStore } from '../integrations/files/files.ts';
import { contentDisposition, readMultipart } from '../integrations/files/uploads.ts';
import {
  renderRateConfirmation,
  sha256Hex,
  type RateConfirmationParty,
} from '../integrations/pdf/rateConfirmation.ts';
import { MARKETPLACE_VIEWS } from '../../projections/marketplace/marketplace.views.ts';

/** The accepted offer's papers: the signed contract the carrier uploads, and the rate confirmation PDF. */
export function offerDocumentRoutes(app: App) {
  const { runner, marketplace, logger } = app.platform;
  const { db } = app.platform.database;
  const files = createFileStore(app.platform.database.db);

  app.post(
    '/proposal/load/:loadId',
    {
      schema: {
        tags: ['proposals'],
        summary: 'Upload the signed contract (multipart: status 14 and the file `contract`, a PDF)',
        params: LoadParams,
        consumes: ['multipart/form-data'],
        body: ContractUploadBodySchema,
        response: offersAnswers.contract,
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
        !load?.carrierOrganizationId ||
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
        const { proposalId: offerId, position } = await marketplace.uploadContract(
          { actor, requestId: request.id },
          load.loadId,
          fileId,
          now,
        );
        await runner.waitFor(MARKETPLACE_VIEWS, position);
        return {
          proposalId: offerId,
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
        response: offersAnswers.rateConfirmation,
      },
      onRequest: can(PROPOSAL_VIEW, LOAD_PROPOSAL_VIEW),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const offer = await marketplace.loadOffer(request.params.id);
      const party =
        offer &&
        (isSuperadmin(actor) ||
          offer.shipperOrganizationId === actor.organizationId ||
          offer.carrierOrganizationId === actor.organizationId);
      if (!offer || !party) throw new NotFoundError('Proposal not found');
      if (offer.status !== GenericStatus.Accepted && offer.status !== GenericStatus.Confirmed) {
        throw new NotFoundError('A rate confirmation exists once the offer is accepted');
      }
      const load = await marketplace.loadLoad(offer.loadId);
      if (!load) throw new NotFoundError('Load not found');
      const organizations = await organizationsById(db, [
        offer.shipperOrganizationId,
        offer.carrierOrganizationId,
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
      const shipperRow = organizations.find((row) => row.id === offer.shipperOrganizationId);
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
      const issuedAt = offer.updatedAt;
      const bytes = await renderRateConfirmation({
        loadGuid: load.guid,
        loadId: load.loadId,
        proposalId: offer.proposalId,
        issuedAt,
        shipper: partyOf(offer.shipperOrganizationId),
        carrier: partyOf(offer.carrierOrganizationId),
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
        price: offer.price,
        eldTruckName: offer.eldTruckName,
        accessorialTerms: load.agreedTerms ?? agreedTerms(d, offer),
        paymentTermsDays:
          (await app.platform.identity.loadOrganization(offer.shipperOrganizationId))
            ?.paymentTermsDays ?? DEFAULT_PAYMENT_TERMS_DAYS,
        shipperSignature: signature,
      });
      const sha256 = sha256Hex(bytes);
      await marketplace
        .recordRateConfirmation(
          { actor, requestId: request.id },
          offer,
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
}
