import { io, type Socket } from 'socket.io-client';

/** Server-to-client events of API.md "Realtime". */
export const realtimeEvents = ['proposal:new', 'proposal:updated', 'tour:status', 'tour:event', 'chat:message', 'load:posted'] as const;
export type RealtimeEvent = (typeof realtimeEvents)[number];

export type RealtimeHandler = (event: RealtimeEvent, payload: Record<string, unknown>) => void;

/**
 * Opens the socket.io channel with the access token and hands every known event to `onEvent`.
 * Returns the disconnect function. Tests (and any page without a token) connect to nothing.
 */
export function connectRealtime(token: string, onEvent: RealtimeHandler): () => void {
  if (import.meta.env.MODE === 'test') return () => undefined; // no network in tests
  const socket: Socket = io({
    path: '/socket.io',
    auth: { token },
    // A server without the channel yet must not be hammered.
    reconnectionDelay: 2_000,
    reconnectionDelayMax: 60_000,
    reconnectionAttempts: 20,
  });
  for (const event of realtimeEvents) {
    socket.on(event, (payload: unknown) => onEvent(event, (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>));
  }
  return () => {
    socket.removeAllListeners();
    socket.disconnect();
  };
}
