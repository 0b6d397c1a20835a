/**
 * The proposal's rules (docs/domain.md "Proposal"): a pure evolve over its events and one function per
 * command. Which load a proposal belongs to, and whether that load is open, the command handler
 * reads from the load stream and passes in (`loadOpen`).
 */
import { createHash } from 'node:crypto';
import { GenericStatus, genericStatuses, nameById } from '../catalog.ts';
import { IllegalStateError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { assertNever, type Decider } from '../shared/event.ts';
import type {
  AcceptCounter,
  AcceptOffer,
  WithdrawOffer,
  CounterOffer,
  DeclineOffer,
  Offer,
  OfferCommand,
  OfferEvent,
  OfferStatus,
  SubmitOffer,
  SubmittedOffer,
  UploadContract,
} from './offer.types.ts';

export const offerStatusName = (status: OfferStatus): string =>
  nameById(genericStatuses, status) ?? String(status);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An RFC 4122 name-based UUID (version 5, SHA-1): the same name in the same namespace gives the same id. */
export const uuidV5 = (name: string, namespace: string): string => {
  if (!UUID.test(namespace)) throw new Error(`Not a UUID: ${namespace}`);
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** Fixed for good: changing it would give every existing carrier a second proposal on its loads. */
const OFFER_NAMESPACE = '3f1d7c62-9b4e-4a0c-8e25-6d0b9c4f7a13';

/** The one proposal stream of a carrier organization on a load, so that a second submit finds the first. */
export const offerIdFor = (loadId: string, carrierOrganizationId: string): string =>
  uuidV5(`${loadId}:${carrierOrganizationId}`, OFFER_NAMESPACE);

export const initialOffer = (): Offer => ({ exists: false });

export const evolveOffer = (state: Offer, event: OfferEvent): Offer => {
  if (event.type === 'ProposalSubmitted') {
    // Also a fresh offer after a Declined or Canceled one: nothing of the old one carries over.
    const {
      proposalId: offerId,
      loadId,
      loadGuid,
      shipperOrganizationId,
      carrierOrganizationId,
      submittedBy,
      price,
      message,
      eldTruckName,
      submittedAt,
    } = event.data;
    return {
      exists: true,
      proposalId: offerId,
      loadId,
      loadGuid,
      shipperOrganizationId,
      carrierOrganizationId,
      submittedBy,
      status: GenericStatus.SubmittedProposal,
      price,
      counterPrice: null,
      message,
      eldTruckName,
      tourId: null,
      contractFileId: null,
      submittedAt,
      updatedAt: submittedAt,
    };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case 'ProposalRevised': {
      const { price, message, eldTruckName, revisedAt } = event.data;
      return {
        ...state,
        status: GenericStatus.SubmittedProposal,
        price,
        counterPrice: null,
        message,
        eldTruckName,
        updatedAt: revisedAt,
      };
    }
    case 'ProposalCountered':
      return {
        ...state,
        status: GenericStatus.PendingAcceptance,
        counterPrice: event.data.price,
        updatedAt: event.data.counteredAt,
      };
    case 'CounterAccepted':
      return {
        ...state,
        status: GenericStatus.SubmittedProposal,
        price: event.data.price,
        counterPrice: null,
        updatedAt: event.data.acceptedAt,
      };
    case 'ProposalAccepted':
      return {
        ...state,
        status: GenericStatus.Accepted,
        tourId: event.data.tourId,
        updatedAt: event.data.acceptedAt,
      };
    case 'ProposalDeclined':
      return {
        ...state,
        status: GenericStatus.Declined,
        counterPrice: null,
        updatedAt: event.data.declinedAt,
      };
    case 'ProposalCanceled':
      return {
        ...state,
        status: GenericStatus.Canceled,
        counterPrice: null,
        updatedAt: event.data.canceledAt,
      };
    case 'ContractUploaded':
      return {
        ...state,
        status: GenericStatus.Confirmed,
        contractFileId: event.data.contractFileId,
        updatedAt: event.data.uploadedAt,
      };
    default:
      return assertNever(event);
  }
};

export const decideOffer = (command: OfferCommand, state: Offer): OfferEvent[] => {
  switch (command.type) {
    case 'SubmitOffer':
      return submitOffer(command, state);
    case 'CounterOffer':
      return counterOffer(command, shipperSide(state, command.data.by));
    case 'AcceptCounter':
      return acceptCounter(command, carrierSide(state, command.data.by));
    case 'AcceptOffer':
      return acceptOffer(command, shipperSide(state, command.data.by));
    case 'DeclineOffer':
      return declineOffer(command, shipperSide(state, command.data.by));
    case 'WithdrawOffer':
      return withdrawOffer(command, carrierSide(state, command.data.by));
    case 'UploadContract':
      return uploadContract(command, carrierSide(state, command.data.by));
    default:
      return assertNever(command);
  }
};

export const offerDecider: Decider<Offer, OfferCommand, OfferEvent> = {
  initialState: initialOffer,
  evolve: evolveOffer,
  decide: decideOffer,
};

/**
 * The proposal, when `by` is the party allowed to act (null: a Superadmin or the system). Anyone
 * else gets "not found", so that one carrier learns nothing of another's offer.
 */
const party =
  (side: 'shipperOrganizationId' | 'carrierOrganizationId') =>
  (state: Offer, by: string | null): SubmittedOffer => {
    if (!state.exists || (by !== null && by !== state[side]))
      throw new NotFoundError('Proposal not found');
    return state;
  };
const shipperSide = party('shipperOrganizationId');
const carrierSide = party('carrierOrganizationId');

const isOpen = (status: OfferStatus) =>
  status === GenericStatus.SubmittedProposal || status === GenericStatus.PendingAcceptance;

const refuse = (state: SubmittedOffer, action: string): never => {
  throw new IllegalStateError(
    `An offer that is ${offerStatusName(state.status)} cannot be ${action}`,
  );
};

const LOAD_CLOSED = 'This load is no longer open for offers';

/** A price in dollars and cents, above zero. */
const checkPrice = (price: number) => {
  const cents = price * 100;
  if (!Number.isFinite(price) || price <= 0 || Math.abs(cents - Math.round(cents)) > 1e-6) {
    throw ValidationError.field('price', 'Please enter a price greater than 0');
  }
};

const submitOffer = ({ data }: SubmitOffer, state: Offer): OfferEvent[] => {
  if (
    state.exists &&
    (state.carrierOrganizationId !== data.carrierOrganizationId || state.loadId !== data.loadId)
  ) {
    throw new NotFoundError('Proposal not found');
  }
  if (
    state.exists &&
    !isOpen(state.status) &&
    state.status !== GenericStatus.Declined &&
    state.status !== GenericStatus.Canceled
  ) {
    refuse(state, 'changed');
  }
  if (!data.loadOpen) throw new IllegalStateError(LOAD_CLOSED);
  checkPrice(data.price);
  if (state.exists && isOpen(state.status)) {
    return [
      {
        type: 'ProposalRevised',
        data: {
          proposalId: state.proposalId,
          price: data.price,
          message: data.message,
          eldTruckName: data.eldTruckName,
          revisedBy: data.userId,
          revisedAt: data.now,
        },
      },
    ];
  }
  return [
    {
      type: 'ProposalSubmitted',
      data: {
        proposalId: data.proposalId,
        loadId: data.loadId,
        loadGuid: data.loadGuid,
        shipperOrganizationId: data.shipperOrganizationId,
        carrierOrganizationId: data.carrierOrganizationId,
        submittedBy: data.userId,
        price: data.price,
        message: data.message,
        eldTruckName: data.eldTruckName,
        submittedAt: data.now,
      },
    },
  ];
};

const counterOffer = ({ data }: CounterOffer, state: SubmittedOffer): OfferEvent[] => {
  if (state.status !== GenericStatus.SubmittedProposal) refuse(state, 'countered');
  if (!data.loadOpen) throw new IllegalStateError(LOAD_CLOSED);
  checkPrice(data.price);
  return [
    {
      type: 'ProposalCountered',
      data: {
        proposalId: state.proposalId,
        price: data.price,
        message: data.message,
        counteredBy: data.userId,
        counteredAt: data.now,
      },
    },
  ];
};

const acceptCounter = ({ data }: AcceptCounter, state: SubmittedOffer): OfferEvent[] => {
  const { counterPrice } = state;
  if (state.status !== GenericStatus.PendingAcceptance || counterPrice === null) {
    throw new IllegalStateError(
      `An offer that is ${offerStatusName(state.status)} has no counter offer to accept`,
    );
  }
  if (!data.loadOpen) throw new IllegalStateError(LOAD_CLOSED);
  return [
    {
      type: 'CounterAccepted',
      data: {
        proposalId: state.proposalId,
        price: counterPrice,
        acceptedBy: data.userId,
        acceptedAt: data.now,
      },
    },
  ];
};

const acceptOffer = ({ data }: AcceptOffer, state: SubmittedOffer): OfferEvent[] => {
  if (state.status === GenericStatus.PendingAcceptance) {
    throw new IllegalStateError(
      'An offer that is Pending Acceptance cannot be accepted: the carrier has not answered the counter offer',
    );
  }
  if (state.status !== GenericStatus.SubmittedProposal) refuse(state, 'accepted');
  return [
    {
      type: 'ProposalAccepted',
      data: {
        proposalId: state.proposalId,
        loadId: state.loadId,
        tourId: data.tourId,
        price: state.price,
        acceptedBy: data.userId,
        acceptedAt: data.now,
      },
    },
  ];
};

/** The automatic declines (another offer won, the load was cancelled) leave a closed proposal alone. */
const declineOffer = ({ data }: DeclineOffer, state: SubmittedOffer): OfferEvent[] => {
  if (!isOpen(state.status)) return data.reason === 'shipper' ? refuse(state, 'declined') : [];
  return [
    {
      type: 'ProposalDeclined',
      data: {
        proposalId: state.proposalId,
        reason: data.reason,
        message: data.message,
        declinedBy: data.userId,
        declinedAt: data.now,
      },
    },
  ];
};

const withdrawOffer = ({ data }: WithdrawOffer, state: SubmittedOffer): OfferEvent[] => {
  if (!isOpen(state.status)) refuse(state, 'withdrawn');
  return [
    {
      type: 'ProposalCanceled',
      data: {
        proposalId: state.proposalId,
        message: data.message,
        canceledBy: data.userId,
        canceledAt: data.now,
      },
    },
  ];
};

/** A second upload replaces the signed contract's file. */
const uploadContract = ({ data }: UploadContract, state: SubmittedOffer): OfferEvent[] => {
  if (state.status !== GenericStatus.Accepted && state.status !== GenericStatus.Confirmed) {
    throw new IllegalStateError(
      `A contract cannot be uploaded for an offer that is ${offerStatusName(state.status)}`,
    );
  }
  return [
    {
      type: 'ContractUploaded',
      data: {
        proposalId: state.proposalId,
        loadId: state.loadId,
        contractFileId: data.contractFileId,
        uploadedBy: data.userId,
        uploadedAt: data.now,
      },
    },
  ];
};
