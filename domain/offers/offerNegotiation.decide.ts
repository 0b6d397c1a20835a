/**
 * The bargaining over an offer while its load is open: the carrier submits or revises it, the shipper
 * counters, the carrier accepts the counter or withdraws, the shipper (or the system) declines.
 */
import { GenericStatus } from '../catalog.ts';
import { IllegalStateError, NotFoundError } from '../shared/errors.ts';
import type {
  AcceptCounter,
  CounterOffer,
  DeclineOffer,
  Offer,
  OfferEvent,
  SubmitOffer,
  SubmittedOffer,
  WithdrawOffer,
} from './offer.types.ts';
import { checkPrice, isOpen, LOAD_CLOSED, offerStatusName, refuse } from './offerRules.ts';

export const submitOffer = ({ data }: SubmitOffer, state: Offer): OfferEvent[] => {
  if (
    state.exists &&
    (state.carrierOrganizationId !== data.carrierOrganizationId || state.loadId !== data.loadId)
  ) {
    throw new NotFoundError('Proposal not found');
  }
  if (
    state.exists &&
    !isOpen(state.status) &&
    state.status !== GenericStatus.Declined &&
    state.status !== GenericStatus.Canceled
  ) {
    refuse(state, 'changed');
  }
  if (!data.loadOpen) throw new IllegalStateError(LOAD_CLOSED);
  checkPrice(data.price);
  if (state.exists && isOpen(state.status)) {
    return [
      {
        type: 'ProposalRevised',
        data: {
          proposalId: state.proposalId,
          price: data.price,
          message: data.message,
          eldTruckName: data.eldTruckName,
          revisedBy: data.userId,
          revisedAt: data.now,
          ...(data.terms ? { terms: data.terms } : {}),
        },
      },
    ];
  }
  return [
    {
      type: 'ProposalSubmitted',
      data: {
        proposalId: data.proposalId,
        loadId: data.loadId,
        loadGuid: data.loadGuid,
        shipperOrganizationId: data.shipperOrganizationId,
        carrierOrganizationId: data.carrierOrganizationId,
        submittedBy: data.userId,
        price: data.price,
        message: data.message,
        eldTruckName: data.eldTruckName,
        submittedAt: data.now,
        ...(data.terms ? { terms: data.terms } : {}),
      },
    },
  ];
};

export const counterOffer = ({ data }: CounterOffer, state: SubmittedOffer): OfferEvent[] => {
  if (state.status !== GenericStatus.SubmittedProposal) refuse(state, 'countered');
  if (!data.loadOpen) throw new IllegalStateError(LOAD_CLOSED);
  checkPrice(data.price);
  return [
    {
      type: 'ProposalCountered',
      data: {
        proposalId: state.proposalId,
        price: data.price,
        message: data.message,
        counteredBy: data.userId,
        counteredAt: data.now,
        ...(data.terms ? { terms: data.terms } : {}),
      },
    },
  ];
};

export const acceptCounter = ({ data }: AcceptCounter, state: SubmittedOffer): OfferEvent[] => {
  const { counterPrice } = state;
  if (state.status !== GenericStatus.PendingAcceptance || counterPrice === null) {
    throw new IllegalStateError(
      `An offer that is ${offerStatusName(state.status)} has no counter offer to accept`,
    );
  }
  if (!data.loadOpen) throw new IllegalStateError(LOAD_CLOSED);
  return [
    {
      type: 'CounterAccepted',
      data: {
        proposalId: state.proposalId,
        price: counterPrice,
        acceptedBy: data.userId,
        acceptedAt: data.now,
        ...(state.counterTerms ? { terms: state.counterTerms } : {}),
      },
    },
  ];
};

/** The automatic declines (another offer won, the load was cancelled) leave a closed offer alone. */
export const declineOffer = ({ data }: DeclineOffer, state: SubmittedOffer): OfferEvent[] => {
  if (!isOpen(state.status)) return data.reason === 'shipper' ? refuse(state, 'declined') : [];
  return [
    {
      type: 'ProposalDeclined',
      data: {
        proposalId: state.proposalId,
        reason: data.reason,
        message: data.message,
        declinedBy: data.userId,
        declinedAt: data.now,
      },
    },
  ];
};

export const withdrawOffer = ({ data }: WithdrawOffer, state: SubmittedOffer): OfferEvent[] => {
  if (!isOpen(state.status)) refuse(state, 'withdrawn');
  return [
    {
      type: 'ProposalCanceled',
      data: {
        proposalId: state.proposalId,
        message: data.message,
        canceledBy: data.userId,
        canceledAt: data.now,
      },
    },
  ];
};
