/** The end of a proposal: the shipper accepts it (a tour opens), the carrier uploads the signed contract. */
import { GenericStatus } from '../catalog.ts';
import { IllegalStateError } from '../shared/errors.ts';
import type { AcceptOffer, OfferEvent, SubmittedOffer, UploadContract } from './offer.types.ts';
import { offerStatusName, refuse } from './offerRules.ts';

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
