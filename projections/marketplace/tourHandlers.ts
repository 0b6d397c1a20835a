import { TourStatus } from '../../domain/catalog.ts';
import type {
  CarrierConfirmed,
  TourAssigned,
  TourCanceled,
  TourEventAdded,
  TourOpened,
  TourRated,
  TourStatusChanged,
  PickupHeld,
  PickupReleased,
} from '../../domain/tours/tour.types.ts';
import type { Handler, MarketplacePage } from './marketplacePage.ts';

/** The tour of an accepted offer: Bid Accepted, on the tour and on its load. */
const tourOpened = (page: MarketplacePage, d: TourOpened['data']) => {
  page.tours.insert({
    id: d.tourId,
    load_id: d.loadId,
    load_guid: d.loadGuid,
    proposal_id: d.proposalId,
    shipper_organization_id: d.shipperOrganizationId,
    carrier_organization_id: d.carrierOrganizationId,
    status: TourStatus.BidAccepted,
    price: d.price,
    eld_truck_name: d.eldTruckName,
    stops: d.stops,
    shipper_rated: false,
    carrier_rated: false,
    opened_at: d.openedAt,
    updated_at: d.openedAt,
  });
  page.loads.update(d.loadId, { tour_id: d.tourId, tour_status: TourStatus.BidAccepted });
};

/** The carrier confirmed with the signed contract. */
const carrierConfirmed = (page: MarketplacePage, d: CarrierConfirmed['data']) => {
  page.tours.update(d.tourId, { contract_file_id: d.contractFileId });
  page.setTourStatus(d.tourId, TourStatus.CarrierConfirmed, d.confirmedAt);
};

/** The driver, on the tour and on its load. */
const tourAssigned = (page: MarketplacePage, d: TourAssigned['data']) => {
  page.tours.update(d.tourId, {
    assignee_id: d.assigneeId,
    assignee_name: d.assigneeName,
    updated_at: d.assignedAt,
  });
  page.updateLoadsOfTour(d.tourId, { assignee_id: d.assigneeId });
};

const tourStatusChanged = (page: MarketplacePage, d: TourStatusChanged['data']) =>
  page.setTourStatus(d.tourId, d.to, d.changedAt);

const tourCanceled = (page: MarketplacePage, d: TourCanceled['data']) =>
  page.setTourStatus(d.tourId, TourStatus.Canceled, d.canceledAt);

/** An entry of the timeline, kept once. */
const tourEventAdded = (page: MarketplacePage, d: TourEventAdded['data']) => {
  if (page.tourEvents.has(d.eventId)) return;
  page.tourEvents.set(d.eventId, {
    id: d.eventId,
    tour_id: d.tourId,
    type: d.type,
    message: d.message,
    stop_id: d.stopId,
    added_by: d.addedBy,
    at: d.at,
  });
};

/** One rating per tour, side and criterion (the first kept); the tour shows the side has rated. */
const tourRated = (page: MarketplacePage, d: TourRated['data']) => {
  for (const entry of d.ratings) {
    const key = JSON.stringify([d.tourId, d.side, entry.criteria]);
    if (page.ratings.has(key)) continue;
    page.ratings.set(key, {
      tour_id: d.tourId,
      side: d.side,
      rated_organization_id: d.ratedOrganizationId,
      criteria: entry.criteria,
      rating: entry.rating,
      rated_by: d.ratedBy,
      rated_at: d.ratedAt,
    });
  }
  const row = page.tours.get(d.tourId);
  page.tours.update(d.tourId, {
    shipper_rated: row?.shipper_rated === true || d.side === 'shipper',
    carrier_rated: row?.carrier_rated === true || d.side === 'carrier',
    updated_at: d.ratedAt,
  });
};

const ofTour = (d: { tourId: string }) => ({ tour: d.tourId });

/** The dock released or held the pickup: the tour's row moves (its parties' screens and webhooks hear of it). */
const pickupChecked = (page: MarketplacePage, d: PickupHeld['data'] | PickupReleased['data']) =>
  page.tours.update(d.tourId, { updated_at: d.at });

/** The tour events the marketplace read model takes. */
export const tourHandlers = {
  TourOpened: {
    // Its load too: the load shows its tour.
    touches: (d) => ({ load: d.loadId, tour: d.tourId }),
    fold: tourOpened,
  } satisfies Handler<TourOpened>,
  CarrierConfirmed: {
    touches: ofTour,
    fold: carrierConfirmed,
  } satisfies Handler<CarrierConfirmed>,
  TourAssigned: { touches: ofTour, fold: tourAssigned } satisfies Handler<TourAssigned>,
  TourStatusChanged: {
    touches: ofTour,
    fold: tourStatusChanged,
  } satisfies Handler<TourStatusChanged>,
  TourEventAdded: { touches: ofTour, fold: tourEventAdded } satisfies Handler<TourEventAdded>,
  TourRated: { touches: ofTour, fold: tourRated } satisfies Handler<TourRated>,
  TourCanceled: { touches: ofTour, fold: tourCanceled } satisfies Handler<TourCanceled>,
  PickupReleased: { touches: ofTour, fold: pickupChecked } satisfies Handler<PickupReleased>,
  PickupHeld: { touches: ofTour, fold: pickupChecked } satisfies Handler<PickupHeld>,
};
