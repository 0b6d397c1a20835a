import { atom } from 'jotai';
import type { TourPositionPayload } from '../../../domain/realtime/events.ts';
import { apiGet, refreshOnce } from '../api/http.ts';
import { appStore, authUserAtom, readTokens } from '../state/session.ts';
import { type ConnectionStatus, createRealtimeClient } from './realtimeClient.ts';

/**
 * The app's realtime connection (realtimeClient.ts) and what the screens import for it: the client,
 * its status atom, a tracking link's own connection (sharedTour.ts) and the token helpers.
 */
export type { ServerEventName, ServerPayloads } from '../../../domain/realtime/events.ts';
export {
  CATCH_UP_AGAIN_MS,
  type ConnectionStatus,
  createRealtimeClient,
  type RealtimeClient,
  type RealtimeClientOptions,
} from './realtimeClient.ts';
export { type SharedTourHandlers, watchSharedTour } from './sharedTour.ts';
export { refreshLeadMs, tokenTimes } from './tokenRefresh.ts';
export { DEFAULT_TRANSPORTS } from './transport.ts';

/** The connection's state, for the 'Live' / 'Reconnecting…' badges. */
export const realtimeStatusAtom = atom<ConnectionStatus>('offline');

/** The app's one connection: follows the signed-in user. Tests run without it (no network). */
export const realtime = createRealtimeClient({
  token: () => readTokens()?.accessToken ?? null,
  refresh: () => refreshOnce(),
  missedPositions: (tourId, since) =>
    apiGet<TourPositionPayload[]>(`/tours/${tourId}/positions?since=${encodeURIComponent(since)}`),
  onStatus: (status) => appStore.set(realtimeStatusAtom, status),
});

if (import.meta.env?.MODE !== 'test') {
  let userId: string | null = null;
  const follow = () => {
    const next = appStore.get(authUserAtom)?.id ?? null;
    // Another user's sign-in gets a socket of its own (its rooms are chosen at the handshake).
    if (next !== userId) realtime.close();
    userId = next;
    if (next) realtime.open();
  };
  appStore.sub(authUserAtom, follow);
  follow();
}
