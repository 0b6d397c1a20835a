import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import { readTokens } from '../../state/session.ts';

/**
 * The marketplace screens' realtime channel (API.md "Realtime"): one shared socket.io connection,
 * opened while a screen listens, whose every server event is handed to an in-page bus. Screens
 * subscribe to the bus, so a message refreshes the data that owns it; tests publish on the bus
 * (the socket is never opened in tests: no network).
 */
export type MarketplaceEvent =
  | 'proposal:new' | 'proposal:updated' | 'load:posted' | 'load:updated' | 'lane:alert' | 'tour:status';

export type RealtimePayload = Record<string, unknown>;

const bus = new EventTarget();

/** Hands a server event to the listening screens (the socket does this; tests call it directly). */
export function publishRealtime(event: MarketplaceEvent, payload: RealtimePayload = {}): void {
  bus.dispatchEvent(new CustomEvent(event, { detail: payload }));
}

let socket: Socket | null = null;
let listeners = 0;

function openSocket(): void {
  if (socket || import.meta.env.MODE === 'test') return;
  const token = readTokens()?.accessToken;
  if (!token) return;
  socket = io({ path: '/socket.io', auth: { token }, reconnectionDelay: 2_000, reconnectionDelayMax: 60_000 });
  socket.onAny((event: string, payload: unknown) => {
    publishRealtime(event as MarketplaceEvent, typeof payload === 'object' && payload !== null ? (payload as RealtimePayload) : {});
  });
  // A refreshed access token is used when the socket reconnects.
  socket.io.on('reconnect_attempt', () => {
    const fresh = readTokens()?.accessToken;
    if (fresh && socket) socket.auth = { token: fresh };
  });
}

function closeSocketSoon(): void {
  // Moving from one marketplace screen to the next keeps the connection.
  setTimeout(() => {
    if (listeners > 0 || !socket) return;
    socket.removeAllListeners();
    socket.disconnect();
    socket = null;
  }, 1_000);
}

/** Calls `handler` for each of `events` while the component is mounted. */
export function useRealtime(events: readonly MarketplaceEvent[], handler: (event: MarketplaceEvent, payload: RealtimePayload) => void): void {
  const current = useRef(handler);
  current.current = handler;
  const key = events.join(',');
  useEffect(() => {
    const listener = (event: Event) => current.current(event.type as MarketplaceEvent, (event as CustomEvent<RealtimePayload>).detail ?? {});
    for (const name of events) bus.addEventListener(name, listener);
    listeners++;
    openSocket();
    return () => {
      for (const name of events) bus.removeEventListener(name, listener);
      listeners--;
      closeSocketSoon();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the event names
  }, [key]);
}
