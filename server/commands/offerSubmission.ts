/**
 * A carrier submits or revises its offer on a load (stream `proposal-<id>`), and the offer is listed
 * on the load (`loadoffers-<loadId>`).
 */
import { completeTerms, STANDARD_TERMS, type TermsInput } from '../../domain/loads/terms.ts';
import { GenericStatus } from '../../domain/catalog.ts';
import { loadOffersStream, type ProposalListed } from '../../domain/offers/loadOffers.ts';
import { offerIdFor } from '../../domain/offers/offer.decide.ts';
import { ForbiddenError, NotFoundError } from '../../domain/shared/errors.ts';
import { latest } from '../eventstore/eventStore.ts';
import { metadataOf, type Caller } from './caller.ts';
import { offerRunner, type OfferCommandDeps } from './offerAccess.ts';

export function createOfferSubmissionCommands(deps: OfferCommandDeps) {
  const { store, readers } = deps;
  const { loadLoad, loadOffer, offerIdsOfLoad, requireActiveOrganization, marketplaceReach } =
    readers;
  const runOffer = offerRunner(deps);

  /** Lists an offer on its load (once), so the steps that reach every offer of the load find it in the log. */
  const listOnLoad = async (
    loadId: string,
    offerId: string,
    caller: Caller | null,
    now: string,
  ) => {
    if ((await offerIdsOfLoad(loadId)).includes(offerId)) return;
    const event: ProposalListed = {
      type: 'ProposalListed',
      data: { loadId, proposalId: offerId, listedAt: now },
    };
    await store.append(loadOffersStream(loadId), [event], {
      expectedRevision: 'any',
      metadata: metadataOf(caller, now, loadId),
    });
  };

  return {
    /**
     * The carrier's offer of a Book Now booking the load has recorded (LoadProposalAccepted with
     * `bookedNow`): at the booked price, accepted at once, and listed on the load.
     */
    async book(
      caller: Caller | null,
      booking: {
        proposalId: string;
        loadId: string;
        loadGuid: string;
        shipperOrganizationId: string;
        carrierOrganizationId: string;
        userId: string;
        price: number;
        tourId: string;
      },
      now: string,
    ) {
      const result = await runOffer(
        { type: 'BookOffer', data: { ...booking, now } },
        booking.loadId,
        caller,
        now,
      );
      await listOnLoad(booking.loadId, booking.proposalId, caller, now);
      return result.position;
    },

    async submitOffer(
      caller: Caller,
      loadId: string,
      offer: {
        price: number;
        message: string;
        eldTruckName: string | null;
        terms?: TermsInput | undefined;
      },
      now: string,
    ) {
      const { actor } = caller;
      await requireActiveOrganization(actor);
      if (!actor.organizationId) throw new ForbiddenError('Only a carrier can make an offer');
      const load = await loadLoad(loadId);
      if (!load) throw new NotFoundError('Load not found');
      if (load.shipperOrganizationId === actor.organizationId)
        throw new ForbiddenError('You cannot make an offer on your own load');
      // A closed load is still "found" for a carrier who bid on it; for others it is not on the marketplace.
      const offerId = offerIdFor(loadId, actor.organizationId);
      // Off the marketplace (docs/domain.md "Marketplace visibility"): a carrier the shipper blocked
      // finds none of its loads; a preferred-only load is its preferred carriers' until it opens.
      const reach = await marketplaceReach(load, actor.organizationId, now);
      if (reach === 'blocked') throw new NotFoundError('Load not found');
      const open = reach === 'open';
      if (!open && !(await loadOffer(offerId))) throw new NotFoundError('Load not found');
      const result = await runOffer(
        {
          type: 'SubmitOffer',
          data: {
            proposalId: offerId,
            loadId,
            loadGuid: load.guid,
            loadOpen: open,
            shipperOrganizationId: load.shipperOrganizationId,
            carrierOrganizationId: actor.organizationId,
            userId: actor.userId,
            price: offer.price,
            message: offer.message,
            eldTruckName: offer.eldTruckName,
            // The offer's own terms: the fields it names over the load's terms.
            ...(offer.terms
              ? { terms: completeTerms(offer.terms, load.details.terms ?? STANDARD_TERMS) }
              : {}),
            now,
          },
        },
        loadId,
        caller,
        now,
      );
      let position = result.position;
      if (result.events.some((event) => event.type === 'ProposalSubmitted')) {
        await listOnLoad(loadId, offerId, caller, now);
        // An acceptance or a cancellation that closed the load while this offer was being made did
        // not find it on the list: the offer is declined as that step would have declined it.
        const after = await loadLoad(loadId);
        if (after?.status === GenericStatus.Canceled) {
          position = latest(
            position,
            (
              await runOffer(
                {
                  type: 'DeclineOffer',
                  data: {
                    proposalId: offerId,
                    by: null,
                    userId: null,
                    reason: 'loadCanceled',
                    message: after.cancelMessage ?? '',
                    now,
                  },
                },
                loadId,
                caller,
                now,
              )
            ).position,
          );
        } else if (after?.acceptedProposalId && after.acceptedProposalId !== offerId) {
          position = latest(
            position,
            (
              await runOffer(
                {
                  type: 'DeclineOffer',
                  data: {
                    proposalId: offerId,
                    by: null,
                    userId: null,
                    reason: 'otherAccepted',
                    message: 'Another offer was accepted',
                    now,
                  },
                },
                loadId,
                caller,
                now,
              )
            ).position,
          );
        }
      }
      return {
        id: offerId,
        revised: result.events.some((event) => event.type === 'ProposalRevised'),
        position,
      };
    },
  };
}
