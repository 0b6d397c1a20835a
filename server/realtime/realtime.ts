/**
 * socket.io on the app's HTTP server (docs/api.md "Realtime"): the access token checked at the handshake
 * and for as long as the socket lives (sessions.ts; `auth:refresh` hands it a fresh token that moves
 * the expiry), rooms per user, organization, permission,
 * tour and the carriers' marketplace (rooms.ts), `tour:watch` for the tour's parties only, and the
 * notifier that turns the event log into emits (notifier.ts). With DATABASE_URL, the PostgreSQL
 * adapter carries `emit` to the sockets of every server process.
 *
 * The platform creates it (a no-op until attached); app.ts attaches it when the HTTP server is
 * ready and closes it before the server closes.
 */
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { Server, type Socket } from 'socket.io';
import { permissionsFor } from '../../domain/permissions.ts';
import type { ClientToServerEvents, ServerToClientEvents } from '../../domain/realtime/events.ts';
import { DomainError, UnauthorizedError } from '../../domain/shared/errors.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import type { EventStore, LogPosition } from '../eventstore/eventStore.ts';
import type { Actor } from '../http/auth.ts';
import { createNotifier, type NotifierDeps, type RowWork } from './notifier.ts';
import { createPostgresAdapter, type PostgresAdapterHandle } from './postgresAdapter.ts';
import { roomsOf, tourRoom } from './rooms.ts';
import { createSessionWatch, type SessionEndReason, type SessionWatch } from './sessions.ts';
import type { DB } from '../../storage/schema.ts';

export const SOCKET_PATH = '/socket.io';
/** How many tours one socket may watch at once. */
export const MAX_WATCHED_TOURS = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
type SharedRows = { serverSideEmit(event: string, work: RowWork): boolean; on(event: string, handler: (work: RowWork) => void): void };

type SocketData = { actor: Actor; claims: AccessClaims; organizationStatus?: number | null };
type Io = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type IoSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
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
const refusal = (message: string, statusCode = 401) => Object.assign(new Error(message), { data: { statusCode, message } });

/**
 * Browsers send Origin on a WebSocket; the token is no cookie, but another site still has no
 * business opening our channel. Same host, or one of CORS_ORIGINS; no Origin (not a browser) passes.
 */
const allowOrigin = (config: RealtimeDeps['config']) => (request: IncomingMessage, callback: (err: string | null | undefined, success: boolean) => void) => {
  const origin = request.headers.origin;
  if (!origin) return callback(null, true);
  if (config.corsOrigins.includes(origin)) return callback(null, true);
  let host: string;
  try { host = new URL(origin).host; } catch { return callback('Origin not allowed', false); }
  const hosts = [request.headers.host, config.trustProxy ? request.headers['x-forwarded-host'] : undefined].flat().filter(Boolean);
  return hosts.includes(host) ? callback(null, true) : callback('Origin not allowed', false);
};

