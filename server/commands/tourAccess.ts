/** What every tour command starts from: running a command on the tour's stream, and the tour the caller may see. */
import { NotFoundError } from '../../domain/shared/errors.ts';
import { tourDecider } from '../../domain/tours/tour.decide.ts';
import {
  tourStream,
  type OpenedTour,
  type Tour,
  type TourCommand,
  type TourEvent,
} from '../../domain/tours/tour.types.ts';
import type { SecretBox } from '../cluster/secretBox.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { EventStore } from '../eventstore/eventStore.ts';
import { metadataOf, type Actor, type Caller } from './caller.ts';
import { isTourParty, type StreamReaders } from './streams.ts';

/** `secrets` seals and opens the release codes' secrets (absent, assignments carry none). */
export type TourCommandDeps = { store: EventStore; readers: StreamReaders; secrets?: SecretBox };

export function tourAccess(deps: TourCommandDeps) {
  const { store, readers } = deps;
  const { loadTour } = readers;

  const runTour = (command: TourCommand, loadId: string, caller: Caller | null, now: string) =>
    handleCommand<Tour, TourCommand, TourEvent>(
      store,
      tourStream(command.data.tourId),
      tourDecider,
      command,
      metadataOf(caller, now, loadId),
    );

  /** A tour the caller is a party of (shipper, carrier, the assigned driver, a Superadmin); else not found. */
  const visibleTour = async (actor: Actor, tourId: string): Promise<OpenedTour> => {
    const tour = await loadTour(tourId);
    if (!tour || !isTourParty(actor, tour)) throw new NotFoundError('Tour not found');
    return tour;
  };

  return { runTour, visibleTour };
}
