/**
 * The load's rules (docs/domain.md "Load"): a pure evolve over its events and one function per command.
 * Time comes in the command as `now`; instants are compared as instants, not as strings.
 */
import {
  GenericStatus,
  genericStatuses,
  nameById,
  TourStatus,
  tourStatuses,
  type TourStatusId,
} from '../catalog.ts';
import {
  ConflictError,
  IllegalStateError,
  NotFoundError,
  ValidationError,
} from '../shared/errors.ts';
import { assertNever, type Decider } from '../shared/event.ts';
import type {
  AcceptOfferForLoad,
  CancelLoad,
  CompleteLoad,
  ExpireLoad,
  ExtendExpiration,
  Load,
  LoadCommand,
  LoadDetails,
  LoadEvent,
  LoadStatus,
  PostedLoad,
  PostLoad,
  SignContract,
  UpdateLoad,
} from './load.types.ts';

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

export const decideLoad = (command: LoadCommand, state: Load): LoadEvent[] => {
  switch (command.type) {
    case 'PostLoad':
      return postLoad(command, state);
    case 'UpdateLoad':
      return updateLoad(command, ownLoad(state, command.data.by));
    case 'ExtendExpiration':
      return extendExpiration(command, ownLoad(state, command.data.by));
    case 'ExpireLoad':
      return expireLoad(command, ownLoad(state, null));
    case 'CancelLoad':
      return cancelLoad(command, ownLoad(state, command.data.by));
    case 'AcceptOfferForLoad':
      return acceptOffer(command, ownLoad(state, command.data.by));
    case 'SignContract':
      return signContract(command, ownLoad(state, null));
    case 'CompleteLoad':
      return completeLoad(command, ownLoad(state, null));
    default:
      return assertNever(command);
  }
};

export const loadDecider: Decider<Load, LoadCommand, LoadEvent> = {
  initialState: initialLoad,
  evolve: evolveLoad,
  decide: decideLoad,
};

/**
 * The posted load, when `by` may act on it: null is a Superadmin or the system. Another
 * organization's load is "not found" so that its existence does not leak.
 */
const ownLoad = (state: Load, by: string | null): PostedLoad => {
  if (!state.posted || (by !== null && by !== state.shipperOrganizationId))
    throw new NotFoundError('Load not found');
  return state;
};

const instant = (iso: string): number => Date.parse(iso);

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

const postLoad = ({ data }: PostLoad, state: Load): LoadEvent[] => {
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

const updateLoad = ({ data }: UpdateLoad, state: PostedLoad): LoadEvent[] => {
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

const extendExpiration = ({ data }: ExtendExpiration, state: PostedLoad): LoadEvent[] => {
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
const expireLoad = ({ data }: ExpireLoad, state: PostedLoad): LoadEvent[] => {
  if (
    state.status !== GenericStatus.Created ||
    instant(state.details.expiration) > instant(data.now)
  )
    return [];
  return [{ type: 'LoadExpired', data: { loadId: state.loadId, expiredAt: data.now } }];
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

const cancelLoad = ({ data }: CancelLoad, state: PostedLoad): LoadEvent[] => {
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

const acceptOffer = ({ data }: AcceptOfferForLoad, state: PostedLoad): LoadEvent[] => {
  // Two accepts racing on the same load: the second one reads the first one's acceptance.
  if (state.acceptedProposalId !== null && state.status !== GenericStatus.Canceled) {
    throw new ConflictError('This load already has an accepted offer');
  }
  if (state.status !== GenericStatus.Created) {
    throw new IllegalStateError(
      `This load is ${loadStatusName(state.status)} and no longer open for offers`,
    );
  }
  if (!(instant(data.now) < instant(state.details.expiration)))
    throw new IllegalStateError('This load is no longer open for offers');
  return [
    {
      type: 'LoadProposalAccepted',
      data: {
        loadId: state.loadId,
        proposalId: data.proposalId,
        carrierOrganizationId: data.carrierOrganizationId,
        price: data.price,
        tourId: data.tourId,
        acceptedAt: data.now,
      },
    },
  ];
};

const signContract = ({ data }: SignContract, state: PostedLoad): LoadEvent[] => {
  if (state.status !== GenericStatus.Accepted) {
    throw new IllegalStateError(`A load that is ${loadStatusName(state.status)} cannot be signed`);
  }
  if (data.proposalId !== state.acceptedProposalId)
    throw new IllegalStateError('Only the accepted offer can sign the contract of this load');
  return [
    {
      type: 'LoadContractSigned',
      data: {
        loadId: state.loadId,
        proposalId: data.proposalId,
        contractFileId: data.contractFileId,
        signedAt: data.now,
      },
    },
  ];
};

const completeLoad = ({ data }: CompleteLoad, state: PostedLoad): LoadEvent[] => {
  if (state.status !== GenericStatus.Signed) {
    throw new IllegalStateError(
      `A load that is ${loadStatusName(state.status)} cannot be completed`,
    );
  }
  if (data.tourId !== state.tourId)
    throw new IllegalStateError('Only the tour of this load can complete it');
  return [
    {
      type: 'LoadCompleted',
      data: { loadId: state.loadId, tourId: data.tourId, completedAt: data.now },
    },
  ];
};
