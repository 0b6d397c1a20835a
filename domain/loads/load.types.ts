/**
 * The load aggregate (stream `load-<uuid>`): a shipment a shipper posts to the marketplace, from
 * posting to completion (docs/domain.md "Load"). Types only; rules are in `load.decide.ts`.
 */
import type { GenericStatus, LocationTypeId, TimeZoneId, TourStatusId } from '../catalog.ts';
import type { Command, Event } from '../shared/event.ts';
import type { AccessorialTerms } from './terms.ts';

export const loadStream = (loadId: string): string => `load-${loadId}`;

/** Loads use the generic statuses 4 Created, 5 Accepted, 6 Signed, 7 Canceled, 8 Paused, 9 Completed. */
export type LoadStatus =
  | typeof GenericStatus.Created
  | typeof GenericStatus.Accepted
  | typeof GenericStatus.Signed
  | typeof GenericStatus.Canceled
  | typeof GenericStatus.Paused
  | typeof GenericStatus.Completed;

/** One stop of a load, as stored (ids assigned by the server). */
export type LoadStop = {
  id: string;
  locationType: LocationTypeId;
  /** The place as picked from the place search, e.g. "Chicago, IL 60607". */
  address: string;
  city: string | null;
  state: string | null;
  /** Facility name (at least 3 characters). */
  name: string;
  latitude: number;
  longitude: number;
  contactName: string | null;
  contactPhone: string | null;
  /** Pickup or dropoff number (location types 1 and 4 only). */
  number: string | null;
};

/** Everything the shipper describes; times are ISO 8601 instants (UTC). */
export type LoadDetails = {
  pickupStart: string;
  pickupEnd: string | null;
  pickupTimezone: TimeZoneId;
  dropoffStart: string;
  dropoffEnd: string | null;
  dropoffTimezone: TimeZoneId;
  expiration: string;
  expirationTimezone: TimeZoneId;
  loadTypeId: number;
  rate: number;
  rateTypeId: number;
  carriersSortingTypeId: number | null;
  accessories: number[];
  /** Trailer type ids (catalog `trailerTypes`). */
  equipment: number[];
  description: string;
  weight: number;
  commodity: string;
  refNumber: string;
  /** In route order: the pickup first, extra stops, the dropoff last. */
  stops: LoadStop[];
  /**
   * The accessorial terms the shipper posts the load with; null: no terms. Absent in the events of
   * loads posted before terms existed (read as null).
   */
  terms?: AccessorialTerms | null;
  /**
   * The Book Now price: an Active carrier may book the load at it in one step. Null or absent: the
   * load only takes offers.
   */
  bookNowPrice?: number | null;
  /**
   * Who sees the load first: for `preferredOnlyHours` hours after posting only the shipper's
   * preferred carriers, then the whole marketplace. Absent or null (or 0 hours): everyone at once.
   */
  audience?: LoadAudience | null;
};

/** The load's audience window (docs/domain.md "Preferred and blocked carriers"). */
export type LoadAudience = { preferredOnlyHours: number };

/** When a preferred-only load opens to the marketplace: its posting plus the window; null without one. */
export const opensAtOf = (postedAt: string, audience: LoadAudience | null | undefined) =>
  audience && audience.preferredOnlyHours > 0
    ? new Date(Date.parse(postedAt) + audience.preferredOnlyHours * 3_600_000).toISOString()
    : null;

/**
 * The audience as the API shows it: the window's hours and when the load opens to everyone (null
 * once it has); null for a load without a window.
 */
export const audienceAnswerOf = (
  postedAt: string,
  audience: LoadAudience | null | undefined,
  opened: boolean,
): { preferredOnlyHours: number; opensAt: string | null } | null => {
  const opensAt = opensAtOf(postedAt, audience);
  if (opensAt === null) return null;
  return { preferredOnlyHours: audience!.preferredOnlyHours, opensAt: opened ? null : opensAt };
};

export type LoadPosted = Event<
  'LoadPosted',
  {
    loadId: string;
    /** Human reference such as L-000123. */
    guid: string;
    shipperOrganizationId: string;
    postedBy: string;
    details: LoadDetails;
    postedAt: string;
  }
>;
export type LoadUpdated = Event<
  'LoadUpdated',
  { loadId: string; details: LoadDetails; updatedBy: string; updatedAt: string }
>;
/** `reopened` when the load was Paused and is Created again. */
export type LoadExpirationExtended = Event<
  'LoadExpirationExtended',
  {
    loadId: string;
    expiration: string;
    expirationTimezone: TimeZoneId;
    reopened: boolean;
    extendedAt: string;
  }
>;
/** The preferred-only window of a load passed: the whole marketplace sees it from now on. */
export type LoadOpenedToMarketplace = Event<
  'LoadOpenedToMarketplace',
  { loadId: string; openedAt: string }