export function createRealtime(deps: RealtimeDeps): Realtime {
  const { logger } = deps;
  let io: Io | null = null;
  let adapter: PostgresAdapterHandle | null = null;
  let closed = false;
  const sessions = createSessionWatch({ db: deps.db, pollMs: deps.sessionPollMs, onError: (err) => logger.warn({ err }, 'socket session check failed') });
  const sharedRowHandlers = new Set<(work: RowWork) => void>();
  const notifier = createNotifier({
    store: deps.store,
    db: deps.db,
    onCommitted: (listener) => deps.runner.onCommitted(listener),
    share: (work) => { if (io && adapter && !closed) (io as unknown as SharedRows).serverSideEmit(SHARED_ROWS, work); },
    onShared: (handler) => {
      sharedRowHandlers.add(handler);
      return () => { sharedRowHandlers.delete(handler); };
    },
    hasSockets: () => Boolean(io) && !closed && (io?.of('/').sockets.size ?? 0) > 0,
    emitLocal: (rooms, event, payload) => io && untyped(io.local.to(rooms)).emit(event, payload),
    endUser: (userId) => sessions.endUser(userId, 'blocked'),
    logger,
  });

  async function handshake(socket: IoSocket, next: (err?: Error) => void) {
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
        organizationStatus = deps.organizationStatus ? await deps.organizationStatus(claims.org) : null;
      } catch (err) {
        logger.warn({ err }, 'organization status unavailable');
        return next(refusal('Realtime is unavailable, try again shortly', 503));
      }
      if (organizationStatus !== 1 && organizationStatus !== 2) return next(refusal('Your organization is blocked'));
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

  async function onConnection(socket: IoSocket) {
    const { actor, claims } = socket.data;
    // Joined before the client hears it is connected (the in-memory and the cluster adapter join at once).
    const joined = socket.join(roomsOf({ userId: actor.userId, organizationId: actor.organizationId, roleId: actor.roleId, organizationStatus: socket.data.organizationStatus }));
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

    // A fresh access token of the same user and session moves the socket's expiry; anything else
    // (no token, a bad or expired one, another user's or session's, changed rooms) closes it: the
    // client then connects again with whatever token it has.
    socket.on('auth:refresh', async (payload: unknown, ack?: unknown) => {
      const reply = typeof ack === 'function' ? (ack as (answer: unknown) => void) : () => undefined;
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
      const current = socket.data.claims;
      if (fresh.sub !== current.sub || fresh.sid !== current.sid) return refuse('This token belongs to another session');
      // The rooms were chosen from the organization and role at the handshake.
      if (fresh.org !== current.org || fresh.role !== current.role) return refuse('Your access changed; connect again');
      if (!socket.connected) return reply({ ok: false, error: 'Disconnected' });
      const expiresAt = Math.max(current.exp, fresh.exp);
      if (!sessions.renew(session, expiresAt)) return refuse('Your session has ended');
      socket.data.claims = { ...fresh, exp: expiresAt };
      return reply({ ok: true, expiresAt });
    });

    socket.on('tour:watch', async (payload: unknown, ack?: unknown) => {
      const reply = typeof ack === 'function' ? (ack as (answer: unknown) => void) : () => undefined;
      const tourId = (payload as { tourId?: unknown } | null)?.tourId;
      if (typeof tourId !== 'string' || !UUID.test(tourId)) return reply({ ok: false, error: 'Tour not found' });
      if (!watching.has(tourId) && watching.size >= MAX_WATCHED_TOURS) return reply({ ok: false, error: `At most ${MAX_WATCHED_TOURS} tours at once` });
      try {
        // The same rule as GET /api/tours/{id}: the shipper, the carrier, the assigned driver, a Superadmin.
        await deps.marketplace.visibleTour(actor, tourId);
      } catch (error) {
        if (!(error instanceof DomainError)) logger.warn({ err: error, tourId }, 'tour:watch failed');
        return reply({ ok: false, error: error instanceof DomainError ? error.message : 'Tour not found' });
      }
      if (!socket.connected) return reply({ ok: false, error: 'Disconnected' });
      watching.add(tourId);
      await socket.join(tourRoom(tourId));
      return reply({ ok: true });
    });

    socket.on('tour:unwatch', async (payload: unknown, ack?: unknown) => {
      const reply = typeof ack === 'function' ? (ack as (answer: unknown) => void) : () => undefined;
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
      const created = deps.config.databaseUrl ? await createPostgresAdapter(deps.config.databaseUrl, logger) : null;
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
      (io as unknown as SharedRows).on(SHARED_ROWS, (work) => { for (const handler of sharedRowHandlers) handler(work); });
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
      await notifier.close();
      if (io) {
        const server = io;
        io = null;
        server.local.disconnectSockets(true);
        // What io.close() does, less closing the HTTP server, which Fastify owns.
        await Promise.allSettled([...server._nsps.values()].map((namespace) => namespace.adapter.close()));
        server.engine.close();
      }
      await adapter?.close();
      adapter = null;
    },

    sessions,
    get connections() { return io ? io.of('/').sockets.size : 0; },
  };
}
