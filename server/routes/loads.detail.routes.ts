import { GenericStatus, statusName } from '../../domain/catalog.ts';
import {
  LOAD_GET,
  LOADS_CARRIER,
  LOADS_SHIPPER,
  LOADS_PROPOSALS,
} from '../../domain/permissions.ts';
import {
  LoadIdParamsSchema as IdParams,
  loadsAnswers,
  type OfferMapMarker,
} from '../../domain/contracts/loads.contract.ts';
import { NotFoundError } from '../../domain/shared/errors.ts';
import { offersWithCarriers } from '../../projections/marketplace/marketplace.queries.ts';
import { detentionOfLoad } from '../../projections/detentionFigures/detentionFigures.queries.ts';
import { facilitiesOfLoads } from '../../projections/facilities/facilities.queries.ts';
import { payerOfShippers } from '../../projections/payerFigures/payerFigures.queries.ts';
import { audienceAnswerOf } from '../../domain/loads/load.types.ts';
import type { App } from '../http/routeContext.ts';
import { can, requireActor } from '../http/auth.ts';
import { money } from '../http/loadRows.ts';
import { createOrganizationNames } from '../http/organizationNames.ts';
import { loadAccess } from '../http/loadAccess.ts';
import { createTrustReader } from '../http/loadTrust.ts';
import { READY } from '../../domain/loads/trust.ts';

