/** A tour's state from its events: status, contract, driver, stops reached, ratings, shares and proofs. */
import { TourStatus, tourStatuses, type TourStatusId } from '../catalog.ts';
import { assertNever } from '../shared/event.ts';
import type { OpenedTour, Tour, TourEvent, TourEventAdded } from './tour.types.ts';

export const tourStatusName = (status: TourStatusId): string =>
  tourStatuses.find((entry) => entry.id === status)?.name ?? `status ${status}`;

export const initialTour = (): Tour => ({ exists: false });

const addOnce = (ids: string[], id: string) => (ids.includes(id) ? ids : [...ids, id]);

/** Arrivals and departures, whether the geofence or a person recorded them, move the truck in or out of a stop. */
const afterStopEvent = (
  tour: OpenedTour,
  { type, stopId }: TourEventAdded['data'],
): Partial<OpenedTour> => {
  if (stopId === null) return {};
  if (type === 'arrived')
    return { insideStopId: stopId, arrivedStopIds: addOnce(tour.arrivedStopIds, stopId) };
  if (type === 'departed') {
    return {
      insideStopId: tour.insideStopId === stopId ? null : tour.insideStopId,
      departedStopIds: addOnce(tour.departedStopIds, stopId),
    };
  }
  return {};
};

const withDockLink = (
  tour: OpenedTour,
  linkId: string,
  change: Partial<NonNullable<OpenedTour['dockLinks']>[number]>,
): OpenedTour => ({
  ...tour,
  dockLinks: (tour.dockLinks ?? []).map((link) =>
    link.linkId === linkId ? { ...link, ...change } : link,
  ),
});

export const evolveTour = (state: Tour, event: TourEvent): Tour => {
  if (event.type === 'TourOpened') {
    const {
      tourId,
      loadId,
      loadGuid,
      proposalId: offerId,
      shipperOrganizationId,
      carrierOrganizationId,
      price,
      eldTruckName,
      stops,
      openedAt,
    } = event.data;
    return {
      exists: true,
      tourId,
      loadId,
      loadGuid,
      proposalId: offerId,
      shipperOrganizationId,
      carrierOrganizationId,
      price,
      eldTruckName,
      stops,
      status: TourStatus.BidAccepted,
      assigneeId: null,
      assigneeName: null,
      contractFileId: null,
      insideStopId: null,
      arrivedStopIds: [],
      departedStopIds: [],
      ratings: { shipper: null, carrier: null },
      shares: [],
      proofs: [],
      openedAt,
      updatedAt: openedAt,
    };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case 'CarrierConfirmed':
      return {
        ...state,
        status: TourStatus.CarrierConfirmed,
        contractFileId: event.data.contractFileId,
        updatedAt: event.data.confirmedAt,
      };
    case 'TourAssigned':
      return {
        ...state,
        assigneeId: event.data.assigneeId,
        assigneeName: event.data.assigneeName,
        tractorNumber: event.data.tractorNumber ?? null,
        trailerNumber: event.data.trailerNumber ?? null,
        sealedReleaseSecret: event.data.sealedReleaseSecret ?? null,
        updatedAt: event.data.assignedAt,
      };
    case 'TourStatusChanged':
      return { ...state, status: event.data.to, updatedAt: event.data.changedAt };
    case 'TourEventAdded':
      return { ...state, ...afterStopEvent(state, event.data), updatedAt: event.data.at };
    case 'TourRated':
      return {
        ...state,
        ratings: { ...state.ratings, [event.data.side]: event.data.ratings },
        updatedAt: event.data.ratedAt,
      };
    case 'TourCanceled':
      return { ...state, status: TourStatus.Canceled, updatedAt: event.data.canceledAt };
    case 'TourShared':
      return {
        ...state,
        shares: [
          ...(state.shares ?? []),
          { shareId: event.data.shareId, organizationId: event.data.organizationId },
        ],
      };
    case 'TourShareRevoked':
      return {
        ...state,
        shares: (state.shares ?? []).filter((share) => share.shareId !== event.data.shareId),
      };
    case 'ProofOfDeliveryRecorded': {
      const { proofId, receivedBy, note, files, recordedBy, recordedAt } = event.data;
      return {
        ...state,
        proofs: [
          ...(state.proofs ?? []),
          { proofId, receivedBy, note, files, recordedBy, recordedAt },
        ],
        updatedAt: recordedAt,
      };
    }
    case 'DockLinkCreated':
      return {
        ...state,
        dockLinks: [
          ...(state.dockLinks ?? []),
          {
            linkId: event.data.linkId,
            organizationId: event.data.organizationId,
            expiresAt: event.data.expiresAt,
            revoked: false,
            attempts: 0,
            state: 'waiting',
          },
        ],
      };
    case 'DockLinkRevoked':
      return withDockLink(state, event.data.linkId, { revoked: true });
    case 'PickupReleased':
    case 'PickupHeld':
      return {
        ...withDockLink(state, event.data.linkId, {
          attempts: event.data.attempt,
          state: event.type === 'PickupReleased' ? 'released' : 'held',
          reasons: event.type === 'PickupHeld' ? event.data.reasons : [],
        }),
        updatedAt: event.data.at,
      };
    case 'DeliveryConfirmed':
      return {
        ...state,
        deliveryConfirmedAt: event.data.confirmedAt,
        updatedAt: event.data.confirmedAt,
      };
    default:
      return assertNever(event);
  }
};
