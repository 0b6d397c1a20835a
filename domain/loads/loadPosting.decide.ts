/**
 * A load while it is on the market: posted, edited, its offer expiration extended, expired by the
 * scheduler, or cancelled by its shipper.
 */
import {
  GenericStatus,
  nameById,
  TourStatus,
  tourStatuses,
  type TourStatusId,
} from '../catalog.ts';
import { ConflictError, IllegalStateError, ValidationError } from '../shared/errors.ts';
import type {
  CancelLoad,
  ExpireLoad,
  ExtendExpiration,
  Load,
  LoadDetails,
  LoadEvent,
  LoadStatus,
  OpenLoadToMarketplace,
  PostedLoad,
  PostLoad,
  UpdateLoad,
} from './load.types.ts';
import { opensAtOf } from './load.types.ts';
import { loadStatusName } from './load.evolve.ts';

export const instant = (iso: string): number => Date.parse(iso);

const EXPIRATION_IN_PAST = "Expiration can't be before current date and time.";
const EXPIRATION_AFTER_PICKUP = "Expiration can't be after pickup start date";
const START_IN_PAST = "Start can't be before current date and time.";

/**
 * The offer expiration must lie after now and not after the pickup start. Written as "refuse unless
 * the good case holds" so that an unparsable date is refused too.
 */
const checkExpiration = (expiration: string, pickupStart: string, now: string, path: string) => {
  if (!(instant(expiration) > instant(now))) throw ValidationError.field(path, EXPIRATION_IN_PAST);
  if (!(instant(expiration) <= instant(pickupStart)))
    throw ValidationError.field(path, EXPIRATION_AFTER_PICKUP);
};

/**
 * The rules of the load form that depend on the current time (spec section 5, "Load dates"),
 * checked again here because time passes between the form and the decision.
 */
const checkDates = ({ expiration, pickupStart }: LoadDetails, now: string) => {
  if (!(instant(expiration) > instant(now)))
    throw ValidationError.field('expiration', EXPIRATION_IN_PAST);
  if (!(instant(pickupStart) >= instant(now)))
    throw ValidationError.field('pickupTimestampStart', START_IN_PAST);
  if (!(instant(expiration) <= instant(pickupStart)))
    throw ValidationError.field('expiration', EXPIRATION_AFTER_PICKUP);
};

const isEditable = (status: LoadStatus) =>
  status === GenericStatus.Created || status === GenericStatus.Paused;

export const postLoad = ({ data }: PostLoad, state: Load): LoadEvent[] => {
  if (state.posted) throw new ConflictError(`Load ${state.guid} is already posted`);
  checkDates(data.details, data.now);
  return [
    {
      type: 'LoadPosted',
      data: {
        loadId: data.loadId,
        guid: data.guid,
        shipperOrganizationId: data.organizationId,
        postedBy: data.userId,
        details: data.details,
        postedAt: data.now,
      },
    },
  ];
};

export const updateLoad = ({ data }: UpdateLoad, state: PostedLoad): LoadEvent[] => {
  if (!isEditable(state.status))
    throw new IllegalStateError(`A load that is ${loadStatusName(state.status)} cannot be edited`);
  checkDates(data.details, data.now);
  return [
    {
      type: 'LoadUpdated',
      data: {
        loadId: state.loadId,
        details: data.details,
        updatedBy: data.userId,
        updatedAt: data.now,
      },
    },
  ];
};

export const extendExpiration = ({ data }: ExtendExpiration, state: PostedLoad): LoadEvent[] => {
  if (!isEditable(state.status)) {
    throw new IllegalStateError(
      `A load that is ${loadStatusName(state.status)} cannot have its expiration extended`,
    );
  }
  checkExpiration(data.expiration, state.details.pickupStart, data.now, 'newExpiration');
  return [
    {
      type: 'LoadExpirationExtended',
      data: {
        loadId: state.loadId,
        expiration: data.expiration,
        expirationTimezone: data.expirationTimezone,
        reopened: state.status === GenericStatus.Paused,
        extendedAt: data.now,
      },
    },
  ];
};

/** The scheduler may run this any number of times: it only acts on a Created load whose offer has run out. */
export const expireLoad = ({ data }: ExpireLoad, state: PostedLoad): LoadEvent[] => {
  if (
    state.status !== GenericStatus.Created ||
    instant(state.details.expiration) > instant(data.now)
  )
    return [];
  return [{ type: 'LoadExpired', data: { loadId: state.loadId, expiredAt: data.now } }];
};

/**
 * The scheduler may run this any number of times: it only opens a Created load whose preferred-only
 * window has passed and that is not open to everyone already.
 */
export const openLoadToMarketplace = (
  { data }: OpenLoadToMarketplace,
  state: PostedLoad,
): LoadEvent[] => {
  const opensAt = opensAtOf(state.postedAt, state.details.audience);
  if (
    state.status !== GenericStatus.Created ||
    state.openedToMarketplace ||
    opensAt === null ||
    instant(opensAt) > instant(data.now)
  )
    return [];
  return [{ type: 'LoadOpenedToMarketplace', data: { loadId: state.loadId, openedAt: data.now } }];
};

const cancelableStatuses: readonly LoadStatus[] = [
  GenericStatus.Created,
  GenericStatus.Paused,
  GenericStatus.Accepted,
  GenericStatus.Signed,
];
/** Once the goods are on the truck the shipment runs to its end. DeliveredLegacy is never produced; refused all the same. */
const uncancelableTourStatuses: readonly TourStatusId[] = [
  TourStatus.InTransit,
  TourStatus.PendingDeliveryConfirmation,
  TourStatus.Delivered,
  TourStatus.DeliveredLegacy,
];

export const cancelLoad = ({ data }: CancelLoad, state: PostedLoad): LoadEvent[] => {
  if (!cancelableStatuses.includes(state.status)) {
    throw new IllegalStateError(
      `A load that is ${loadStatusName(state.status)} cannot be canceled`,
    );
  }
  if (data.tourStatus !== null && uncancelableTourStatuses.includes(data.tourStatus)) {
    throw new IllegalStateError(
      `A load that is ${nameById(tourStatuses, data.tourStatus)} cannot be canceled`,
    );
  }
  const message = data.message.trim();
  if (message === '') throw ValidationError.field('message', 'Please enter a message');
  return [
    {
      type: 'LoadCanceled',
      data: { loadId: state.loadId, message, previousStatus: state.status, canceledAt: data.now },
    },
  ];
};
