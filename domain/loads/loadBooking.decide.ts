/** A load once a carrier's offer wins it: the acceptance, the signed contract, the completed tour. */
import { GenericStatus } from '../catalog.ts';
import { ConflictError, IllegalStateError, ValidationError } from '../shared/errors.ts';
import type {
  AcceptOfferForLoad,
  BookLoad,
  CompleteLoad,
  LoadEvent,
  PostedLoad,
  SignContract,
} from './load.types.ts';
import { loadStatusName } from './load.evolve.ts';
import { instant } from './loadPosting.decide.ts';

export const acceptOffer = ({ data }: AcceptOfferForLoad, state: PostedLoad): LoadEvent[] => {
  // Two accepts racing on the same load: the second one reads the first one's acceptance.
  if (state.acceptedProposalId !== null && state.status !== GenericStatus.Canceled) {
    throw new ConflictError('This load already has an accepted offer');
  }
  if (state.status !== GenericStatus.Created) {
    throw new IllegalStateError(
      `This load is ${loadStatusName(state.status)} and no longer open for offers`,
    );
  }
  if (!(instant(data.now) < instant(state.details.expiration)))
    throw new IllegalStateError('This load is no longer open for offers');
  return [
    {
      type: 'LoadProposalAccepted',
      data: {
        loadId: state.loadId,
        proposalId: data.proposalId,
        carrierOrganizationId: data.carrierOrganizationId,
        price: data.price,
        tourId: data.tourId,
        acceptedAt: data.now,
        ...(data.terms === undefined ? {} : { terms: data.terms }),
      },
    },
  ];
};

export const ALREADY_BOOKED = 'This load has already been booked';
export const NO_BOOK_NOW_PRICE = 'This load has no Book Now price: make an offer instead';

/**
 * A carrier books the load at its Book Now price: the same acceptance as the shipper's, decided by
 * the load's expected revision, so of two carriers booking at once exactly one wins.
 */
export const bookLoad = ({ data }: BookLoad, state: PostedLoad): LoadEvent[] => {
  if (state.acceptedProposalId !== null && state.status !== GenericStatus.Canceled)
    throw new ConflictError(ALREADY_BOOKED);
  if (state.status !== GenericStatus.Created) {
    throw new IllegalStateError(
      `This load is ${loadStatusName(state.status)} and no longer open for booking`,
    );
  }
  if (!(instant(data.now) < instant(state.details.expiration)))
    throw new IllegalStateError('This load is no longer open for booking');
  const price = state.details.bookNowPrice ?? null;
  if (price === null) throw ValidationError.field('bookNowPrice', NO_BOOK_NOW_PRICE);
  return [
    {
      type: 'LoadProposalAccepted',
      data: {
        loadId: state.loadId,
        proposalId: data.proposalId,
        carrierOrganizationId: data.carrierOrganizationId,
        price,
        tourId: data.tourId,
        acceptedAt: data.now,
        terms: state.details.terms ?? null,
        bookedNow: true,
        bookedBy: data.userId,
      },
    },
  ];
};

export const signContract = ({ data }: SignContract, state: PostedLoad): LoadEvent[] => {
  if (state.status !== GenericStatus.Accepted) {
    throw new IllegalStateError(`A load that is ${loadStatusName(state.status)} cannot be signed`);
  }
  if (data.proposalId !== state.acceptedProposalId)
    throw new IllegalStateError('Only the accepted offer can sign the contract of this load');
  return [
    {
      type: 'LoadContractSigned',
      data: {
        loadId: state.loadId,
        proposalId: data.proposalId,
        contractFileId: data.contractFileId,
        signedAt: data.now,
      },
    },
  ];
};

export const completeLoad = ({ data }: CompleteLoad, state: PostedLoad): LoadEvent[] => {
  if (state.status !== GenericStatus.Signed) {
    throw new IllegalStateError(
      `A load that is ${loadStatusName(state.status)} cannot be completed`,
    );
  }
  if (data.tourId !== state.tourId)
    throw new IllegalStateError('Only the tour of this load can complete it');
  return [
    {
      type: 'LoadCompleted',
      data: { loadId: state.loadId, tourId: data.tourId, completedAt: data.now },
    },
  ];
};
