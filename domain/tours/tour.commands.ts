/** What may be asked of a tour: one command per decision of `tour.decide.ts`. */
import type { TourStatusId } from '../catalog.ts';
import type { Command } from '../shared/event.ts';
import type {
  ProofFile,
  RatingEntry,
  TourActor,
  TourEventType,
  TourOpened,
} from './tour.events.ts';

export type OpenTour = Command<'OpenTour', Omit<TourOpened['data'], 'openedAt'> & { now: string }>;
export type ConfirmCarrier = Command<
  'ConfirmCarrier',
  { tourId: string; contractFileId: string; now: string }
>;
/** The handler checked that the assignee is an Active driver of the carrier organization. */
export type AssignTour = Command<
  'AssignTour',
  {
    tourId: string;
    actor: TourActor;
    assigneeId: string;
    assigneeName: string;
    tractorNumber?: string | null;
    trailerNumber?: string | null;
    sealedReleaseSecret?: string;
    now: string;
  }
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

/** The handler drew the dock link's token and hashed it; the decider checks who makes it. */
export type CreateDockLink = Command<
  'CreateDockLink',
  {
    tourId: string;
    actor: TourActor;
    linkId: string;
    tokenHash: string;
    expiresAt: string;
    now: string;
  }
>;
export type RevokeDockLink = Command<
  'RevokeDockLink',
  { tourId: string; actor: TourActor; linkId: string; now: string }
>;
/**
 * What the dock entered through its link, with what the handler checked outside the tour: whether
 * the code matches the assigned driver's code of the moment, and where the ELD last put the truck.
 */
export type RecordDockRelease = Command<
  'RecordDockRelease',
  {
    tourId: string;
    linkId: string;
    codeVerified: boolean;
    tractorNumberEntered: string | null;
    eldDistanceMiles: number | null;
    eldPositionAt: string | null;
    now: string;
  }
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

/** The shipper confirms the delivery once a proof of delivery is recorded. */
export type ConfirmDelivery = Command<
  'ConfirmDelivery',
  { tourId: string; actor: TourActor; now: string }
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
  | RecordProofOfDelivery
  | CreateDockLink
  | RevokeDockLink
  | RecordDockRelease
  | ConfirmDelivery;
