/** What every offer command starts from: running a command on the offer's stream. */
import { offerDecider } from '../../domain/offers/offer.decide.ts';
import {
  offerStream,
  type Offer,
  type OfferCommand,
  type OfferEvent,
} from '../../domain/offers/offer.types.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { EventStore } from '../eventstore/eventStore.ts';
import { metadataOf, type Caller } from './caller.ts';
import type { StreamReaders } from './streams.ts';

export type OfferCommandDeps = { store: EventStore; readers: StreamReaders };

export const offerRunner =
  ({ store }: OfferCommandDeps) =>
  (command: OfferCommand, loadId: string, caller: Caller | null, now: string) =>
    handleCommand<Offer, OfferCommand, OfferEvent>(
      store,
      offerStream(command.data.proposalId),
      offerDecider,
      command,
      metadataOf(caller, now, loadId),
    );
