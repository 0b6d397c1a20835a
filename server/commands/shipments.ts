/**
 * The steps that span a shipment's aggregates: cancelling a load, accepting an offer, the carrier's
 * contract and the delivery. Each first records the decisive event on the load stream, whose
 * expected revision makes it the single point of agreement, then carries the follow-ups to the
 * offers and the tour. This module writes nothing itself: each stream is written by its own area.
 */
import type { ClaimCommands } from './claims.ts';
import { tourActorOf } from './streams.ts';
import { agreedTerms, type TermsInput } from '../../domain/loads/terms.ts';
import { randomUUID } from 'node:crypto';
import { GenericStatus, TourStatus } from '../../domain/catalog.ts';
import type { TourStatusId } from '../../domain/catalog.ts';
import { ForbiddenError, NotFoundError } from '../../domain/shared/errors.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { latest } from '../eventstore/eventStore.ts';
import type { Caller } from './caller.ts';
import type { LoadCommands } from './loads.ts';
import type { OfferCommands } from './offers.ts';
import { byOf, type StreamReaders } from './streams.ts';
import { offerIdFor } from '../../domain/offers/offer.decide.ts';
import type { TourCommands } from './tours.ts';

export function createShipmentSteps(deps: {
  readers: StreamReaders;
  loads: LoadCommands;
  offers: OfferCommands;
  tours: TourCommands;
  claims: ClaimCommands;
}) {
  const { readers, loads, offers, tours, claims } = deps;
  const { loadLoad, loadTour, ownLoad, requireActiveOrganization, marketplaceReach } = readers;

  /**
   * Carries a recorded acceptance (LoadProposalAccepted on the load stream) to the offer, the
   * other offers and the tour. Idempotent: each step is taken only if it is still missing, so it
   * also repairs a shipment whose follow-ups were cut short by a crash (run by the scheduler).
   */
  const completeAcceptance = async (
    loadId: string,
    caller: Caller | null,
    now: string,
  ): Promise<LogPosition | null> => {
    const load = await loadLoad(loadId);
    if (!load?.acceptedProposalId || !load.tourId || load.status === GenericStatus.Canceled)
      return null;
    const offerId = load.acceptedProposalId;
    const tourId = load.tourId;
    // A Book Now booking: the carrier's offer at the booked price, accepted (once) before the rest.
    const booked =
      load.bookedBy && load.carrierOrganizationId && load.price !== null
        ? await offers.book(
            caller,
            {
              proposalId: offerId,
              loadId,
              loadGuid: load.guid,
              shipperOrganizationId: load.shipperOrganizationId,
              carrierOrganizationId: load.carrierOrganizationId,
              userId: load.bookedBy,
              price: load.price,
              tourId,
            },
            now,
          )
        : null;
    const accepted = await offers.accept(
      offerId,
      loadId,
      caller?.actor.userId ?? load.postedBy,
      tourId,
      caller,
      now,
    );
    let last = latest(booked, accepted.position);
    last = latest(
      last,
      await offers.declineOthers(
        loadId,
        offerId,
        'otherAccepted',
        'Another offer was accepted',
        caller,
        now,
      ),
    );
    if (accepted.offer)
      last = latest(last, await tours.openForAcceptance(load, accepted.offer, tourId, caller, now));
    return last;
  };

  return {
    completeAcceptance,

    async cancelLoad(caller: Caller, loadId: string, message: string, now: string) {
      const load = await ownLoad(caller.actor, loadId);
      const tour = load.tourId ? await loadTour(load.tourId) : null;
      let last = (await loads.cancel(caller, loadId, message, tour?.status ?? null, now)).position;
      last = latest(
        last,
        await offers.declineOthers(loadId, null, 'loadCanceled', message, caller, now),
      );
      if (tour) {
        last = latest(last, await tours.cancelForLoad(tour, caller, message, now));
        // A truck the carrier had committed: its TONU, claimed with the cancellation.
        const tonu = await claims.claimAtCancellation(
          tour.tourId,
          tour.status,
          tourActorOf(caller.actor).party,
          now,
        );
        last = latest(last, tonu.position);
      }
      return last;
    },

    /** PUT proposal/{id}: 5 accept, 12 decline, 11 counter, 10 accept counter, 7 withdraw. */
    async changeOffer(
      caller: Caller,
      offerId: string,
      change: {
        status: number;
        message: string;
        price: number | null;
        terms?: TermsInput | undefined;
      },
      now: string,
    ) {
      if (change.status !== GenericStatus.Accepted)
        return offers.answer(caller, offerId, change, now);
      const { actor } = caller;
      const { offer, by, asShipper, load } = await offers.answerable(actor, offerId, now);
      if (!asShipper) throw new ForbiddenError('Only the shipper can do this');
      offers.refuseAcceptanceIfClosed(offer, by, actor.userId, now);
      const tourId = randomUUID();
      // The load stream decides who wins: a second, concurrent accept fails its expected revision and is refused.
      const accepted = await loads.acceptOffer(
        caller,
        { loadId: offer.loadId, by },
        { ...offer, terms: agreedTerms(load.details, offer) },
        tourId,
        now,
      );
      return latest(accepted.position, await completeAcceptance(offer.loadId, caller, now));
    },

    /**
     * POST loads/{id}/book: an Active carrier books the load at its Book Now price. The load stream
     * decides, as for an acceptance; the offer, the other offers' declines and the tour follow.
     */
    async bookNow(caller: Caller, loadId: string, now: string) {
      const { actor } = caller;
      await requireActiveOrganization(actor);
      if (!actor.organizationId) throw new ForbiddenError('Only a carrier can book a load');
      const load = await loadLoad(loadId);
      if (!load) throw new NotFoundError('Load not found');
      if (load.shipperOrganizationId === actor.organizationId)
        throw new ForbiddenError('You cannot book your own load');
      const offerId = offerIdFor(loadId, actor.organizationId);
      // Off the marketplace (closed, or its shipper blocked) it is not found, except by a carrier who
      // was just beaten to it: while the load is Accepted (taken, contract not yet signed), or when
      // the carrier has an offer on it, the load stream answers 409 'This load has already been booked'.
      // As for making an offer: a carrier the shipper blocked finds none of its loads, and a
      // preferred-only load is its preferred carriers' until it opens to the marketplace.
      const reach = await marketplaceReach(load, actor.organizationId, now);
      if (reach === 'blocked') throw new NotFoundError('Load not found');
      const open = reach === 'open';
      const beaten =
        load.acceptedProposalId !== null &&
        (load.status === GenericStatus.Accepted || (await readers.loadOffer(offerId)) !== null);
      if (!open && !beaten) throw new NotFoundError('Load not found');
      const tourId = randomUUID();
      const recorded = await loads.book(
        caller,
        {
          loadId,
          proposalId: offerId,
          carrierOrganizationId: actor.organizationId,
          userId: actor.userId,
        },
        tourId,
        now,
      );
      return {
        proposalId: offerId,
        tourId,
        position: latest(recorded.position, await completeAcceptance(loadId, caller, now)),
      };
    },

    /** POST proposal/load/{loadId} with status 14: the winning carrier's signed contract. */
    async uploadContract(caller: Caller, loadId: string, contractFileId: string, now: string) {
      const { actor } = caller;
      const load = await loadLoad(loadId);
      const by = byOf(actor);
      if (!load?.acceptedProposalId || (by !== null && by !== load.carrierOrganizationId))
        throw new NotFoundError('Load not found');
      const offerId = load.acceptedProposalId;
      let last = await offers.uploadContract(caller, offerId, loadId, by, contractFileId, now);
      if (load.status === GenericStatus.Accepted) {
        last = latest(
          last,
          (await loads.signContract(caller, loadId, offerId, contractFileId, now)).position,
        );
      }
      last = latest(
        last,
        await tours.confirmCarrier(load.tourId, loadId, contractFileId, caller, now),
      );
      return { proposalId: offerId, position: last };
    },

    /** A tour's new status; a delivery completes the load. */
    async changeTourStatus(
      caller: Caller,
      tourId: string,
      to: TourStatusId,
      message: string,
      now: string,
    ) {
      const { tour, position } = await tours.changeStatus(caller, tourId, to, message, now);
      if (to !== TourStatus.Delivered) return position;
      return latest(
        position,
        (await loads.completeLoad(caller, tour.loadId, tourId, now)).position,
      );
    },
  };
}
export type ShipmentSteps = ReturnType<typeof createShipmentSteps>;
