/**
 * What happened to a tour (stream `tour-<uuid>`), and the parts those events are made of: the stops,
 * who acted, the ratings, the files of a proof of delivery.
 */
import type { LocationTypeId, RatingSide, TourStatusId } from '../catalog.ts';
import type { Event } from '../shared/event.ts';

export type TourStop = {
  id: string;
  locationType: LocationTypeId;
  name: string;
  address: string;
  city: string | null;
  state: string | null;
  latitude: number;
  longitude: number;
};

export type TourEventType = 'status' | 'note' | 'arrived' | 'departed' | 'delay' | 'issue';
/** The event types a person may add by hand (the others are recorded by the server). */
export const manualTourEventTypes = ['note', 'delay', 'issue', 'arrived', 'departed'] as const;

/** Who acts on a tour, as the command handler established it from the caller. */
export type TourActor = {
  userId: string | null;
  /** 'system' for the geofence, the scheduler and follow-ups of other aggregates. */
  party: 'shipper' | 'carrier' | 'driver' | 'admin' | 'system';
  organizationId: string | null;
};

export type RatingEntry = { criteria: number; rating: number };

export type TourOpened = Event<
  'TourOpened',
  {
    tourId: string;
    loadId: string;
    loadGuid: string;
    proposalId: string;
    shipperOrganizationId: string;
    carrierOrganizationId: string;
    price: number;
    eldTruckName: string | null;
    stops: TourStop[];
    openedAt: string;
  }
>;
export type CarrierConfirmed = Event<
  'CarrierConfirmed',
  { tourId: string; contractFileId: string; confirmedAt: string }
>;
export type TourAssigned = Event<
  'TourAssigned',
  {
    tourId: string;
    assigneeId: string;
    assigneeName: string;
    previousAssigneeId: string | null;
    assignedBy: string | null;
    assignedAt: string;
    /** The truck the carrier sends to the dock; absent from assignments written before it was asked. */
    tractorNumber?: string | null;
    trailerNumber?: string | null;
    /**
     * The release code's secret for this driver on this tour, sealed with the server's key (bound to
     * the tour); a new assignment draws a new one, so a former driver's codes stop working.
     */
    sealedReleaseSecret?: string;
  }
>;
export type TourStatusChanged = Event<
  'TourStatusChanged',
  {
    tourId: string;
    from: TourStatusId;
    to: TourStatusId;
    message: string;
    changedBy: string | null;
    party: TourActor['party'];
    changedAt: string;
  }
>;
export type TourEventAdded = Event<
  'TourEventAdded',
  {
    tourId: string;
    eventId: string;
    type: TourEventType;
    message: string;
    stopId: string | null;
    addedBy: string | null;
    at: string;
  }
>;
/** `side` is the side that rated; `ratedOrganizationId` the other side's organization. */
export type TourRated = Event<
  'TourRated',
  {
    tourId: string;
    side: RatingSide;
    ratedOrganizationId: string;
    ratings: RatingEntry[];
    ratedBy: string;
    ratedAt: string;
  }
>;
export type TourCanceled = Event<
  'TourCanceled',
  {
    tourId: string;
    from: TourStatusId;
    message: string;
    party: TourActor['party'];
    canceledBy: string | null;
    canceledAt: string;
  }
>;

/**
 * A tracking link for someone outside the shipment (the receiver): read-only, until `expiresAt`
 * or its revocation. Only the token's SHA-256 is kept; the token itself is shown once, to its creator.
 */
export type TourShared = Event<
  'TourShared',
  {
    tourId: string;
    shareId: string;
    tokenHash: string;
    organizationId: string;
    sharedBy: string;
    expiresAt: string;
    sharedAt: string;
  }
>;
export type TourShareRevoked = Event<
  'TourShareRevoked',
  { tourId: string; shareId: string; revokedBy: string; revokedAt: string }
>;

/** A file of a proof of delivery: a photo of the goods or the receiver's signature, stored once (`files`, owned by the tour). */
export type ProofFile = { id: string; kind: 'photo' | 'signature'; name: string };
/**
 * The proof that the goods were handed over: who received them, an optional note, photos and a
 * signature. Recorded by the assigned driver from the arrival at the last stop until Delivered;
 * `proofId` comes from the driver's phone, so a proof sent twice (a retry) is recorded once.
 */
export type ProofOfDeliveryRecorded = Event<
  'ProofOfDeliveryRecorded',
  {
    tourId: string;
    proofId: string;
    receivedBy: string;
    note: string | null;
    files: ProofFile[];
    recordedBy: string;
    recordedAt: string;
  }
>;

/**
 * A link for the pickup dock (no sign-in): shows who should come and takes the driver's release
 * code. Made by the tour's shipper; only the token's SHA-256 is kept.
 */
export type DockLinkCreated = Event<
  'DockLinkCreated',
  {
    tourId: string;
    linkId: string;
    tokenHash: string;
    organizationId: string;
    createdBy: string;
    expiresAt: string;
    createdAt: string;
  }
>;
export type DockLinkRevoked = Event<
  'DockLinkRevoked',
  { tourId: string; linkId: string; revokedBy: string; revokedAt: string }
>;

/** Why the dock held a pickup: the code, the tractor, or where the ELD puts the truck. */
export const pickupHoldReasons = ['wrong_code', 'tractor_mismatch', 'truck_far_away'] as const;
export type PickupHoldReason = (typeof pickupHoldReasons)[number];

/** What the dock entered and what the server checked, as both outcomes record it. */
export type DockReleaseEvidence = {
  tourId: string;
  linkId: string;
  /** The assigned driver the code was checked against. */
  driverId: string | null;
  codeVerified: boolean;
  /** The tractor number the dock typed, if any, and the one the carrier assigned. */
  tractorNumberEntered: string | null;
  tractorNumberAssigned: string | null;
  /** Miles from the truck's last ELD position to the pickup stop; null without an ELD position. */
  eldDistanceMiles: number | null;
  eldPositionAt: string | null;
  /** Who entered it: the dock, through its link (no person signs in there). */
  enteredBy: 'dock_link';
  /** The try on this link, from 1. */
  attempt: number;
  at: string;
};
export type PickupReleased = Event<'PickupReleased', DockReleaseEvidence>;
export type PickupHeld = Event<'PickupHeld', DockReleaseEvidence & { reasons: PickupHoldReason[] }>;

/**
 * The shipper confirms the delivery on the recorded proof (`proofId`, the latest): the tour is
 * Delivered from then on and the carrier's invoice is drafted. Once per tour.
 */
export type DeliveryConfirmed = Event<
  'DeliveryConfirmed',
  {
    tourId: string;
    loadId: string;
    proofId: string;
    shipperOrganizationId: string;
    carrierOrganizationId: string;
    confirmedBy: string | null;
    confirmedAt: string;
  }
>;

export type TourEvent =
  | TourOpened
  | CarrierConfirmed
  | TourAssigned
  | TourStatusChanged
  | TourEventAdded
  | TourRated
  | TourCanceled
  | TourShared
  | TourShareRevoked
  | ProofOfDeliveryRecorded
  | DockLinkCreated
  | DockLinkRevoked
  | PickupReleased
  | PickupHeld
  | DeliveryConfirmed;
