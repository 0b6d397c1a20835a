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
import { Server } from 'socket.io';
import { DomainError } from '../../domain/shared/errors.ts';
import { socketUserEventsPerSecond } from '../config.ts';
import type { Actor } from '../http/auth.ts';
import { breaches, createEventBudget } from './budget.ts';
import { createNotifier, type RowWork } from './notifier.ts';
import { createPostgresAdapter, type PostgresAdapterHandle } from './postgresAdapter.ts';
import { roomsOf, tourRoom, userRoom } from './rooms.ts';
import { createShareWatch } from './shareWatch.ts';
import { createSessionWatch, type SessionEndReason } from './sessions.ts';
import { allowOrigin, createHandshake } from './handshake.ts';
import {
  SHARED_ROWS,
  untyped,
  type Io,
  type IoSocket,
  type Realtime,
  type RealtimeDeps,
  type SharedRows,
} from './realtime.types.ts';
import { createShareConnections, mirrorToLinks } from './shareSockets.ts';
import { createSocketEvents } from './socketEvents.ts';
import { authRefresh } from './tokenRefresh.ts';

export type { Realtime, RealtimeDeps } from './realtime.types.ts';
export { actorOf } from './handshake.ts';

export const SOCKET_PATH = '/socket.io';
/** How many tours one socket may watch at once. */
export const MAX_WATCHED_TOURS = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOUR_NOT_FOUND = { ok: false, error: 'Tour not found' } as const;

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
    emitLocal: (rooms, event, payload, except) => {
      if (!io) return;
      const to = io.local.to(rooms);
      untyped(except && except.length > 0 ? to.except(except) : to).emit(event, payload);
      mirrorToLinks(io, rooms, event, payload);
    },
    endUser: (userId) => sessions.endUser(userId, 'blocked'),
    recheckTour: (tourId) =>
      recheckTourRoom(tourId).catch((err: unknown) =>
        logger.warn({ err, tourId }, 'tour room not checked'),
      ),
    logger,
  });
  const handshake = createHandshake(deps, notifier);
  const { closeOverBudget, budgeted } = createSocketEvents(events, logger);
  const onShareConnection = createShareConnections({ shares, budgeted, logger });

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

    // A fresh access token moves the socket's expiry; anything else closes it (tokenRefresh.ts).
    on(
      'auth:refresh',
      authRefresh({
        socket,
        actor,
        session,
        sessions,
        tokens: deps.tokens,
        watching,
        maySee,
        leaveTour,
      }),
    );

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
