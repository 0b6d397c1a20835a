/**
 * socket.io on the app's HTTP server (docs/api.md "Realtime"): the access token checked at the handshake
 * and for as long as the socket lives (sessions.ts; `auth:refresh` hands it a fresh token that moves
 * the expiry), rooms per user, organization, permission,
 * tour and the carriers' marketplace (rooms.ts), `tour:watch` for the tour's parties only (and a
 * tour's room keeps only them: a driver taken off the tour leaves it at once), each socket's budget
 * of events (budget.ts), and the notifier that turns the event log into emits (notifier.ts). With
 * DATABASE_URL, the PostgreSQL adapter carries `emit` to the sockets of every server process.
 *
 * The platform creates it (a no-op until attached); app.ts attaches it when the HTTP server is
 * ready and closes it before the server closes.
 */
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { Server, type Socket } from 'socket.io';
import { permissionsFor } from '../../domain/permissions.ts';
import type {
  ClientToServerEvents,
  ServerToClientEvents,
  TourChangePayload,
} from '../../domain/realtime/events.ts';
import { DomainError, UnauthorizedError } from '../../domain/shared/errors.ts';
import { hashShareToken } from '../auth/shareTokens.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { liveShareByHash } from '../../projections/tourShares/tourShares.queries.ts';
import { socketUserEventsPerSecond } from '../config.ts';
import type { EventStore, LogPosition } from '../eventstore/eventStore.ts';
import type { Actor } from '../http/auth.ts';
import { breaches, createEventBudget, type Breach, type SocketBudget } from './budget.ts';
import { createNotifier, type NotifierDeps, type RowWork } from './notifier.ts';
import { createPostgresAdapter, type PostgresAdapterHandle } from './postgresAdapter.ts';
import { roomsOf, shareRoom, sharedTourRoom, tourRoom, userRoom } from './rooms.ts';
import { createShareWatch } from './shareWatch.ts';
import { createSessionWatch, type SessionEndReason, type SessionWatch } from './sessions.ts';
import type { DB } from '../../storage/schema.ts';

export const SOCKET_PATH = '/socket.io';
/** How many tours one socket may watch at once. */
export const MAX_WATCHED_TOURS = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOUR_NOT_FOUND = { ok: false, error: 'Tour not found' } as const;

export type Realtime = {
  /** Closes every socket in `room`, in every server process (an organization was blocked). */
  disconnectRoom(room: string): void;
  /** Sends to the sockets in any of `rooms`, in every server process; nothing when `rooms` is empty or before `attach`. */
  emit(rooms: string[], event: string, payload: unknown): void;
  /** Puts socket.io on the HTTP server; once. */
  attach(server: HttpServer): Promise<void>;
  /** Closes every socket and stops the notifier; the HTTP server stays the caller's. */
  close(): Promise<void>;
  /** Long-lived connections whose token is re-checked (the raw event feed uses it too). */
  readonly sessions: SessionWatch;
  /** Sockets connected to this process. */
  readonly connections: number;
};

export type RealtimeDeps = {
  config: { databaseUrl: string | null; corsOrigins: string[]; trustProxy: boolean };
  db: Kysely<DB>;
  store: EventStore;
  /** The projection runner of this process: the notifier hears its committed pages. */
  runner: { onCommitted: NotifierDeps['onCommitted'] };
  tokens: { authenticate(token: string): Promise<AccessClaims> };
  marketplace: { visibleTour(actor: Actor, tourId: string): Promise<unknown> };
  identity: { loadOrganization(organizationId: string): Promise<{ name: string } | null> };
  /** The organization's status (1 Pending, 2 Active, 3 Blocked, null unknown): a blocked one's sockets are refused, a Pending carrier's join no marketplace. */
  organizationStatus?: (organizationId: string) => Promise<number | null>;
  logger: Logger;
  /** How often open sockets' sessions are checked for a logout or a block; 500 ms by default. */
  sessionPollMs?: number;
};

/** The server-side event that carries a committed page's rows to the other processes' notifiers. */
const SHARED_ROWS = 'notifier:rows';
type SharedRows = {
  serverSideEmit(event: string, work: RowWork): boolean;
  on(event: string, handler: (work: RowWork) => void): void;
};

/** A signed-in user's socket, or one opened with a tracking link (`auth: { shareToken }`): that one tour, read-only. */
type SocketData =
  | { actor: Actor; claims: AccessClaims; organizationStatus?: number | null }
  | { share: { shareId: string; tourId: string; tokenHash: string; expiresAt: Date } };
