import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import {
  realtime,
  realtimeStatusAtom,
  type ConnectionStatus,
  type ServerEventName,
  type ServerPayloads,
} from './socket.ts';

export type { ConnectionStatus, ServerEventName, ServerPayloads } from './socket.ts';

/** Calls `handler` for each of `events` while the component is mounted; the handler may change between renders. */
export function useRealtime<E extends ServerEventName>(
  events: readonly E[],
  handler: (event: E, payload: ServerPayloads[E]) => void,
): void {
  const current = useRef(handler);
  current.current = handler;
  const key = events.join(',');
  useEffect(() => {
    const stops = events.map((event) =>
      realtime.on(event, (payload) => current.current(event, payload)),
    );
    return () => {
      for (const stop of stops) stop();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the event names
  }, [key]);
}

/** Watches the tour (its positions and chat) while the component is mounted and `tourId` is set. */
export function useTourWatch(tourId: string | null | undefined): void {
  useEffect(() => (tourId ? realtime.watchTour(tourId) : undefined), [tourId]);
}

/** Calls `listener` after every reconnection: the screen re-fetches what it may have missed. */
export function useOnReconnect(listener: () => void): void {
  const current = useRef(listener);
  current.current = listener;
  useEffect(() => realtime.onReconnect(() => current.current()), []);
}

/** The connection's state: 'live' only while really connected. */
export const useRealtimeStatus = (): ConnectionStatus => useAtomValue(realtimeStatusAtom);

/** Hands an event to the screens as the server would (tests). */
export function publishRealtime<E extends ServerEventName>(
  event: E,
  payload: ServerPayloads[E],
): void {
  realtime.publish(event, payload);
}
