import { io } from 'socket.io-client';
import {
  SERVER_EVENTS,
  type ServerEventName,
  type TourPositionPayload,
} from '../../../domain/realtime/events.ts';
import { createSubscriptions, type Handler } from './subscriptions.ts';
import { createTokenRefresher, type TokenSource } from './tokenRefresh.ts';
import { DEFAULT_TRANSPORTS, type Transport, type TypedSocket } from './transport.ts';

/**
 * The browser's one realtime connection (docs/api.md "Realtime"), shared by every screen: the only
 * module that speaks socket.io.
 *
 * - One socket per signed-in session, opened when a user signs in and closed at sign-out.
 * - `on(event, handler)`: typed subscriptions; `watchTour(tourId)`: `tour:watch` with reference
 *   counting, sent again after every reconnection (subscriptions.ts).
 * - The access token: refreshed shortly before it expires and handed to the open socket
 *   (tokenRefresh.ts).
 * - After ANY disconnection, the server's own included (socket.io gives up on those), it connects
 *   again with a fresh token, backing off up to 30 s, re-joins the watched tours, fetches each
 *   tour's positions since the last one it heard, and tells `onReconnect` listeners to re-fetch what
 *   they show.
 * - `status`: 'live' only while connected and watching; a screen shows 'Reconnecting…' otherwise.
 */

/** After a reconnection, the positions are fetched again this long after the first catch-up. */
export const CATCH_UP_AGAIN_MS = 3000;

export type ConnectionStatus = 'offline' | 'connecting' | 'live' | 'reconnecting';

export type RealtimeClientOptions = TokenSource & {
  /** The server's origin; the page's own when absent. */
  url?: string;
  /** The positions of a tour recorded after `since` (GET /api/tours/{id}/positions?since=). */
  missedPositions(tourId: string, since: string): Promise<TourPositionPayload[]>;
  onStatus?(status: ConnectionStatus): void;
  /**
   * Transports to use; WebSocket only by default: socket.io's long-polling handshake takes several
   * requests that must reach the same server process, which a round-robin proxy without sticky
   * sessions does not promise (README "Running several processes").
   */
  transports?: Transport[];
  /** Backoff of reconnections, ms: the first delay and the most. */
  retryMs?: { first: number; max: number };
};

export type RealtimeClient = ReturnType<typeof createRealtimeClient>;

export function createRealtimeClient(options: RealtimeClientOptions) {
  const retry = options.retryMs ?? { first: 1000, max: 30_000 };
  let socket: TypedSocket | null = null;
  let status: ConnectionStatus = 'offline';
  let connectedOnce = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  const subscriptions = createSubscriptions(() => socket, options.missedPositions);
  const token = createTokenRefresher(options, () => socket);

  const setStatus = (next: ConnectionStatus) => {
    if (next === status) return;
    status = next;
    options.onStatus?.(next);
  };

  function scheduleRetry() {
    if (retryTimer || !socket) return;
    setStatus(connectedOnce ? 'reconnecting' : 'connecting');
    const delay =
      Math.min(retry.max, retry.first * 2 ** Math.min(failures, 10)) * (0.75 + Math.random() * 0.5);
    failures += 1;
    retryTimer = setTimeout(
      () => void reconnect(),
      failures === 1 ? Math.min(delay, retry.first) : delay,
    );
  }

  async function reconnect() {
    retryTimer = null;
    const current = socket;
    if (!current || current.connected) return;
    const usable = await token.usableToken();
    if (socket !== current) return;
    if (!usable) {
      scheduleRetry();
      return;
    }
    current.connect();
  }

  function open() {
    if (socket) return;
    setStatus('connecting');
    const created: TypedSocket = io(options.url ?? '', {
      path: '/socket.io',
      // Read at every attempt, socket.io's own reconnections included: the newest stored token.
      auth: (callback) => {
        callback({ token: token.handshakeToken() ?? '' });
      },
      reconnectionDelay: retry.first,
      reconnectionDelayMax: retry.max,
      transports: options.transports ?? DEFAULT_TRANSPORTS,
    });
    socket = created;
    created.onAny((event: string, payload: unknown) => {
      if (
        (SERVER_EVENTS as readonly string[]).includes(event) &&
        typeof payload === 'object' &&
        payload !== null
      )
        subscriptions.dispatch(event as ServerEventName, payload as never);
    });
    created.on('connect', () => {
      if (socket !== created) return;
      failures = 0;
      const resumed = connectedOnce;
      connectedOnce = true;
      token.scheduleRefresh();
      // Where each tour stood before the reconnection: positions heard live once re-joined must not
      // move the catch-up past the ones missed meanwhile.
      const since = subscriptions.lastHeard();
      void subscriptions.joinTours().then(async () => {
        if (socket !== created || !created.connected) return;
        setStatus('live');
        if (!resumed) return;
        await subscriptions.catchUp(since);
        subscriptions.reconnected();
        // The process that went away may have held the read models: another one takes them over
        // within a second or two and projects what was written meanwhile. Once more, shortly after.
        setTimeout(() => {
          if (socket === created && created.connected) void subscriptions.catchUp(since);
        }, CATCH_UP_AGAIN_MS);
      });
    });
    created.on('disconnect', () => {
      if (socket !== created) return;
      token.stop();
      setStatus(connectedOnce ? 'reconnecting' : 'connecting');
      // socket.io reconnects by itself after a lost connection, never after the server closed it.
      if (!created.active) scheduleRetry();
    });
    created.on('connect_error', () => {
      if (socket !== created) return;
      // A refused handshake (an expired token, say) is not retried by socket.io: we refresh and retry.
      if (!created.active) scheduleRetry();
    });
  }

  function close() {
    token.stop();
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    const current = socket;
    socket = null;
    token.reset();
    connectedOnce = false;
    failures = 0;
    if (current) {
      current.removeAllListeners();
      current.offAny();
      current.disconnect();
    }
    setStatus('offline');
  }

  return {
    /** Opens the connection (idempotent). */
    open,
    /** Closes it (sign-out); subscriptions and watched tours stay for the next `open`. */
    close,
    get status(): ConnectionStatus {
      return status;
    },
    /** Calls `handler` for each `event` until the returned function is called. */
    on<E extends ServerEventName>(event: E, handler: Handler<E>): () => void {
      return subscriptions.on(event, handler);
    },
    /** Hands an event to the subscribers as if the server had sent it (tests; no socket needed). */
    publish: subscriptions.dispatch,
    /** Watches a tour (positions and chat) until the returned function is called; counted per tour. */
    watchTour: subscriptions.watchTour,
    /** Tours watched now (for tests and the status). */
    get watchedTours(): string[] {
      return subscriptions.watchedTours;
    },
    /** Called after every reconnection (not the first connection): re-fetch what may have been missed. */
    onReconnect: subscriptions.onReconnect,
    /** The socket.io socket, for tests that need to look at it. */
    get socket(): TypedSocket | null {
      return socket;
    },
  };
}
