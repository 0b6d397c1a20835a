import pLimit from 'p-limit';
import type {
  Ack,
  ServerEventName,
  ServerPayloads,
  TourPositionPayload,
} from '../../../domain/realtime/events.ts';
import type { TypedSocket } from './transport.ts';

/** `tour:watch` requests unanswered at once, well inside the server's budget of 8 a connection. */
const WATCHES_AT_ONCE = 4;

export type Handler<E extends ServerEventName> = (payload: ServerPayloads[E]) => void;
type HandlerSets = { [E in ServerEventName]?: Set<Handler<E>> };

/**
 * What the screens listen to on the one connection: typed event subscriptions, the watched tours
 * (`tour:watch` counted per tour, each with the last position heard) and the reconnection listeners.
 */
export function createSubscriptions(
  currentSocket: () => TypedSocket | null,
  missedPositions: (tourId: string, since: string) => Promise<TourPositionPayload[]>,
) {
  const handlers: HandlerSets = {};
  const reconnectListeners = new Set<() => void>();
  /** Watched tours: how many screens watch each, and the time of the last position heard. */
  const tours = new Map<string, { count: number; last: string; seen: Set<string> }>();
  const watchLimit = pLimit(WATCHES_AT_ONCE);

  function dispatch<E extends ServerEventName>(event: E, payload: ServerPayloads[E]) {
    if (event === 'tour:position') {
      const position = payload as TourPositionPayload;
      const tour = tours.get(position.tourId);
      if (tour) {
        const key = `${position.recordedAt}|${position.latitude}|${position.longitude}`;
        if (tour.seen.has(key)) return; // heard live and caught up again
        tour.seen.add(key);
        if (tour.seen.size > 2000) tour.seen.delete(tour.seen.values().next().value!);
        if (position.recordedAt > tour.last) tour.last = position.recordedAt;
      }
    }
    for (const handler of [...(handlers[event] ?? [])]) {
      try {
        handler(payload);
      } catch (error) {
        console.error(error);
      }
    }
  }

  async function joinTours(): Promise<void> {
    const current = currentSocket();
    if (!current) return;
    await Promise.all(
      [...tours.keys()].map(async (tourId) => {
        const answer = await watchLimit(() =>
          current.timeout(10_000).emitWithAck('tour:watch', { tourId }),
        ).catch((): Ack => ({ ok: false, error: 'No answer' }));
        if (!answer.ok) console.warn(`tour:watch ${tourId}: ${answer.error}`);
      }),
    );
  }

  /** Fetches each watched tour's positions since `since` (the last heard before the reconnection), else the last heard. */
  async function catchUp(since?: Map<string, string>): Promise<void> {
    await Promise.all(
      [...tours.entries()].map(async ([tourId, tour]) => {
        try {
          const missed = await missedPositions(tourId, since?.get(tourId) ?? tour.last);
          for (const position of missed) if (tours.has(tourId)) dispatch('tour:position', position);
        } catch {
          // The next reconnection (or the page's own refresh) tries again.
        }
      }),
    );
  }

  return {
    dispatch,
    joinTours,
    catchUp,
    /** Where each watched tour stands now: the time of the last position heard. */
    lastHeard(): Map<string, string> {
      return new Map([...tours].map(([tourId, tour]) => [tourId, tour.last]));
    },
    /** Tells the `onReconnect` listeners to re-fetch what they show. */
    reconnected() {
      for (const listener of [...reconnectListeners]) listener();
    },
    /** Calls `handler` for each `event` until the returned function is called. */
    on<E extends ServerEventName>(event: E, handler: Handler<E>): () => void {
      let set: Set<Handler<E>> | undefined = handlers[event];
      if (!set) {
        set = new Set();
        handlers[event] = set as HandlerSets[E];
      }
      set.add(handler);
      return () => {
        set.delete(handler);
      };
    },
    /** Watches a tour (positions and chat) until the returned function is called; counted per tour. */
    watchTour(tourId: string): () => void {
      const tour = tours.get(tourId);
      if (tour) tour.count += 1;
      else {
        tours.set(tourId, { count: 1, last: new Date().toISOString(), seen: new Set() });
        const current = currentSocket();
        if (current?.connected)
          void watchLimit(() =>
            current.timeout(10_000).emitWithAck('tour:watch', { tourId }),
          ).catch(() => undefined);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const entry = tours.get(tourId);
        if (!entry) return;
        entry.count -= 1;
        if (entry.count > 0) return;
        tours.delete(tourId);
        const socket = currentSocket();
        if (socket?.connected) socket.emit('tour:unwatch', { tourId });
      };
    },
    /** Tours watched now (for tests and the status). */
    get watchedTours(): string[] {
      return [...tours.keys()];
    },
    /** Called after every reconnection (not the first connection): re-fetch what may have been missed. */
    onReconnect(listener: () => void): () => void {
      reconnectListeners.add(listener);
      return () => {
        reconnectListeners.delete(listener);
      };
    },
  };
}
