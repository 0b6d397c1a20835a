/**
 * Answering an offer: the shipper counters or declines it, the carrier accepts the counter or
 * withdraws it; and the system declines the load's other offers once one wins or the load is cancelled.
 */
import { completeTerms, STANDARD_TERMS, type TermsInput } from '../../domain/loads/terms.ts';
import { GenericStatus } from '../../domain/catalog.ts';
import type { DeclineReason } from '../../domain/offers/offer.types.ts';
import { ForbiddenError, IllegalStateError, NotFoundError } from '../../domain/shared/errors.ts';
import { latest, type LogPosition } from '../eventstore/eventStore.ts';
import type { Actor, Caller } from './caller.ts';
import { byOf, isOpen } from './streams.ts';
import { offerRunner, type OfferCommandDeps } from './offerAccess.ts';

export function createOfferAnswerCommands(deps: OfferCommandDeps) {
  const { loadLoad, loadOffer, offerIdsOfLoad, identity } = deps.readers;
  const runOffer = offerRunner(deps);

  /** Declines every other open offer on the load (after an acceptance or a cancellation). */
  const declineOthers = async (
    loadId: string,
    exceptOfferId: string | null,
    reason: DeclineReason,
    message: string,
    caller: Caller | null,
    now: string,
  ) => {
    let last: LogPosition | null = null;
    for (const id of await offerIdsOfLoad(loadId)) {
      if (id === exceptOfferId) continue;
      // The decider declines an open offer and leaves any other as it is.
      const { position } = await runOffer(
        {
          type: 'DeclineOffer',
          data: { proposalId: id, by: null, userId: null, reason, message, now },
        },
        loadId,
        caller,
        now,
      );
      last = latest(last, position);
    }
    return last;
  };

  /**
   * The offer and its visibility for the caller, before it is answered: another organization's, or
   * a blocked carrier's open offer seen by the shipper, is not found.
   */
  const answerable = async (actor: Actor, offerId: string, now: string) => {
    const offer = await loadOffer(offerId);
    const by = byOf(actor);
    const visible =
      offer &&
      (by === null || by === offer.shipperOrganizationId || by === offer.carrierOrganizationId);
    if (!offer || !visible) throw new NotFoundError('Proposal not found');
    // A blocked carrier's open offer is hidden from the shipper: it cannot be answered either.
    if (
      by !== null &&
      by === offer.shipperOrganizationId &&
      (offer.status === GenericStatus.SubmittedProposal ||
        offer.status === GenericStatus.PendingAcceptance) &&
      (await identity.loadOrganization(offer.carrierOrganizationId))?.status ===
        GenericStatus.Blocked
    )
      throw new NotFoundError('Proposal not found');
    const load = await loadLoad(offer.loadId);
    if (!load) throw new NotFoundError('Load not found');
    return {
      offer,
      load,
      by,
      open: isOpen(load, now),
      asShipper: by === null || by === offer.shipperOrganizationId,
      asCarrier: by === null || by === offer.carrierOrganizationId,
    };
  };

  return {
    answerable,
    declineOthers,

    /** PUT proposal/{id} but accepting (5, run by `shipments.ts`): 12 decline, 11 counter, 10 accept counter, 7 withdraw. */
    async answer(
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
      const { actor } = caller;
      const { offer, load, by, open, asShipper, asCarrier } = await answerable(actor, offerId, now);
      const loadId = offer.loadId;
      const needs = (side: boolean, who: string) => {
        if (!side) throw new ForbiddenError(`Only the ${who} can do this`);
      };
      switch (change.status) {
        case GenericStatus.PendingAcceptance: {
          needs(asShipper, 'shipper');
          if (change.price === null) throw new IllegalStateError('A counter offer needs a price');
          return (
            await runOffer(
              {
                type: 'CounterOffer',
                data: {
                  proposalId: offerId,
                  by,
                  userId: actor.userId,
                  loadOpen: open,
                  price: change.price,
                  message: change.message,
                  // The counter answers the terms on the table: the offer's own, else the load's.
                  ...(change.terms
                    ? {
                        terms: completeTerms(
                          change.terms,
                          offer.terms ?? load.details.terms ?? STANDARD_TERMS,
                        ),
                      }
                    : {}),
                  now,
                },
              },
              loadId,
              caller,
              now,
            )
          ).position;
        }
        case GenericStatus.SubmittedProposal:
          needs(asCarrier, 'carrier');
          return (
            await runOffer(
              {
                type: 'AcceptCounter',
                data: { proposalId: offerId, by, userId: actor.userId, loadOpen: open, now },
              },
              loadId,
              caller,
              now,
            )
          ).position;
        case GenericStatus.Declined:
          needs(asShipper, 'shipper');
          return (
            await runOffer(
              {
                type: 'DeclineOffer',
                data: {
                  proposalId: offerId,
                  by,
                  userId: actor.userId,
                  reason: 'shipper',
                  message: change.message,
                  now,
                },
              },
              loadId,
              caller,
              now,
            )
          ).position;
        case GenericStatus.Canceled:
          needs(asCarrier, 'carrier');
          return (
            await runOffer(
              {
                type: 'WithdrawOffer',
                data: {
                  proposalId: offerId,
                  by,
                  userId: actor.userId,
                  message: change.message,
                  now,
                },
              },
              loadId,
              caller,
              now,
            )
          ).position;
        default:
          throw new IllegalStateError(`Unknown offer status ${change.status}`);
      }
    },
  };
}
