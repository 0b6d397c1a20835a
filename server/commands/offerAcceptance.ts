/**
 * The offer's side of an acceptance and of a contract (run by `shipments.ts`), and the rate
 * confirmations handed out (stream `rateconfirmation-<id>`).
 */
import { randomUUID } from 'node:crypto';
import { GenericStatus } from '../../domain/catalog.ts';
import { offerDecider } from '../../domain/offers/offer.decide.ts';
import {
  rateConfirmationStream,
  type RateConfirmationIssued,
  type SubmittedOffer,
} from '../../domain/offers/offer.types.ts';
import { metadataOf, type Caller } from './caller.ts';
import { offerRunner, type OfferCommandDeps } from './offerAccess.ts';

export function createOfferAcceptanceCommands(deps: OfferCommandDeps) {
  const { store, readers } = deps;
  const { loadOffer } = readers;
  const runOffer = offerRunner(deps);

  return {
    /** Let the decider phrase why an offer cannot be accepted, without touching the load. */
    refuseAcceptanceIfClosed(
      offer: SubmittedOffer,
      by: string | null,
      userId: string,
      now: string,
    ) {
      if (offer.status !== GenericStatus.SubmittedProposal) {
        offerDecider.decide(
          {
            type: 'AcceptOffer',
            data: { proposalId: offer.proposalId, by, userId, tourId: randomUUID(), now },
          },
          offer,
        );
      }
    },

    /** The offer's side of an acceptance the load has recorded; nothing once it is no longer open. */
    async accept(
      offerId: string,
      loadId: string,
      userId: string,
      tourId: string,
      caller: Caller | null,
      now: string,
    ) {
      const offer = await loadOffer(offerId);
      if (
        !offer ||
        (offer.status !== GenericStatus.SubmittedProposal &&
          offer.status !== GenericStatus.PendingAcceptance)
      )
        return { offer, position: null };
      return {
        offer,
        position: (
          await runOffer(
            { type: 'AcceptOffer', data: { proposalId: offerId, by: null, userId, tourId, now } },
            loadId,
            caller,
            now,
          )
        ).position,
      };
    },

    uploadContract: async (
      caller: Caller,
      offerId: string,
      loadId: string,
      by: string | null,
      contractFileId: string,
      now: string,
    ) =>
      (
        await runOffer(
          {
            type: 'UploadContract',
            data: { proposalId: offerId, by, userId: caller.actor.userId, contractFileId, now },
          },
          loadId,
          caller,
          now,
        )
      ).position,

    /** Records the hash of a rate confirmation handed out, in the load's audit trail. */
    async recordRateConfirmation(
      caller: Caller,
      offer: SubmittedOffer,
      sha256: string,
      bytes: number,
      now: string,
    ) {
      const event: RateConfirmationIssued = {
        type: 'RateConfirmationIssued',
        data: {
          proposalId: offer.proposalId,
          loadId: offer.loadId,
          sha256,
          bytes,
          issuedTo: caller.actor.userId,
          issuedAt: now,
        },
      };
      return (
        await store.append(rateConfirmationStream(offer.proposalId), [event], {
          expectedRevision: 'any',
          metadata: metadataOf(caller, now, offer.loadId),
        })
      ).position;
    },
  };
}
