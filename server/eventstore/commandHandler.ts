import type { AnyEvent, Command, Decider, EventMetadata } from '../../domain/shared/event.ts';
import { WrongExpectedRevisionError, type EventStore, type LogPosition } from './eventStore.ts';

export type HandledCommand<S, E extends AnyEvent> = {
  /** Events this command appended (empty when the decider had nothing to add). */
  events: E[];
  /** State after the command. */
  state: S;
  /** Where the last appended event sits in the log, null when nothing was appended. */
  position: LogPosition | null;
  nextExpectedRevision: number;
};

/**
 * Loads the stream, decides, appends with the revision it read. A conflict is retried once on
 * fresh state; a second conflict reaches the caller as a 409.
 */
export async function handleCommand<S, C extends Command, E extends AnyEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<S, C, E>,
  command: C,
  metadata: EventMetadata,
  retries = 1,
): Promise<HandledCommand<S, E>> {
  for (let attempt = 0; ; attempt++) {
    const { events: history, revision } = await store.readStream<E>(streamId);
    const state = history.reduce(decider.evolve, decider.initialState());
    const events = decider.decide(command, state);
    if (events.length === 0)
      return { events, state, position: null, nextExpectedRevision: revision };
    try {
      const result = await store.append(streamId, events, { expectedRevision: revision, metadata });
      return {
        events,
        state: events.reduce(decider.evolve, state),
        position: result.position,
        nextExpectedRevision: result.nextExpectedRevision,
      };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= retries) throw error;
    }
  }
}

/**
 * A command that opens a stream no one can have written yet (its id was made by the caller just
 * now, a random UUID): decided on the initial state with no read, and appended expecting no stream,
 * so a stream that exists after all is refused (a 409) instead of being written over.
 */
export async function handleNewStreamCommand<S, C extends Command, E extends AnyEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<S, C, E>,
  command: C,
  metadata: EventMetadata,
): Promise<HandledCommand<S, E>> {
  const state = decider.initialState();
  const events = decider.decide(command, state);
  if (events.length === 0) return { events, state, position: null, nextExpectedRevision: -1 };
  const result = await store.append(streamId, events, { expectedRevision: 'no_stream', metadata });
  return {
    events,
    state: events.reduce(decider.evolve, state),
    position: result.position,
    nextExpectedRevision: result.nextExpectedRevision,
  };
}
