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
  | ProofOfDeliveryRecorded;