>;
export type LoadExpired = Event<'LoadExpired', { loadId: string; expiredAt: string }>;
export type LoadCanceled = Event<
  'LoadCanceled',
  { loadId: string; message: string; previousStatus: LoadStatus; canceledAt: string }
>;
export type LoadProposalAccepted = Event<
  'LoadProposalAccepted',
  {
    loadId: string;
    proposalId: string;
    carrierOrganizationId: string;
    price: number;
    tourId: string;
    acceptedAt: string;
    /** The agreed terms: the accepted offer's own, else the load's (absent before terms existed). */
    terms?: AccessorialTerms | null;
    /** The carrier booked the load at its Book Now price (absent: the shipper accepted an offer). */
    bookedNow?: true;
    /** The carrier's user who booked it (with `bookedNow`). */
    bookedBy?: string;
  }
>;
export type LoadContractSigned = Event<
  'LoadContractSigned',
  { loadId: string; proposalId: string; contractFileId: string; signedAt: string }
>;
export type LoadCompleted = Event<
  'LoadCompleted',
  { loadId: string; tourId: string; completedAt: string }
>;

export type LoadEvent =
  | LoadPosted
  | LoadUpdated
  | LoadExpirationExtended
  | LoadExpired
  | LoadOpenedToMarketplace
  | LoadCanceled
  | LoadProposalAccepted
  | LoadContractSigned
  | LoadCompleted;

/**
 * `by` is the acting organization; null for a Superadmin (who may act on any load) or the system.
 * A load of another organization is "not found" (404), never "forbidden".
 */
export type PostLoad = Command<
  'PostLoad',
  {
    loadId: string;
    guid: string;
    organizationId: string;
    userId: string;
    details: LoadDetails;
    now: string;
  }
>;
export type UpdateLoad = Command<
  'UpdateLoad',
  { loadId: string; by: string | null; userId: string; details: LoadDetails; now: string }
>;
export type ExtendExpiration = Command<
  'ExtendExpiration',
  {
    loadId: string;
    by: string | null;
    expiration: string;
    expirationTimezone: TimeZoneId;
    now: string;
  }
>;
/** Run by the scheduler; does nothing unless the load is Created and its expiration has passed. */
export type ExpireLoad = Command<'ExpireLoad', { loadId: string; now: string }>;
/** Run by the scheduler; does nothing unless the load is Created, preferred-only and its window has passed. */
export type OpenLoadToMarketplace = Command<
  'OpenLoadToMarketplace',
  { loadId: string; now: string }
>;
/** `tourStatus`: the load's tour status when a tour exists (an In Transit load cannot be cancelled). */
export type CancelLoad = Command<
  'CancelLoad',
  {
    loadId: string;
    by: string | null;
    message: string;
    tourStatus: TourStatusId | null;
    now: string;
  }
>;
export type AcceptOfferForLoad = Command<
  'AcceptOfferForLoad',
  {
    loadId: string;
    by: string | null;
    proposalId: string;
    carrierOrganizationId: string;
    price: number;
    tourId: string;
    terms?: AccessorialTerms | null;
    now: string;
  }
>;
/** A carrier books the load at its Book Now price: an acceptance decided by the load stream alone. */
export type BookLoad = Command<
  'BookLoad',
  {
    loadId: string;
    proposalId: string;
    carrierOrganizationId: string;
    userId: string;
    tourId: string;
    now: string;
  }
>;
export type SignContract = Command<
  'SignContract',
  { loadId: string; proposalId: string; contractFileId: string; now: string }
>;
export type CompleteLoad = Command<'CompleteLoad', { loadId: string; tourId: string; now: string }>;

export type LoadCommand =
  | PostLoad
  | UpdateLoad
  | ExtendExpiration
  | ExpireLoad
  | OpenLoadToMarketplace
  | CancelLoad
  | AcceptOfferForLoad
  | BookLoad
  | SignContract
  | CompleteLoad;

export type PostedLoad = {
  posted: true;
  loadId: string;
  guid: string;
  shipperOrganizationId: string;
  postedBy: string;
  postedAt: string;
  status: LoadStatus;
  details: LoadDetails;
  acceptedProposalId: string | null;
  carrierOrganizationId: string | null;
  price: number | null;
  /** The terms agreed at the acceptance (null before one, or when none were agreed). */
  agreedTerms?: AccessorialTerms | null;
  /** The carrier's user who booked the load at its Book Now price; absent or null: no booking. */
  bookedBy?: string | null;
  tourId: string | null;
  contractFileId: string | null;
  cancelMessage: string | null;
  /** The preferred-only window ended (LoadOpenedToMarketplace): everyone sees the load. */
  openedToMarketplace?: boolean;
  updatedAt: string;
};
export type Load = { posted: false } | PostedLoad;
