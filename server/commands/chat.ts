/** The commands of a tour's chat (stream `tourchat-<tourId>`): this module is its only writer. */
import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../domain/shared/errors.ts';
import { tourChatDecider } from '../../domain/tours/tourChat.decide.ts';
import { tourChatStream } from '../../domain/tours/tour.types.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { EventStore } from '../eventstore/eventStore.ts';
import { metadataOf, type Caller } from './caller.ts';
import { isTourParty, type StreamReaders } from './streams.ts';

export function createChatCommands(deps: { store: EventStore; readers: StreamReaders }) {
  const { store, readers } = deps;
  return {
    /** A message from a party of the tour; `userName` as the user is named now. */
    async postChatMessage(
      caller: Caller,
      tourId: string,
      text: string,
      userName: string,
      now: string,
    ) {
      const tour = await readers.loadTour(tourId);
      if (!tour || !isTourParty(caller.actor, tour)) throw new NotFoundError('Tour not found');
      const messageId = randomUUID();
      const result = await handleCommand(
        store,
        tourChatStream(tourId),
        tourChatDecider as never,
        {
          type: 'PostMessage',
          data: {
            tourId,
            messageId,
            userId: caller.actor.userId,
            userName,
            organizationId: caller.actor.organizationId,
            text,
            now,
          },
        } as never,
        metadataOf(caller, now, tour.loadId),
      );
      return { id: messageId, position: result.position, tour };
    },
  };
}
export type ChatCommands = ReturnType<typeof createChatCommands>;
