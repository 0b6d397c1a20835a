/** The end of a proposal: the shipper accepts it (a tour opens), the carrier uploads the signed contract. */
import { GenericStatus } from '../catalog.ts';
import { IllegalStateError, NotFoundError } from '../shared/errors.ts';
import type {
  AcceptOffer,
  BookOffer,
  Offer,
  OfferEvent,
  SubmittedOffer,
  UploadContract,
} from './offer.types.ts';
import { isOpen, offerStatusName, refuse } from './offerRules.ts';

export const acceptOffer = ({ data }: AcceptOffer, state: SubmittedOffer): OfferEvent[] => {
  if (state.status === GenericStatus.PendingAcceptance) {
    throw new IllegalStateError(
      'An offer that is Pending Acceptance cannot be accepted: the carrier has not answered the counter offer',
    );
  }
  if (state.status !== GenericStatus.SubmittedProposal) refuse(state, 'accepted');
  return [
    {
      type: 'ProposalAccepted',
      data: {
        proposalId: state.proposalId,
        loadId: state.loadId,
        tourId: data.tourId,
        price: state.price,
        acceptedBy: data.userId,
        acceptedAt: data.now,
      },
    },
  ];
};

/** The message of a booking's offer, shown in the load's history. */
export const bookedNowMessage = (price: number): string =>
  `Booked now at $${price.toLocaleString('en-US', {
    minimumFractionDigits: Number.isInteger(price) ? 0 : 2,
    maximumFractionDigits: 2,
  })}`;

/**
 * The carrier's offer of a Book Now booking the load has recorded: submitted (or, open, revised) at
 * the Book Now price and accepted in one go. Nothing when it is already accepted for that tour.
 */
export const bookOffer = ({ data }: BookOffer, state: Offer): OfferEvent[] => {
  if (
    state.exists &&
    (state.carrierOrganizationId !== data.carrierOrganizationId || state.loadId !== data.loadId)
  )
    throw new NotFoundError('Proposal not found');
  if (state.exists && state.status === GenericStatus.Accepted && state.tourId === data.tourId)
    return [];
  if (
    state.exists &&
    !isOpen(state.status) &&
    state.status !== GenericStatus.Declined &&
    state.status !== GenericStatus.Canceled
  )
    refuse(state, 'booked');
  const message = bookedNowMessage(data.price);
  const offered: OfferEvent =
    state.exists && isOpen(state.status)
      ? {
          type: 'ProposalRevised',
          data: {
            proposalId: state.proposalId,
            price: data.price,
            message,
            eldTruckName: state.eldTruckName,
            revisedBy: data.userId,
            revisedAt: data.now,
          },
        }
      : {
          type: 'ProposalSubmitted',
          data: {
            proposalId: data.proposalId,
            loadId: data.loadId,
            loadGuid: data.loadGuid,
            shipperOrganizationId: data.shipperOrganizationId,
            carrierOrganizationId: data.carrierOrganizationId,
            submittedBy: data.userId,
            price: data.price,
            message,
            eldTruckName: null,
            submittedAt: data.now,
          },
        };
  return [
    offered,
    {
      type: 'ProposalAccepted',
      data: {
        proposalId: data.proposalId,
        loadId: data.loadId,
        tourId: data.tourId,
        price: data.price,
        acceptedBy: data.userId,
        acceptedAt: data.now,
      },
    },
  ];
};

/** A second upload replaces the signed contract's file. */
export const uploadContract = ({ data }: UploadContract, state: SubmittedOffer): OfferEvent[] => {
  if (state.status !== GenericStatus.Accepted && state.status !== GenericStatus.Confirmed) {
    throw new IllegalStateError(
      `A contract cannot be uploaded for an offer that is ${offerStatusName(state.status)}`,
    );
  }
  return [
    {
      type: 'ContractUploaded',
      data: {
        proposalId: state.proposalId,
        loadId: state.loadId,
        contractFileId: data.contractFileId,
        uploadedBy: data.userId,
        uploadedAt: data.now,
      },
    },
  ];
};
