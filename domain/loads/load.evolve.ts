/** A load's state, folded from its events, and the name of its status. */
import { GenericStatus, genericStatuses, nameById } from '../catalog.ts';
import { assertNever } from '../shared/event.ts';
import type { Load, LoadEvent, LoadStatus } from './load.types.ts';

export const loadStatusName = (status: LoadStatus): string =>
  nameById(genericStatuses, status) ?? String(status);

export const initialLoad = (): Load => ({ posted: false });

export const evolveLoad = (state: Load, event: LoadEvent): Load => {
  if (event.type === 'LoadPosted') {
    const { loadId, guid, shipperOrganizationId, postedBy, details, postedAt } = event.data;
    return {
      posted: true,
      loadId,
      guid,
      shipperOrganizationId,
      postedBy,
      postedAt,
      status: GenericStatus.Created,
      details,
      acceptedProposalId: null,
      carrierOrganizationId: null,
      price: null,
      tourId: null,
      contractFileId: null,
      cancelMessage: null,
      updatedAt: postedAt,
    };
  }
  if (!state.posted) return state;
  switch (event.type) {
    case 'LoadUpdated':
      return { ...state, details: event.data.details, updatedAt: event.data.updatedAt };
    case 'LoadExpirationExtended': {
      const { expiration, expirationTimezone, reopened, extendedAt } = event.data;
      return {
        ...state,
        details: { ...state.details, expiration, expirationTimezone },
        status: reopened ? GenericStatus.Created : state.status,
        updatedAt: extendedAt,
      };
    }
    case 'LoadOpenedToMarketplace':
      return { ...state, openedToMarketplace: true };
    case 'LoadExpired':
      return { ...state, status: GenericStatus.Paused, updatedAt: event.data.expiredAt };
    case 'LoadCanceled':
      return {
        ...state,
        status: GenericStatus.Canceled,
        cancelMessage: event.data.message,
        updatedAt: event.data.canceledAt,
      };
    case 'LoadProposalAccepted': {
      const { proposalId: offerId, carrierOrganizationId, price, tourId, acceptedAt } = event.data;
      return {
        ...state,
        status: GenericStatus.Accepted,
        acceptedProposalId: offerId,
        carrierOrganizationId,
        price,
        ...(event.data.terms === undefined ? {} : { agreedTerms: event.data.terms }),
        bookedBy: event.data.bookedNow ? (event.data.bookedBy ?? null) : null,
        tourId,
        updatedAt: acceptedAt,
      };
    }
    case 'LoadContractSigned':
      return {
        ...state,
        status: GenericStatus.Signed,
        contractFileId: event.data.contractFileId,
        updatedAt: event.data.signedAt,
      };
    case 'LoadCompleted':
      return { ...state, status: GenericStatus.Completed, updatedAt: event.data.completedAt };
    default:
      return assertNever(event);
  }
};
