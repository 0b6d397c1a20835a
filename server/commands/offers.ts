/**
 * The commands of a carrier's offer (stream `proposal-<id>`), of a load's list of offers
 * (`loadoffers-<loadId>`) and of the rate confirmations handed out (`rateconfirmation-<id>`):
 * submit or revise, counter, accept a counter, decline, withdraw, and the proposal's side of an
 * acceptance and of a contract (run by `shipments.ts`). This module is the only writer of these streams.
 */
import { randomUUID } from 'node:crypto';
import { GenericStatus } from '../../domain/catalog.ts';
import { loadOffersStream, type ProposalListed } from '../../domain/offers/loadOffers.ts';
import { offerDecider, offerIdFor } from '../../domain/offers/offer.decide.ts';
import {
  offerStream,
  rateConfirmationStream,
  type DeclineReason,
  type Offer,
  type OfferCommand,
  type OfferEvent,
  type RateConfirmationIssued,
  type SubmittedOffer,
} from '../../domain/offers/offer.types.ts';
import { ForbiddenError, IllegalStateError, NotFoundError } from '../../domain/shared/errors.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { EventStore, LogPosition } from '../eventstore/eventStore.ts';
import { latest } from '../eventstore/eventStore.ts';
import { metadataOf, type Actor, type Caller } from './caller.ts';
import { byOf, isOpen, type StreamReaders } from './streams.ts';

export function createOfferCommands(deps: { store: EventStore; readers: StreamReaders }) {
  const { store, readers } = deps;
  const {
    loadLoad,
    loadProposal: loadOffer,
    proposalIdsOfLoad: offerIdsOfLoad,
    requireActiveOrganization,
    identity,
  } = readers;

  const runOffer = (command: OfferCommand, loadId: string, caller: Caller | null, now: string) =>
    handleCommand<Offer, OfferCommand, OfferEvent>(
      store,
      offerStream(command.data.proposalId),
      offerDecider,
      command,
      metadataOf(caller, now, loadId),
    );

  /** Lists a proposal on its load (once), so the steps that reach every offer of the load find it in the log. */
  const listOnLoad = async (loadId: string, offerId: string, caller: Caller, now: string) => {
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
    const proposal = await loadOffer(offerId);
    const by = byOf(actor);
    const visible =
      proposal &&
      (by === null ||
        by === proposal.shipperOrganizationId ||
        by === proposal.carrierOrganizationId);
    if (!proposal || !visible) throw new NotFoundError('Proposal not found');
    // A blocked carrier's open offer is hidden from the shipper: it cannot be answered either.
    if (
      by !== null &&
      by === proposal.shipperOrganizationId &&
      (proposal.status === GenericStatus.SubmittedProposal ||
        proposal.status === GenericStatus.PendingAcceptance) &&
      (await identity.loadOrganization(proposal.carrierOrganizationId))?.status ===
        GenericStatus.Blocked
    )
      throw new NotFoundError('Proposal not found');
    const load = await loadLoad(proposal.loadId);
    if (!load) throw new NotFoundError('Load not found');
    return {
      proposal,
      load,
      by,
      open: isOpen(load, now),
      asShipper: by === null || by === proposal.shipperOrganizationId,
      asCarrier: by === null || by === proposal.carrierOrganizationId,
    };
  };

  return {
    answerable,
    declineOthers,

    async submitProposal(
      caller: Caller,
      loadId: string,
      offer: { price: number; message: string; eldTruckName: string | null },
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
      // A blocked shipper's loads are off the marketplace (docs/domain.md "Marketplace visibility": an Active shipper's).
      const open =
        isOpen(load, now) &&
        (await identity.loadOrganization(load.shipperOrganizationId))?.status ===
          GenericStatus.Active;
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

    /** PUT proposal/{id} but accepting (5, run by `shipments.ts`): 12 decline, 11 counter, 10 accept counter, 7 withdraw. */
    async answer(
      caller: Caller,
      offerId: string,
      change: { status: number; message: string; price: number | null },
      now: string,
    ) {
      const { actor } = caller;
      const { proposal, by, open, asShipper, asCarrier } = await answerable(actor, offerId, now);
      const loadId = proposal.loadId;
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

    /** Let the decider phrase why an offer cannot be accepted, without touching the load. */
    refuseAcceptanceIfClosed(
      proposal: SubmittedOffer,
      by: string | null,
      userId: string,
      now: string,
    ) {
      if (proposal.status !== GenericStatus.SubmittedProposal) {
        offerDecider.decide(
          {
            type: 'AcceptOffer',
            data: { proposalId: proposal.proposalId, by, userId, tourId: randomUUID(), now },
          },
          proposal,
        );
      }
    },

    /** The proposal's side of an acceptance the load has recorded; nothing once it is no longer open. */
    async accept(
      offerId: string,
      loadId: string,
      userId: string,
      tourId: string,
      caller: Caller | null,
      now: string,
    ) {
      const proposal = await loadOffer(offerId);
      if (
        !proposal ||
        (proposal.status !== GenericStatus.SubmittedProposal &&
          proposal.status !== GenericStatus.PendingAcceptance)
      )
        return { proposal, position: null };
      return {
        proposal,
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
      proposal: SubmittedOffer,
      sha256: string,
      bytes: number,
      now: string,
    ) {
      const event: RateConfirmationIssued = {
        type: 'RateConfirmationIssued',
        data: {
          proposalId: proposal.proposalId,
          loadId: proposal.loadId,
          sha256,
          bytes,
          issuedTo: caller.actor.userId,
          issuedAt: now,
        },
      };
      return (
        await store.append(rateConfirmationStream(proposal.proposalId), [event], {
          expectedRevision: 'any',
          metadata: metadataOf(caller, now, proposal.loadId),
        })
      ).position;
    },
  };
}
export type OfferCommands = ReturnType<typeof createOfferCommands>;
