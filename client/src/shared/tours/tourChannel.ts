import { useEffect, useRef } from 'react';
import { realtime } from '../../realtime/socket.ts';
import { useRealtimeStatus } from '../../realtime/useRealtime.ts';
import type { ChatMessage, TrackPosition } from './tours.api.ts';

/** docs/api.md "Realtime": what the server sends about one tour. */
export interface TourChannelHandlers {
  onPosition?: (position: TrackPosition & { tourId: string }) => void;
  /** `tour:status` and `tour:event`: something happened on the tour (a status, an arrival, a note). */
  onChange?: (payload: {
    tourId: string;
    loadId?: string;
    status?: number;
    kind: 'status' | 'event';
  }) => void;
  onMessage?: (message: ChatMessage & { tourId: string }) => void;
  /** The app's connection is live (true), or reconnecting (false). */
  onLive?: (live: boolean) => void;
  /** After a reconnection: what the screen shows may be stale (positions are caught up by the connection itself). */
  onReconnect?: () => void;
}

/**
 * A tour screen's view of the app's one realtime connection (client/src/realtime/socket.ts). With a
 * tour id it watches that tour (counted: two screens of one tour share the watch) and hears its
 * positions, changes and chat messages; without one it hears the `tour:status` and `tour:event` of
 * the organization's tours. The handlers may change between renders.
 */
export function useTourChannel(
  tourId: string | null,
  handlers: TourChannelHandlers,
  enabled = true,
): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  const status = useRealtimeStatus();
  const live = enabled && status === 'live';

  useEffect(() => {
    if (enabled) latest.current.onLive?.(live);
  }, [live, enabled]);

  useEffect(() => {
    if (!enabled) return;
    const mine = (payload: { tourId?: unknown } | null | undefined) =>
      Boolean(payload) && (tourId === null || payload!.tourId === tourId);
    const stops = [
      tourId ? realtime.watchTour(tourId) : () => undefined,
      realtime.on('tour:position', (payload) => {
        if (mine(payload)) latest.current.onPosition?.(payload);
      }),
      realtime.on('tour:status', (payload) => {
        if (mine(payload))
          latest.current.onChange?.({
            tourId: payload.tourId,
            loadId: payload.loadId,
            status: payload.status,
            kind: 'status',
          });
      }),
      realtime.on('tour:event', (payload) => {
        if (mine(payload))
          latest.current.onChange?.({
            tourId: payload.tourId,
            loadId: payload.loadId,
            status: payload.status,
            kind: 'event',
          });
      }),
      realtime.on('chat:message', (payload) => {
        if (mine(payload) && payload.message)
          latest.current.onMessage?.({
            ...(payload.message as unknown as ChatMessage),
            tourId: payload.tourId,
          });
      }),
      realtime.onReconnect(() => latest.current.onReconnect?.()),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }, [tourId, enabled]);
}