/** One load as its shipper, carrier or driver sees it, and the map of its stops and offered trucks. */
export function loadDetailRoutes(app: App) {
  const { runner, marketplace } = app.platform;
  const { db } = app.platform.database;
  const organizationNames = createOrganizationNames({
    db,
    onCommitted: (listener) => runner.onCommitted(listener),
  });
  app.addHook('onClose', async () => organizationNames.close());
  const trustReader = createTrustReader({ db, store: app.platform.store, runner });

  app.get(
    '/loads/:id',
    {
      schema: {
        tags: ['loads'],
        summary: 'One load with its stops; facility contacts only for those who may see them',
        params: IdParams,
        response: loadsAnswers.one,
      },
      onRequest: can(LOAD_GET, LOADS_SHIPPER, LOADS_CARRIER),
    },
    async (request) => {
      const actor = requireActor(request);
      const load = await marketplace.loadLoad(request.params.id);
      if (!load) throw new NotFoundError('Load not found');
      const access = await loadAccess(db, actor, load, organizationNames);
      if (!access.visible) throw new NotFoundError('Load not found');
      const d = load.details;
      // The booking's trust flags are the shipper's (and a Superadmin's) to weigh.
      const trust = access.owner
        ? ((await trustReader.ofLoads([load.loadId])).get(load.loadId) ?? READY)
        : undefined;
      const first = d.stops[0]!;
      const last = d.stops.at(-1)!;
      const detention = await detentionOfLoad(db, {
        id: load.loadId,
        shipperOrganizationId: load.shipperOrganizationId,
        pickup: first,
        delivery: last,
      });
      let facilities = await facilitiesOfLoads(db, [load.loadId]);
      if (d.stops.some((stop) => !facilities.has(stop.id))) {
        // Posted or edited a moment ago: the facilities read model catches up (bounded) first.
        await runner.waitFor(['facilities'], await app.platform.store.committedHead(), 1_000);
        facilities = await facilitiesOfLoads(db, [load.loadId]);
      }
      const payer = (await payerOfShippers(db, [load.shipperOrganizationId], new Date())).get(
        load.shipperOrganizationId,
      )!;
      return {
        id: load.loadId,
        guid: load.guid,
        status: load.status,
        statusName: load.status === GenericStatus.Paused ? 'Paused' : statusName(load.status),
        shipperOrganizationId: load.shipperOrganizationId,
        shipper: access.shipperName,
        postedAt: load.postedAt,
        updatedAt: load.updatedAt,
        pickupTimestampStart: d.pickupStart,
        pickupTimestampEnd: d.pickupEnd,
        pickupTimezone: d.pickupTimezone,
        dropOffTimestampStart: d.dropoffStart,
        dropOffTimestampEnd: d.dropoffEnd,
        dropoffTimezone: d.dropoffTimezone,
        expiration: d.expiration,
        expirationTimezone: d.expirationTimezone,
        loadTypeId: d.loadTypeId,
        rate: d.rate,
        rateTypeId: d.rateTypeId,
        carriersSortingTypeId: d.carriersSortingTypeId,
        loadAccessories: d.accessories,
        loadEquipment: d.equipment,
        description: d.description,
        weight: d.weight,
        commodity: d.commodity,
        refNumber: d.refNumber,
        locations: d.stops.map((stop) => ({
          id: stop.id,
          locationType: stop.locationType,
          address: stop.address,
          city: stop.city,
          state: stop.state,
          name: stop.name,
          latitude: stop.latitude,
          longitude: stop.longitude,
          contactName: access.contacts ? stop.contactName : null,
          contactPhone: access.contacts ? stop.contactPhone : null,
          number: access.contacts ? stop.number : null,
          facilityId: facilities.get(stop.id)?.facilityId ?? null,
          facility: facilities.get(stop.id)?.facility ?? null,
        })),
        contactsHidden: !access.contacts,
        acceptedProposalId: access.party ? load.acceptedProposalId : null,
        carrierOrganizationId: access.party ? load.carrierOrganizationId : null,
        price: access.party ? load.price : null,
        tourId: access.party ? load.tourId : null,
        contractFileId: access.party ? load.contractFileId : null,
        cancelMessage: load.cancelMessage,
        canEdit:
          access.owner &&
          (load.status === GenericStatus.Created || load.status === GenericStatus.Paused),
        ...(trust ? { trust } : {}),
        terms: d.terms ?? null,
        agreedTerms:
          access.party && load.acceptedProposalId ? (load.agreedTerms ?? d.terms ?? null) : null,
        bookNowPrice: d.bookNowPrice ?? null,
        detention,
        payer,
        audience: audienceAnswerOf(load.postedAt, d.audience, Boolean(load.openedToMarketplace)),
      };
    },
  );

  app.get(
    '/loads/:id/proposals/map',
    {
      schema: {
        tags: ['loads'],
        summary: "Map markers: the load's stops and each offer's truck",
        params: IdParams,
        response: loadsAnswers.map,
      },
      onRequest: can(LOADS_PROPOSALS, LOAD_GET),
    },
    async (request) => {
      const actor = requireActor(request);
      const load = await marketplace.loadLoad(request.params.id);
      if (!load) throw new NotFoundError('Load not found');
      const access = await loadAccess(db, actor, load, organizationNames);
      if (!access.owner) throw new NotFoundError('Load not found');
      const markers: OfferMapMarker[] = load.details.stops.map((stop) => ({
        latitude: stop.latitude,
        longitude: stop.longitude,
        type: 'specialMarker' as const,
        name: stop.name,
        address: stop.address,
        additionalInfo:
          stop.locationType === 1
            ? 'Pickup'
            : stop.locationType === 4
              ? 'Dropoff'
              : stop.locationType === 2
                ? 'Extra pickup'
                : 'Extra dropoff',
        price: null,
        contactDetails: {
          name: stop.name,
          contactName: stop.contactName,
          contactPhone: stop.contactPhone,
          notes: stop.number,
        },
      }));
      const offers = await offersWithCarriers(db, load.loadId);
      for (const offer of offers) {
        // Where the carrier's ELD service says the offered truck is now; none when the carrier shares no ELD position for it.
        const truck = await app.platform.eld.services.truckNamed(
          offer.org_id,
          offer.eld_truck_name,
        );
        if (!truck) continue;
        markers.push({
          latitude: truck.latitude,
          longitude: truck.longitude,
          type: 'truck' as const,
          name: offer.name,
          address: offer.address,
          additionalInfo: offer.eld_truck_name ?? '',
          price: money(offer.price),
          proposalId: offer.id,
          contactDetails: {
            name: offer.name,
            contactName: offer.person,
            contactPhone: offer.phone,
            notes: offer.message,
          },
        });
      }
      return markers;
    },
  );
}
