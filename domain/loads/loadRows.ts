/**
 * What a load row shows and which actions it offers, for the shipper's table, the carrier's
 * marketplace and the tours table (docs/api.md "Table protocol", docs/domain.md "Tour"). Shared by the server
 * (which sends `actions` with each row) and the client (which shows the chips).
 */
import {
  GenericStatus,
  shipmentStatusByKey,
  TableAction,
  TourStatus,
  type ShipmentStatus,
  type TableActionId,
} from '../catalog.ts';

export type LoadRowFacts = {
  loadStatus: number;
  tourStatus: number | null;
  openProposals: number;
  proposalsCount: number;
  shipperRated: boolean;
  carrierRated: boolean;
};

/**
 * The shipment status of a load row: the tour's status once a tour exists, 'Bid Submitted' while it
 * has an open offer, 'Canceled' for a cancelled load, else 'Created' (also for a Paused load, whose
 * row says Paused through `loadStatus`).
 */
export const shipmentStatusOf = (
  facts: Pick<LoadRowFacts, 'loadStatus' | 'tourStatus' | 'openProposals'>,
): ShipmentStatus => {
  if (facts.loadStatus === GenericStatus.Canceled) return shipmentStatusByKey('canceled');
  if (facts.tourStatus !== null) {
    const byId = (id: number) => {
      switch (id) {
        case TourStatus.BidAccepted:
          return shipmentStatusByKey('bidAccepted');
        case TourStatus.CarrierConfirmed:
          return shipmentStatusByKey('carrierConfirmed');
        case TourStatus.ReadyForPickup:
          return shipmentStatusByKey('readyForPickup');
        case TourStatus.Dispatched:
          return shipmentStatusByKey('dispatched');
        case TourStatus.InTransit:
          return shipmentStatusByKey('inTransit');
        case TourStatus.PendingDeliveryConfirmation:
          return shipmentStatusByKey('pendingDeliveryConfirmation');
        case TourStatus.Delivered:
          return shipmentStatusByKey('delivered');
        case TourStatus.Canceled:
          return shipmentStatusByKey('canceled');
        case TourStatus.Confirmed:
          return shipmentStatusByKey('confirmed');
        case TourStatus.DeliveredLegacy:
          return shipmentStatusByKey('deliveredLegacy');
        default:
          return shipmentStatusByKey('created');
      }
    };
    return byId(facts.tourStatus);
  }
  if (facts.openProposals > 0 && facts.loadStatus === GenericStatus.Created)
    return shipmentStatusByKey('bidSubmitted');
  return shipmentStatusByKey('created');
};

const onTheRoad: readonly number[] = [
  TourStatus.ReadyForPickup,
  TourStatus.Dispatched,
  TourStatus.InTransit,
  TourStatus.PendingDeliveryConfirmation,
  TourStatus.Delivered,
];
const cancelBlocked: readonly number[] = [
  TourStatus.InTransit,
  TourStatus.PendingDeliveryConfirmation,
  TourStatus.Delivered,
];

/** The actions the load's shipper may take on its row now. */
export const shipperLoadActions = (facts: LoadRowFacts): TableActionId[] => {
  const actions: TableActionId[] = [TableAction.View];
  const editable =
    facts.loadStatus === GenericStatus.Created || facts.loadStatus === GenericStatus.Paused;
  if (editable) actions.push(TableAction.Edit);
  const cancelable =
    (
      [
        GenericStatus.Created,
        GenericStatus.Paused,
        GenericStatus.Accepted,
        GenericStatus.Signed,
      ] as number[]
    ).includes(facts.loadStatus) &&
    (facts.tourStatus === null || !cancelBlocked.includes(facts.tourStatus));
  if (cancelable) actions.push(TableAction.Cancel);
  if (facts.proposalsCount > 0 || facts.loadStatus === GenericStatus.Created)
    actions.push(TableAction.Offers);
  if (facts.tourStatus !== null && onTheRoad.includes(facts.tourStatus))
    actions.push(TableAction.Track);
  if (facts.tourStatus !== null && facts.tourStatus !== TourStatus.Canceled)
    actions.push(TableAction.Chat);
  if (facts.tourStatus === TourStatus.Delivered && !facts.shipperRated)
    actions.push(TableAction.Rate);
  if (editable) actions.push(TableAction.ExtendExpiration);
  actions.push(TableAction.History);
  if (facts.tourStatus === TourStatus.PendingDeliveryConfirmation)
    actions.push(TableAction.ConfirmDelivery);
  return actions;
};

/** The actions a carrier (dispatcher) may take on a row of its tours now. */
export const carrierTourActions = (
  facts: Pick<LoadRowFacts, 'tourStatus' | 'carrierRated'>,
): TableActionId[] => {
  const actions: TableActionId[] = [TableAction.View];
  const status = facts.tourStatus;
  if (status === TourStatus.BidAccepted || status === TourStatus.CarrierConfirmed)
    actions.push(TableAction.UploadContract);
  if (
    status === TourStatus.CarrierConfirmed ||
    status === TourStatus.ReadyForPickup ||
    status === TourStatus.Dispatched
  )
    actions.push(TableAction.AssignDriver);
  if (status !== null && onTheRoad.includes(status)) actions.push(TableAction.Track);
  if (status !== TourStatus.Canceled) actions.push(TableAction.Chat);
  if (status === TourStatus.Delivered && !facts.carrierRated) actions.push(TableAction.Rate);
  if (
    status === TourStatus.BidAccepted ||
    status === TourStatus.CarrierConfirmed ||
    status === TourStatus.ReadyForPickup ||
    status === TourStatus.Dispatched
  ) {
    actions.push(TableAction.Cancel);
  }
  actions.push(TableAction.History);
  return actions;
};

/** The actions a driver may take on one of its tours now. */
export const driverTourActions = (tourStatus: number): TableActionId[] => {
  const actions: TableActionId[] = [TableAction.View];
  if (onTheRoad.includes(tourStatus)) actions.push(TableAction.Track);
  if (tourStatus !== TourStatus.Canceled) actions.push(TableAction.Chat);
  return actions;
};

/** The actions a carrier may take on a marketplace row or one of its offers. */
export const carrierOfferActions = (
  offerStatus: number | null,
  loadOpen: boolean,
): TableActionId[] => {
  const actions: TableActionId[] = [TableAction.View];
  const open =
    offerStatus === GenericStatus.SubmittedProposal ||
    offerStatus === GenericStatus.PendingAcceptance;
  if (
    loadOpen &&
    (offerStatus === null ||
      open ||
      offerStatus === GenericStatus.Declined ||
      offerStatus === GenericStatus.Canceled)
  ) {
    actions.push(TableAction.MakeOffer);
  }
  if (open) actions.push(TableAction.Withdraw);
  if (offerStatus === GenericStatus.Accepted) actions.push(TableAction.UploadContract);
  return actions;
};
