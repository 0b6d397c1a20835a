/**
 * An offer's state, folded from its events: a fresh submit starts over, every later event moves the
 * status and the prices.
 */
import { GenericStatus } from '../catalog.ts';
import { assertNever } from '../shared/event.ts';
import type { Offer, OfferEvent } from './offer.types.ts';

export const initialOffer = (): Offer => ({ exists: false });

export const evolveOffer = (state: Offer, event: OfferEvent): Offer => {
  if (event.type === 'ProposalSubmitted') {
    // Also a fresh offer after a Declined or Canceled one: nothing of the old one carries over.
    const {
      proposalId: offerId,
      loadId,
      loadGuid,
      shipperOrganizationId,
      carrierOrganizationId,
      submittedBy,
      price,
      message,
      eldTruckName,
      submittedAt,
    } = event.data;
    return {
      exists: true,
      proposalId: offerId,
      loadId,
      loadGuid,
      shipperOrganizationId,
      carrierOrganizationId,
      submittedBy,
      status: GenericStatus.SubmittedProposal,
      price,
      counterPrice: null,
      message,
      eldTruckName,
      tourId: null,
      contractFileId: null,
      submittedAt,
      updatedAt: submittedAt,
      terms: event.data.terms ?? null,
      counterTerms: null,
    };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case 'ProposalRevised': {
      const { price, message, eldTruckName, revisedAt } = event.data;
      return {
        ...state,
        status: GenericStatus.SubmittedProposal,
        price,
        counterPrice: null,
        message,
        eldTruckName,
        updatedAt: revisedAt,
        terms: event.data.terms ?? null,
        counterTerms: null,
      };
    }
    case 'ProposalCountered':
      return {
        ...state,
        status: GenericStatus.PendingAcceptance,
        counterPrice: event.data.price,
        counterTerms: event.data.terms ?? null,
        updatedAt: event.data.counteredAt,
      };
    case 'CounterAccepted':
      return {
        ...state,
        status: GenericStatus.SubmittedProposal,
        price: event.data.price,
        counterPrice: null,
        ...(event.data.terms ? { terms: event.data.terms } : {}),
        counterTerms: null,
        updatedAt: event.data.acceptedAt,
      };
    case 'ProposalAccepted':
      return {
        ...state,
        status: GenericStatus.Accepted,
        tourId: event.data.tourId,
        updatedAt: event.data.acceptedAt,
      };
    case 'ProposalDeclined':
      return {
        ...state,
        status: GenericStatus.Declined,
        counterPrice: null,
        updatedAt: event.data.declinedAt,
      };
    case 'ProposalCanceled':
      return {
        ...state,
        status: GenericStatus.Canceled,
        counterPrice: null,
        updatedAt: event.data.canceledAt,
      };
    case 'ContractUploaded':
      return {
        ...state,
        status: GenericStatus.Confirmed,
        contractFileId: event.data.contractFileId,
        updatedAt: event.data.uploadedAt,
      };
    default:
      return assertNever(event);
  }
};
