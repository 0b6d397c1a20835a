/**
 * The load's rules (docs/domain.md "Load"): a pure evolve over its events and one function per command.
 * Time comes in the command as `now`; instants are compared as instants, not as strings.
 */
import { NotFoundError } from '../shared/errors.ts';
import { assertNever, type Decider } from '../shared/event.ts';
import type { Load, LoadCommand, LoadEvent, PostedLoad } from './load.types.ts';
import { evolveLoad, initialLoad } from './load.evolve.ts';
import {
  cancelLoad,
  expireLoad,
  extendExpiration,
  openLoadToMarketplace,
  postLoad,
  updateLoad,
} from './loadPosting.decide.ts';
import { acceptOffer, bookLoad, completeLoad, signContract } from './loadBooking.decide.ts';

export { evolveLoad, initialLoad, loadStatusName } from './load.evolve.ts';

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
    case 'OpenLoadToMarketplace':
      return openLoadToMarketplace(command, ownLoad(state, null));
    case 'CancelLoad':
      return cancelLoad(command, ownLoad(state, command.data.by));
    case 'AcceptOfferForLoad':
      return acceptOffer(command, ownLoad(state, command.data.by));
    case 'BookLoad':
      return bookLoad(command, ownLoad(state, null));
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
