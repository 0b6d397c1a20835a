/**
 * The offer's rules (docs/domain.md "Proposal"): a pure evolve over its events and one function per
 * command. Which load an offer belongs to, and whether that load is open, the command handler
 * reads from the load stream and passes in (`loadOpen`).
 */
import { NotFoundError } from '../shared/errors.ts';
import { assertNever, type Decider } from '../shared/event.ts';
import type { Offer, OfferCommand, OfferEvent, SubmittedOffer } from './offer.types.ts';
import { evolveOffer, initialOffer } from './offer.evolve.ts';
import {
  acceptCounter,
  counterOffer,
  declineOffer,
  submitOffer,
  withdrawOffer,
} from './offerNegotiation.decide.ts';
import { acceptOffer, bookOffer, uploadContract } from './offerAcceptance.decide.ts';

export { evolveOffer, initialOffer } from './offer.evolve.ts';
export { offerIdFor, uuidV5 } from './offerId.ts';
export { offerStatusName } from './offerRules.ts';

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
    case 'BookOffer':
      return bookOffer(command, state);
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
 * The offer, when `by` is the party allowed to act (null: a Superadmin or the system). Anyone
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