type UserSocketData = Extract<SocketData, { actor: Actor }>;
type Io = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type IoSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;
type Reply = (answer: unknown) => void;
/** A client event's handler: its payload, and the acknowledgement (a no-op when the client asked for none). */
type ClientEventHandler = (payload: unknown, reply: Reply) => Promise<unknown>;
/** An emit whose event and payload the caller vouches for (the notifier and the reactors name the events of `domain/realtime/events.ts`). */
type Broadcast = { emit(event: string, payload: unknown): boolean };
const untyped = (target: unknown) => target as Broadcast;

export const actorOf = (claims: AccessClaims): Actor => ({
  userId: claims.sub,
  organizationId: claims.org,
  roleId: claims.role as Actor['roleId'],
  permissions: permissionsFor(claims.role),
  sessionId: claims.sid,
});

/** A refusal the client reads in `connect_error`: `err.message`, and `err.data.statusCode`. */
const refusal = (message: string, statusCode = 401) =>
  Object.assign(new Error(message), { data: { statusCode, message } });

/**
 * Browsers send Origin on a WebSocket; the token is no cookie, but another site still has no
 * business opening our channel. Same host, or one of CORS_ORIGINS; no Origin (not a browser) passes.
 */
const allowOrigin =
  (config: RealtimeDeps['config']) =>
  (
    request: IncomingMessage,
    callback: (err: string | null | undefined, success: boolean) => void,
  ) => {
    const origin = request.headers.origin;
    if (!origin) return callback(null, true);
    if (config.corsOrigins.includes(origin)) return callback(null, true);
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return callback('Origin not allowed', false);
    }
    const hosts = [
      request.headers.host,
      config.trustProxy ? request.headers['x-forwarded-host'] : undefined,
    ]
      .flat()
      .filter(Boolean);
    return hosts.includes(host) ? callback(null, true) : callback('Origin not allowed', false);
  };

const SHARE_ENDED = 'This tracking link does not exist or has ended';

/**
 * What a tour's tracking links hear of what its room hears: the positions as they are, and that its
 * status or timeline changed (the page reads its own answer again), without the event's data (names, messages).
 */
function mirrorToLinks(io: Io, rooms: string[], event: string, payload: unknown) {
  const tourId = (payload as { tourId?: unknown } | null)?.tourId;
  if (typeof tourId !== 'string' || !rooms.includes(tourRoom(tourId))) return;
  const room = io.local.to(sharedTourRoom(tourId));
  if (event === 'tour:position') {
    untyped(room).emit(event, payload);
  } else if (event === 'tour:status' || event === 'tour:event') {
    const { loadId, status, event: entry } = payload as TourChangePayload;
    untyped(room).emit(event, {
      tourId,
      loadId,
      status,
      event: { id: entry.id, type: entry.type, data: null, at: entry.at },
    });
  }
}

