/**
 * The tour aggregate (stream `tour-<uuid>`): the run of one accepted load, from the acceptance to
 * the delivery and the ratings (docs/domain.md "Tour" and "Ratings"). Positions live in their own stream
 * (`tourpositions-<tourId>`); the tour stream only records what they caused (arrivals, departures,
 * the move to In Transit). Tour chat lives in `tourchat-<tourId>`. Types only; rules are in
 * `tour.decide.ts`.
 */
import type { LocationTypeId, RatingSide, TourStatusId } from '../catalog.ts';
import type { Command, Event } from '../shared/event.ts';

export const tourStream = (tourId: string): string => `tour-${tourId}`;
export const tourPositionsStream = (tourId: string): string => `tourpositions-${tourId}`;
export const tourChatStream = (tourId: string): string => `tourchat-${tourId}`;

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

export type OpenTour = Command<'OpenTour', Omit<TourOpened['data'], 'openedAt'> & { now: string }>;
export type ConfirmCarrier = Command<
  'ConfirmCarrier',
  { tourId: string; contractFileId: string; now: string }
>;
/** The handler checked that the assignee is an Active driver of the carrier organization. */
export type AssignTour = Command<
  'AssignTour',
  { tourId: string; actor: TourActor; assigneeId: string; assigneeName: string; now: string }
>;
export type ChangeTourStatus = Command<
  'ChangeTourStatus',
  { tourId: string; actor: TourActor; to: TourStatusId; message: string; now: string }
>;
export type AddTourEvent = Command<
  'AddTourEvent',
  {
    tourId: string;
    actor: TourActor;
    eventId: string;
    type: TourEventType;
    message: string;
    stopId: string | null;
    now: string;
  }
>;
/**
 * A position of the truck, already appended to the positions stream. The decider applies the
 * geofence rule: within `GEOFENCE_METERS` of a stop records an arrival once, leaving records a
 * departure, and departing the first pickup moves a Dispatched tour to In Transit.
 */
export type ObservePosition = Command<
  'ObservePosition',
  { tourId: string; latitude: number; longitude: number; recordedAt: string; now: string }
>;
export type RateTour = Command<
  'RateTour',
  { tourId: string; actor: TourActor; ratings: RatingEntry[]; now: string }
>;
export type CancelTour = Command<
  'CancelTour',
  { tourId: string; actor: TourActor; message: string; now: string }
>;

/** The handler drew the token and hashed it; the decider checks who shares. */
export type ShareTour = Command<
  'ShareTour',
  {
    tourId: string;
    actor: TourActor;
    shareId: string;
    tokenHash: string;
    expiresAt: string;
    now: string;
  }
>;
export type RevokeTrackingLink = Command<
  'RevokeTrackingLink',
  { tourId: string; actor: TourActor; shareId: string; now: string }
>;

/** The handler stored the files and checked their bytes; the decider checks who records and when. */
export type RecordProofOfDelivery = Command<
  'RecordProofOfDelivery',
  {
    tourId: string;
    actor: TourActor;
    proofId: string;
    receivedBy: string;
    note: string | null;
    files: ProofFile[];
    now: string;
  }
>;

export type TourCommand =
  | OpenTour
  | ConfirmCarrier
  | AssignTour
  | ChangeTourStatus
  | AddTourEvent
  | ObservePosition
  | RateTour
  | CancelTour
  | ShareTour
  | RevokeTrackingLink
  | RecordProofOfDelivery;

export type OpenedTour = {
  exists: true;
  tourId: string;
  loadId: string;
  loadGuid: string;
  proposalId: string;
  shipperOrganizationId: string;
  carrierOrganizationId: string;
  price: number;
  eldTruckName: string | null;
  stops: TourStop[];
  status: TourStatusId;
  assigneeId: string | null;
  assigneeName: string | null;
  contractFileId: string | null;
  /** The stop the truck is inside (geofence), if any. */
  insideStopId: string | null;
  arrivedStopIds: string[];
  departedStopIds: string[];
  ratings: { shipper: RatingEntry[] | null; carrier: RatingEntry[] | null };
  /** The tracking links not revoked (expired ones included: expiry is a matter of the clock), with the organization that made each. */
  shares: { shareId: string; organizationId: string }[];
  /** The proofs of delivery, oldest first. */
  proofs: ProofOfDelivery[];
  openedAt: string;
  updatedAt: string;
};
export type Tour = { exists: false } | OpenedTour;
export type ProofOfDelivery = {
  proofId: string;
  receivedBy: string;
  note: string | null;
  files: ProofFile[];
  recordedBy: string;
  recordedAt: string;
};

/** Chat (stream `tourchat-<tourId>`). */
export type MessagePosted = Event<
  'MessagePosted',
  {
    tourId: string;
    messageId: string;
    userId: string;
    userName: string;
    organizationId: string | null;
    text: string;
    postedAt: string;
  }
>;
export type PostMessage = Command<
  'PostMessage',
  {
    tourId: string;
    messageId: string;
    userId: string;
    userName: string;
    organizationId: string | null;
    text: string;
    now: string;
  }
>;

/** One reading of the truck's place: what the driver's phone or the ELD sends. */
export type TourPosition = {
  latitude: number;
  longitude: number;
  speed: number | null;
  heading: number | null;
  accuracy: number | null;
  recordedAt: string;
};

/**
 * Positions (stream `tourpositions-<tourId>`), appended without a decider: only the assigned driver
 * or the ELD poller writes them. A batch is one `PositionsRecorded` (oldest first); logs written
 * before batches hold one `PositionRecorded` per position, and every reader takes both.
 */
export type PositionRecorded = Event<
  'PositionRecorded',
  TourPosition & { tourId: string; source: 'driver' | 'eld' }
>;
export type PositionsRecorded = Event<
  'PositionsRecorded',
  { tourId: string; source: 'driver' | 'eld'; positions: TourPosition[] }
>;

/** The event types that carry positions. */
export const POSITION_EVENT_TYPES: ReadonlySet<string> = new Set([
  'PositionRecorded',
  'PositionsRecorded',
]);

/** The positions an event carries, oldest first, each with its place in the event; none for any other event. */
export function positionsIn(event: {
  type: string;
  data: unknown;
}): (TourPosition & { tourId: string; source: 'driver' | 'eld'; index: number })[] {
  if (event.type === 'PositionRecorded')
    return [{ ...(event.data as PositionRecorded['data']), index: 0 }];
  if (event.type !== 'PositionsRecorded') return [];
  const { tourId, source, positions } = event.data as PositionsRecorded['data'];
  return positions.map((position, index) => ({ ...position, tourId, source, index }));
}
