import { atom } from 'jotai';
import pLimit from 'p-limit';
import { io, type Socket } from 'socket.io-client';
import {
  SERVER_EVENTS,
  type Ack,
  type ClientToServerEvents,
  type ServerEventName,
  type ServerPayloads,
  type ServerToClientEvents,
  type TourPositionPayload,
} from '../../../domain/realtime/events.ts';
import { apiGet, refreshOnce } from '../api/http.ts';
import { appStore, authUserAtom, readTokens } from '../state/session.ts';

export type { ServerEventName, ServerPayloads } from '../../../domain/realtime/events.ts';

/**
 * The browser's one realtime connection (docs/api.md "Realtime"), shared by every screen: the only
 * module that speaks socket.io.
 *
 * - One socket per signed-in session, opened when a user signs in and closed at sign-out.
 * - `on(event, handler)`: typed subscriptions; `watchTour(tourId)`: `tour:watch` with reference
 *   counting, sent again after every reconnection.
 * - The access token: refreshed shortly before it expires (the HTTP client's single refresh, so the
 *   two never refresh twice) and handed to the open socket (`auth:refresh`), so the server does not
 *   close it at the old token's expiry.
 * - After ANY disconnection, the server's own included (socket.io gives up on those), it connects
 *   again with a fresh token, backing off up to 30 s, re-joins the watched tours, fetches each
 *   tour's positions since the last one it heard, and tells `onReconnect` listeners to re-fetch what
 *   they show.
 * - `status`: 'live' only while connected and watching; a screen shows 'Reconnecting…' otherwise.
 */
/** WebSocket only: no long-polling handshake, which needs sticky sessions behind a load balancer. */
export const DEFAULT_TRANSPORTS: ('websocket' | 'polling')[] = ['websocket'];

/** After a reconnection, the positions are fetched again this long after the first catch-up. */
export const CATCH_UP_AGAIN_MS = 3000;
/** `tour:watch` requests unanswered at once, well inside the server's budget of 8 a connection. */
const WATCHES_AT_ONCE = 4;

export type ConnectionStatus = 'offline' | 'connecting' | 'live' | 'reconnecting';

type Handler<E extends ServerEventName> = (payload: ServerPayloads[E]) => void;
type TypedSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export type RealtimeClientOptions = {
  /** The server's origin; the page's own when absent. */
  url?: string;
  /** The access token to connect with now (null: signed out). */
  token(): string | null;
  /** A fresh access token, or null when the session cannot be refreshed. Shared with the HTTP client. */
  refresh(): Promise<string | null>;
  /** The positions of a tour recorded after `since` (GET /api/tours/{id}/positions?since=). */
  missedPositions(tourId: string, since: string): Promise<TourPositionPayload[]>;
  onStatus?(status: ConnectionStatus): void;
  /**
   * Transports to use; WebSocket only by default: socket.io's long-polling handshake takes several
   * requests that must reach the same server process, which a round-robin proxy without sticky
   * sessions does not promise (README "Running several processes").
   */
  transports?: ('websocket' | 'polling')[];
  /** Backoff of reconnections, ms: the first delay and the most. */
  retryMs?: { first: number; max: number };
};

/** Seconds since the epoch of the token's `exp` and `iat`, or null when it is no JWT. */
export function tokenTimes(token: string | null): { iat: number; exp: number } | null {
  if (!token) return null;
  try {
    const part = token.split('.')[1] ?? '';
    const json = JSON.parse(
      atob(
        part
          .replace(/-/g, '+')
          .replace(/_/g, '/')
          .padEnd(Math.ceil(part.length / 4) * 4, '='),
      ),
    );
    return typeof json.exp === 'number'
      ? { iat: typeof json.iat === 'number' ? json.iat : json.exp - 900, exp: json.exp }
      : null;
  } catch {
    return null;
  }
}

/** How long before its expiry a token is replaced: a fifth of its life, at most a minute, at least a second. */
export const refreshLeadMs = (times: { iat: number; exp: number }): number =>
  Math.max(1000, Math.min(60_000, ((times.exp - times.iat) * 1000) / 5));

export type RealtimeClient = ReturnType<typeof createRealtimeClient>;