export function createRealtime(deps: RealtimeDeps): Realtime {
  const { logger } = deps;
  let io: Io | null = null;
  let adapter: PostgresAdapterHandle | null = null;
  let closed = false;
  const shares = createShareWatch({
    db: deps.db,
    pollMs: deps.sessionPollMs,
    onError: (err) => logger.warn({ err }, 'tracking link check failed'),
  });
  const sessions = createSessionWatch({
    db: deps.db,
    pollMs: deps.sessionPollMs,
    onError: (err) => logger.warn({ err }, 'socket session check failed'),
  });
  const sharedRowHandlers = new Set<(work: RowWork) => void>();
  const events = createEventBudget({ userEventsPerSecond: socketUserEventsPerSecond() });
  /** The tours each user socket joined with `tour:watch`. */
  const watchedTours = new WeakMap<IoSocket, Set<string>>();
  const notifier = createNotifier({
    store: deps.store,
    db: deps.db,
    onCommitted: (listener) => deps.runner.onCommitted(listener),
    share: (work) => {
      if (io && adapter && !closed) (io as unknown as SharedRows).serverSideEmit(SHARED_ROWS, work);
    },
    onShared: (handler) => {
      sharedRowHandlers.add(handler);
      return () => {
        sharedRowHandlers.delete(handler);
      };
    },
    hasSockets: () => Boolean(io) && !closed && (io?.of('/').sockets.size ?? 0) > 0,
    emitLocal: (rooms, event, payload) => {
      if (!io) return;
      untyped(io.local.to(rooms)).emit(event, payload);
      mirrorToLinks(io, rooms, event, payload);
    },
    endUser: (userId) => sessions.endUser(userId, 'blocked'),
    recheckTour: (tourId) =>
      recheckTourRoom(tourId).catch((err: unknown) =>
        logger.warn({ err, tourId }, 'tour room not checked'),
      ),
    logger,
  });

  /** A tracking link's socket: no user, no rooms until `tour:watch { shareToken }`. */
  async function shareHandshake(socket: IoSocket, shareToken: string, next: (err?: Error) => void) {
    const tokenHash = hashShareToken(shareToken);
    let share: Awaited<ReturnType<typeof liveShareByHash>>;
    try {
      share = await liveShareByHash(deps.db, tokenHash, new Date());
      if (share) await notifier.start();
    } catch (err) {
      logger.warn({ err }, 'tracking link not checked');
      return next(refusal('Realtime is unavailable, try again shortly', 503));
    }
    if (!share) return next(refusal(SHARE_ENDED, 404));
    socket.data = {
      share: {
        shareId: share.id,
        tourId: share.tour_id,
        tokenHash,
        expiresAt: new Date(share.expires_at as unknown as string),
      },
    };
    return next();
  }

  async function handshake(socket: IoSocket, next: (err?: Error) => void) {
    const shareToken = (socket.handshake.auth as { shareToken?: unknown } | undefined)?.shareToken;
    if (typeof shareToken === 'string' && shareToken !== '' && shareToken.length <= 200)
      return shareHandshake(socket, shareToken, next);
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || token === '') return next(refusal('Please sign in'));
    let claims: AccessClaims;
    try {
      claims = await deps.tokens.authenticate(token);
    } catch (error) {
      return next(refusal(error instanceof UnauthorizedError ? error.message : 'Token not valid'));
    }
    let organizationStatus: number | null = null;
    if (claims.org) {
      try {
        organizationStatus = deps.organizationStatus
          ? await deps.organizationStatus(claims.org)
          : null;
      } catch (err) {
        logger.warn({ err }, 'organization status unavailable');
        return next(refusal('Realtime is unavailable, try again shortly', 503));
      }
      if (organizationStatus !== 1 && organizationStatus !== 2)
        return next(refusal('Your organization is blocked'));
    }
    try {
      // Before the socket counts as connected, so it hears everything that happens after.
      await notifier.start();
    } catch (err) {
      logger.warn({ err }, 'notifier could not start');
      return next(refusal('Realtime is unavailable, try again shortly', 503));
    }
    socket.data = { actor: actorOf(claims), claims, organizationStatus };
    return next();
  }

  /** Tells the socket which limit it went past, then closes it (budget.ts). */
  function closeOverBudget(socket: IoSocket, breach: Breach) {
    if (!socket.connected) return;
    const who =
      'actor' in socket.data
        ? { userId: socket.data.actor.userId }
        : { shareId: socket.data.share.shareId };
    logger.warn({ ...who, limit: breach.limit }, 'socket closed: over its budget of events');
    socket.emit('limit:exceeded', breach);
    socket.disconnect(true);
  }

  /**
   * The socket's budget (budget.ts), shared with the other sockets of `owner` in this process: every
   * incoming event is counted before any handler runs, and `on` registers a handler that runs only
   * while few enough of the socket's events are unanswered. Past either, the socket is told and closed.
   */
  function budgeted(
    socket: IoSocket,
    owner: string,
  ): { on(event: string, handler: ClientEventHandler): void; budget: SocketBudget } {
    const budget = events.open(owner);
    socket.on('disconnect', () => budget.close());
    socket.use((_event, next) => {
      // Events already read off the wire when the socket was closed: dropped.
      if (!socket.connected) return;
      const breach = budget.admit();
      if (breach) return closeOverBudget(socket, breach);
      return next();
    });
    const on = (event: string, handler: ClientEventHandler) => {
      (
        socket as unknown as {
          on(event: string, listener: (payload: unknown, ack?: unknown) => void): void;
        }
      ).on(event, (payload, ack) => {
        const reply: Reply = typeof ack === 'function' ? (ack as Reply) : () => undefined;
        const breach = budget.run(() =>
          handler(payload, reply).catch((err: unknown) => {
            logger.warn({ err, event }, 'socket event failed');
            reply({ ok: false, error: 'Realtime is unavailable, try again shortly' });
          }),
        );
        if (breach) closeOverBudget(socket, breach);
      });
    };
    return { on, budget };
  }

  /** Positions and redacted status changes of the link's tour, until the link expires or is revoked. */
  async function onShareConnection(
    socket: IoSocket,
    share: Extract<SocketData, { share: unknown }>['share'],
  ) {
    const stopWatching = shares.watch({
      shareId: share.shareId,
      expiresAt: share.expiresAt,
      close: (reason) => {
        logger.debug?.({ shareId: share.shareId, reason }, 'socket closed: tracking link ended');
        socket.disconnect(true);
      },
    });
    socket.on('disconnect', stopWatching);
    const { on } = budgeted(socket, shareRoom(share.shareId));
    on('tour:watch', async (payload, reply) => {
      const shareToken = (payload as { shareToken?: unknown } | null)?.shareToken;
      // Only the link the socket was opened with.
      if (
        typeof shareToken !== 'string' ||
        shareToken.length > 200 ||
        hashShareToken(shareToken) !== share.tokenHash
      )
        return reply({ ok: false, error: SHARE_ENDED });
      if (!socket.connected) return reply({ ok: false, error: 'Disconnected' });
      await socket.join(sharedTourRoom(share.tourId));
      return reply({ ok: true, tourId: share.tourId });
    });
    on('tour:unwatch', async (_payload, reply) => {
      await socket.leave(sharedTourRoom(share.tourId));
      reply({ ok: true });
    });
  }

  /**
   * Whether `actor` may still see the tour, by the rule of GET /api/tours/{id} (`visibleTour`): false
   * when the tour answers not found to it; null when that could not be told (the caller keeps what it had).
   */
  async function maySee(actor: Actor, tourId: string): Promise<boolean | null> {
    try {
      await deps.marketplace.visibleTour(actor, tourId);
      return true;
    } catch (error) {
      if (error instanceof DomainError) return false;
      logger.warn({ err: error, tourId }, 'tour visibility not checked');
      return null;
    }
  }

  function leaveTour(socket: IoSocket, tourId: string) {
    watchedTours.get(socket)?.delete(tourId);
    void socket.leave(tourRoom(tourId));
  }

  /** Tour rooms checked again so far in this process: a `tour:watch` that spans one checks once more. */
  let rechecks = 0;

  /**
   * The tour's parties changed (a driver was assigned in place of another): every socket of this
   * process in its room whose user no longer sees the tour leaves the room, before the room hears
   * anything more. Each process does this for its own sockets (the notifier of each hears the event).
   */
  async function recheckTourRoom(tourId: string) {
    rechecks += 1;
    const namespace = io?.of('/');
    const ids = namespace?.adapter.rooms.get(tourRoom(tourId));
    if (!namespace || !ids) return;
    const checks = new Map<string, Promise<boolean | null>>();
    await Promise.all(
      [...ids].map(async (id) => {
        const socket = namespace.sockets.get(id);
        if (!socket || !('actor' in socket.data)) return;
        const { actor } = socket.data;
        // One check per user, however many of its sockets watch the tour.
        let check = checks.get(actor.userId);
        if (!check) checks.set(actor.userId, (check = maySee(actor, tourId)));
        if ((await check) === false) {
          logger.debug?.({ userId: actor.userId, tourId }, 'socket left a tour it no longer sees');
          leaveTour(socket, tourId);
        }
      }),
    );
  }

  async function onConnection(socket: IoSocket) {
    if ('share' in socket.data) return onShareConnection(socket, socket.data.share);
    const { actor, claims } = socket.data;
    // Joined before the client hears it is connected (the in-memory and the cluster adapter join at once).
    const joined = socket.join(
      roomsOf({
        userId: actor.userId,
        organizationId: actor.organizationId,
        roleId: actor.roleId,
        organizationStatus: socket.data.organizationStatus,
      }),
    );
    const session = {
      userId: actor.userId,
      familyId: claims.sid,
      expiresAt: claims.exp,
      close: (reason: SessionEndReason) => {
        logger.debug?.({ userId: actor.userId, reason }, 'socket closed: session ended');
        socket.disconnect(true);
      },
    };
    const stopWatching = sessions.watch(session);
    socket.on('disconnect', stopWatching);
    const watching = new Set<string>();
    watchedTours.set(socket, watching);
    const { on, budget } = budgeted(socket, userRoom(actor.userId));

    // A fresh access token of the same user and session moves the socket's expiry; anything else
    // (no token, a bad or expired one, another user's or session's, changed rooms) closes it: the
    // client then connects again with whatever token it has.
    on('auth:refresh', async (payload, reply) => {
      const refuse = (error: string) => {
        reply({ ok: false, error });
        socket.disconnect(true);
      };
      const token = (payload as { token?: unknown } | null)?.token;
      if (typeof token !== 'string' || token === '') return refuse('Please sign in');
      let fresh: AccessClaims;
      try {
        fresh = await deps.tokens.authenticate(token);
      } catch (error) {
        return refuse(error instanceof UnauthorizedError ? error.message : 'Token not valid');
      }
      const current = (socket.data as UserSocketData).claims;
      if (fresh.sub !== current.sub || fresh.sid !== current.sid)
        return refuse('This token belongs to another session');
      // The rooms were chosen from the organization and role at the handshake.
      if (fresh.org !== current.org || fresh.role !== current.role)
        return refuse('Your access changed; connect again');
      if (!socket.connected) return reply({ ok: false, error: 'Disconnected' });
      const expiresAt = Math.max(current.exp, fresh.exp);
      if (!sessions.renew(session, expiresAt)) return refuse('Your session has ended');
      (socket.data as UserSocketData).claims = { ...fresh, exp: expiresAt };
      // The watched tours are asked again: a tour this user no longer sees is left.
      await Promise.all(
        [...watching].map(async (tourId) => {
          if ((await maySee(actor, tourId)) === false) leaveTour(socket, tourId);
        }),
      );
      return reply({ ok: true, expiresAt });
    });

    on('tour:watch', async (payload, reply) => {
      const tourId = (payload as { tourId?: unknown } | null)?.tourId;
      if (typeof tourId !== 'string' || !UUID.test(tourId)) return reply(TOUR_NOT_FOUND);
      if (!watching.has(tourId) && watching.size >= MAX_WATCHED_TOURS)
        return reply({ ok: false, error: `At most ${MAX_WATCHED_TOURS} tours at once` });
      // Ids that are nobody's tour cost a query each: past a few, the socket is closed before asking.
      if (!watching.has(tourId) && budget.notFoundSpent)
        return closeOverBudget(socket, breaches.toursNotFound);
      const rechecksBefore = rechecks;
      try {
        // The same rule as GET /api/tours/{id}: the shipper, the carrier, the assigned driver, a Superadmin.
        await deps.marketplace.visibleTour(actor, tourId);
      } catch (error) {
        if (!(error instanceof DomainError))
          logger.warn({ err: error, tourId }, 'tour:watch failed');
        else budget.notFound();
        return reply({
          ok: false,
          error: error instanceof DomainError ? error.message : 'Tour not found',
        });
      }
      if (!socket.connected) return reply({ ok: false, error: 'Disconnected' });
      watching.add(tourId);
      await socket.join(tourRoom(tourId));
      // A reassignment committed while this socket was being let in found it outside the room: ask again.
      if (rechecks !== rechecksBefore && (await maySee(actor, tourId)) === false) {
        leaveTour(socket, tourId);
        return reply(TOUR_NOT_FOUND);
      }
      return reply({ ok: true });
    });

    on('tour:unwatch', async (payload, reply) => {
      const tourId = (payload as { tourId?: unknown } | null)?.tourId;
      if (typeof tourId !== 'string' || !watching.has(tourId)) return reply({ ok: true });
      watching.delete(tourId);
      await socket.leave(tourRoom(tourId));
      return reply({ ok: true });
    });

    await joined;
  }

  return {
    disconnectRoom(room) {
      if (!io || closed) return;
      io.in(room).disconnectSockets(true);
    },

    emit(rooms, event, payload) {
      if (!io || closed || rooms.length === 0) return;
      untyped(io.to(rooms)).emit(event, payload);
    },

    async attach(server) {
      if (io || closed) return;
      const created = deps.config.databaseUrl
        ? await createPostgresAdapter(deps.config.databaseUrl, logger)
        : null;
      if (closed || io) {
        // Closed (or attached) while the adapter was being set up.
        await created?.close();
        return;
      }
      adapter = created;
      io = new Server(server, {
        path: SOCKET_PATH,
        serveClient: false,
        // Other upgrades (the raw event feed) are someone else's: engine.io must leave them alone.
        destroyUpgrade: false,
        allowRequest: allowOrigin(deps.config),
        maxHttpBufferSize: 64 * 1024,
        ...(adapter ? { adapter: adapter.adapter } : {}),
      });
      (io as unknown as SharedRows).on(SHARED_ROWS, (work) => {
        for (const handler of sharedRowHandlers) handler(work);
      });
      io.use((socket, next) => void handshake(socket, next));
      io.on('connection', (socket) => {
        onConnection(socket).catch((err) => {
          logger.warn({ err }, 'socket setup failed');
          socket.disconnect(true);
        });
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      sessions.close();
      shares.close();
      await notifier.close();
      if (io) {
        const server = io;
        io = null;
        server.local.disconnectSockets(true);
        // What io.close() does, less closing the HTTP server, which Fastify owns.
        await Promise.allSettled(
          [...server._nsps.values()].map((namespace) => namespace.adapter.close()),
        );
        server.engine.close();
      }
      await adapter?.close();
      adapter = null;
    },

    sessions,
    get connections() {
      return io ? io.of('/').sockets.size : 0;
    },
  };
}
