/**
 * The tour decider (docs/domain.md "Tour" and "Ratings"): from Bid Accepted through the contract, the
 * driver, the road and the delivery to the ratings, with the geofence rule for positions.
 */ import { NotFoundError } from '../shared/errors.ts';
import { assertNever, type Decider } from '../shared/event.ts';
import type { OpenedTour, Tour, TourActor, TourCommand, TourEvent } from './tour.types.ts';
import { evolveTour, initialTour } from './tour.evolve.ts';
import { addTourEvent, observePosition } from './tourRoad.decide.ts';
import {
  assignTour,
  cancelTour,
  changeTourStatus,
  confirmCarrier,
  openTour,
} from './tourLifecycle.decide.ts';
import { rateTour } from './tourRating.decide.ts';
import { revokeTrackingLink, shareTour } from './trackingLink.decide.ts';
import { confirmDelivery, recordProofOfDelivery } from './proofOfDelivery.decide.ts';
import { createDockLink, recordDockRelease, revokeDockLink } from './dockRelease.decide.ts';

export { evolveTour, initialTour, tourStatusName } from './tour.evolve.ts';
export { assertMayRecordProof, lastStopOf, recordedProof } from './proofOfDelivery.decide.ts';

export const decideTour = (command: TourCommand, state: Tour): TourEvent[] => {
  if (command.type === 'OpenTour') return openTour(command, state);
  const tour = opened(state);
  switch (command.type) {
    case 'ConfirmCarrier':
      return confirmCarrier(command, tour);
    case 'AssignTour':
      return assignTour(command, visibleTo(tour, command.data.actor));
    case 'ChangeTourStatus':
      return changeTourStatus(command, visibleTo(tour, command.data.actor));
    case 'AddTourEvent':
      return addTourEvent(command, visibleTo(tour, command.data.actor));
    case 'ObservePosition':
      return observePosition(command, tour);
    case 'RateTour':
      return rateTour(command, visibleTo(tour, command.data.actor));
    case 'CancelTour':
      return cancelTour(command, visibleTo(tour, command.data.actor));
    case 'ShareTour':
      return shareTour(command, visibleTo(tour, command.data.actor));
    case 'RevokeTrackingLink':
      return revokeTrackingLink(command, visibleTo(tour, command.data.actor));
    case 'RecordProofOfDelivery':
      return recordProofOfDelivery(command, visibleTo(tour, command.data.actor));
    case 'CreateDockLink':
      return createDockLink(command, visibleTo(tour, command.data.actor));
    case 'RevokeDockLink':
      return revokeDockLink(command, visibleTo(tour, command.data.actor));
    case 'RecordDockRelease':
      return recordDockRelease(command, tour);
    case 'ConfirmDelivery':
      return confirmDelivery(command, visibleTo(tour, command.data.actor));
    default:
      return assertNever(command);
  }
};

export const tourDecider: Decider<Tour, TourCommand, TourEvent> = {
  initialState: initialTour,
  evolve: evolveTour,
  decide: decideTour,
};

const opened = (state: Tour): OpenedTour => {
  if (!state.exists) throw new NotFoundError('Tour not found');
  return state;
};

/** Another organization's tour, or a tour the driver is not assigned to, does not exist for the caller. */
const visibleTo = (tour: OpenedTour, { party, organizationId, userId }: TourActor): OpenedTour => {
  const visible =
    party === 'admin' ||
    party === 'system' ||
    (party === 'shipper' && organizationId === tour.shipperOrganizationId) ||
    (party === 'carrier' && organizationId === tour.carrierOrganizationId) ||
    (party === 'driver' && userId !== null && userId === tour.assigneeId);
  if (!visible) throw new NotFoundError('Tour not found');
  return tour;
};