export function createRealtimeClient(options: RealtimeClientOptions) {
  const retry = options.retryMs ?? { first: 1000, max: 30_000 };
  const handlers = new Map<ServerEventName, Set<Handler<any>>>();
  const reconnectListeners = new Set<() => void>();
  /** Watched tours: how many screens watch each, and the time of the last position heard. */
  const tours = new Map<string, { count: number; last: string; seen: Set<string> }>();
  const watchLimit = pLimit(WATCHES_AT_ONCE);
  let socket: TypedSocket | null = null;
  let status: ConnectionStatus = 'offline';
  let connectedOnce = false;
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  /** The token the socket holds now (the handshake's, or the last one handed over). */
  let socketToken: string | null = null;

  const setStatus = (next: ConnectionStatus) => {
    if (next === status) return;
    status = next;
    options.onStatus?.(next);
  };

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
    for (const handler of [...(handlers.get(event) ?? [])]) {
      try {
        handler(payload);
      } catch (error) {
        console.error(error);
      }
    }
  }

  /** A token that lives a while yet: the stored one, else a refreshed one. */
  async function usableToken(): Promise<string | null> {
    const stored = options.token();
    const times = tokenTimes(stored);
    if (stored && times && times.exp * 1000 - Date.now() > 5000) return stored;
    return stored ? options.refresh() : null;
  }

  function scheduleRefresh() {
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = null;
    const times = tokenTimes(socketToken);
    if (!times || !socket) return;
    const due = times.exp * 1000 - refreshLeadMs(times) - Date.now();
    refreshTimer = setTimeout(() => void handOver(), Math.max(0, due));
  }

  /** Gives the open socket a fresh token before its own expires. */
  async function handOver() {
    refreshTimer = null;
    if (!socket?.connected) return;
    const held = tokenTimes(socketToken);
    // The HTTP client may have refreshed already: a stored token that ends later is fresh enough.
    const stored = options.token();
    const storedTimes = tokenTimes(stored);
    const fresh =
      stored &&
      storedTimes &&
      held &&
      storedTimes.exp > held.exp &&
      storedTimes.exp * 1000 - Date.now() > refreshLeadMs(storedTimes)
        ? stored
        : await options.refresh();
    if (!fresh || !socket?.connected) {
      // No fresh token: the server closes the socket at expiry and the reconnection tries again.
      return;
    }
    try {
      const answer = await socket.timeout(10_000).emitWithAck('auth:refresh', { token: fresh });
      if (answer.ok) {
        socketToken = fresh;
        scheduleRefresh();
      }
    } catch {
      // No answer: the connection is in trouble; its disconnection brings the reconnection.
    }
  }

  async function joinTours(): Promise<void> {
    const current = socket;
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
          const missed = await options.missedPositions(tourId, since?.get(tourId) ?? tour.last);
          for (const position of missed) if (tours.has(tourId)) dispatch('tour:position', position);
        } catch {
          // The next reconnection (or the page's own refresh) tries again.
        }
      }),
    );
  }

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
    const token = await usableToken();
    if (socket !== current) return;
    if (!token) {
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
        socketToken = options.token();
        callback({ token: socketToken ?? '' });
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
        dispatch(event as ServerEventName, payload as never);
    });
    created.on('connect', () => {
      if (socket !== created) return;
      failures = 0;
      const resumed = connectedOnce;
      connectedOnce = true;
      scheduleRefresh();
      // Where each tour stood before the reconnection: positions heard live once re-joined must not
      // move the catch-up past the ones missed meanwhile.
      const since = new Map([...tours].map(([tourId, tour]) => [tourId, tour.last]));
      void joinTours().then(async () => {
        if (socket !== created || !created.connected) return;
        setStatus('live');
        if (!resumed) return;
        await catchUp(since);
        for (const listener of [...reconnectListeners]) listener();
        // The process that went away may have held the read models: another one takes them over
        // within a second or two and projects what was written meanwhile. Once more, shortly after.
        setTimeout(() => {
          if (socket === created && created.connected) void catchUp(since);
        }, CATCH_UP_AGAIN_MS);
      });
    });
    created.on('disconnect', (reason) => {
      if (socket !== created) return;
      if (refreshTimer) clearTimeout(refreshTimer);
      refreshTimer = null;
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
    if (refreshTimer) clearTimeout(refreshTimer);
    if (retryTimer) clearTimeout(retryTimer);
    refreshTimer = retryTimer = null;
    const current = socket;
    socket = null;
    socketToken = null;
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
      let set = handlers.get(event);
      if (!set) handlers.set(event, (set = new Set()));
      set.add(handler);
      return () => {
        set.delete(handler);
      };
    },
    /** Hands an event to the subscribers as if the server had sent it (tests; no socket needed). */
    publish: dispatch,
    /** Watches a tour (positions and chat) until the returned function is called; counted per tour. */
    watchTour(tourId: string): () => void {
      const tour = tours.get(tourId);
      if (tour) tour.count += 1;
      else {
        tours.set(tourId, { count: 1, last: new Date().toISOString(), seen: new Set() });
        const current = socket;
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
    /** The socket.io socket, for tests that need to look at it. */
    get socket(): TypedSocket | null {
      return socket;
    },
  };
}

export type SharedTourHandlers = {
  onPosition(position: TourPositionPayload): void;
  /** The tour's status or timeline changed: read the link's answer again. */
  onChange(): void;
  /** Connected and watching (true), or not (false). */
  onLive(live: boolean): void;
  /** The server closed the connection or refused the link: it may have ended (the page asks the API). */
  onClosed(): void;
};

/**
 * A tracking link's own connection (`auth: { shareToken }`, no signed-in user): that tour's positions
 * and a nudge when its status changes, read-only. The server closes it when the link is revoked or
 * expires; a dropped network connects again by itself. Returns the function that closes it.
 */
export function watchSharedTour(
  shareToken: string,
  handlers: SharedTourHandlers,
  options: { url?: string; transports?: ('websocket' | 'polling')[] } = {},
): () => void {
  const socket: TypedSocket = io(options.url ?? '', {
    path: '/socket.io',
    auth: { shareToken },
    reconnectionDelayMax: 30_000,
    transports: options.transports ?? DEFAULT_TRANSPORTS,
  });
  socket.on('connect', () => {
    socket
      .timeout(10_000)
      .emitWithAck('tour:watch', { shareToken })
      .then(
        (answer) => {
          if (!answer.ok) return handlers.onClosed();
          handlers.onLive(true);
          // Whatever happened while the connection was down.
          return handlers.onChange();
        },
        () => handlers.onClosed(),
      );
  });
  socket.on('tour:position', (payload) => handlers.onPosition(payload));
  socket.on('tour:status', () => handlers.onChange());
  socket.on('tour:event', () => handlers.onChange());
  socket.on('disconnect', (reason) => {
    handlers.onLive(false);
    // Closed by the server (the link ended): socket.io does not come back by itself.
    if (reason === 'io server disconnect') handlers.onClosed();
  });
  // A refusal at the handshake (an ended link, or the server busy): no automatic retry either.
  socket.on('connect_error', () => {
    if (!socket.active) handlers.onClosed();
  });
  return () => {
    socket.removeAllListeners();
    socket.disconnect();
  };
}

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
