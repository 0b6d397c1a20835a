import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import { readTokens } from '../../state/session.ts';
import type { ChatMessage, TrackPosition } from './tours.api.ts';

/** API.md "Realtime": what the server sends about one tour. */
export interface TourChannelHandlers {
  onPosition?: (position: TrackPosition & { tourId: string }) => void;
  /** `tour:status` and `tour:event`: something happened on the tour (a status, an arrival, a note). */
  onChange?: (payload: { tourId: string; loadId?: string; status?: number; kind: 'status' | 'event' }) => void;
  onMessage?: (message: ChatMessage & { tourId: string }) => void;
  /** The channel is connected and watching (true), or not (false). */
  onLive?: (live: boolean) => void;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * One socket for a tour page. With a tour id it sends `tour:watch` on every (re)connection, so
 * positions and chat messages of that tour arrive; without one it hears only the organization's
 * `tour:status` and `tour:event`. The token is read at each connection attempt: a reconnection
 * after a refresh uses the new one. Tests connect to nothing.
 */
function openTourChannel(tourId: string | null, handlers: () => TourChannelHandlers): () => void {
  if (import.meta.env.MODE === 'test') return () => undefined;
  const socket: Socket = io({
    path: '/socket.io',
    auth: (callback) => callback({ token: readTokens()?.accessToken ?? '' }),
    reconnectionDelay: 1_000,
    reconnectionDelayMax: 30_000,
  });
  const mine = (payload: unknown): payload is Record<string, unknown> => isRecord(payload) && (tourId === null || payload.tourId === tourId);

  socket.on('connect', () => {
    if (!tourId) {
      handlers().onLive?.(true);
      return;
    }
    socket.timeout(10_000).emit('tour:watch', { tourId }, (error: unknown, answer: unknown) => {
      handlers().onLive?.(!error && isRecord(answer) && answer.ok === true);
    });
  });
  socket.on('disconnect', () => handlers().onLive?.(false));
  socket.on('tour:position', (payload: unknown) => {
    if (mine(payload)) handlers().onPosition?.(payload as unknown as TrackPosition & { tourId: string });
  });
  for (const [event, kind] of [['tour:status', 'status'], ['tour:event', 'event']] as const) {
    socket.on(event, (payload: unknown) => {
      if (!mine(payload)) return;
      handlers().onChange?.({ tourId: String(payload.tourId), loadId: payload.loadId as string | undefined, status: payload.status as number | undefined, kind });
    });
  }
  socket.on('chat:message', (payload: unknown) => {
    if (mine(payload) && isRecord(payload.message)) handlers().onMessage?.({ ...(payload.message as unknown as ChatMessage), tourId: String(payload.tourId) });
  });
  return () => {
    if (tourId && socket.connected) socket.emit('tour:unwatch', { tourId });
    socket.removeAllListeners();
    socket.disconnect();
  };
}

/** Keeps a tour channel open while the component lives; the handlers may change between renders. */
export function useTourChannel(tourId: string | null, handlers: TourChannelHandlers, enabled = true): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!enabled) return;
    return openTourChannel(tourId, () => latest.current);
  }, [tourId, enabled]);
}
