/**
 * The raw event feed: `GET /api/events/stream?from=<transactionId:globalPosition>` as a WebSocket
 * (@fastify/websocket), for Superadmins, auditors and integrations. It sends the log after `from`
 * (all of it when `from` is empty), then every new event as it is read, one JSON text message per
 * event: `{position, streamId, type, data, metadata}`, `data` without the event's secrets
 * (`publicEvent`). `position` is what `from` takes, so a client that reconnects with the last
 * position it got misses nothing and gets nothing twice.
 *
 * The access token comes in `Authorization: Bearer …` or, since browsers cannot set headers on a
 * WebSocket, in `?token=`. Either way it is checked like any other request's, again when it expires,
 * and the session is followed (logout, block) as the socket.io sockets' are.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import websocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { eventsContract, type StreamQuery } from '../../domain/contracts/events.contract.ts';
import type { z } from 'zod';
import { SUPER_ADMIN } from '../../domain/permissions.ts';
import { publicEvent } from '../../domain/shared/publicEvent.ts';
import { UnauthorizedError } from '../../domain/shared/errors.ts';
import type { App } from '../http/routeContext.ts';
import { START, type LogPosition, type RecordedEvent } from '../eventstore/eventStore.ts';
import { can } from '../http/auth.ts';
import { actorOf, SOCKET_PATH } from '../realtime/realtime.ts';

export const EVENTS_STREAM_PATH = '/api/events/stream';
/** WebSocket close codes (4000-4999 are the application's): the token expired or the session ended. */
export const CLOSE_SESSION_ENDED = 4401;
const PAGE = 200;
const PING_MS = 30_000;

type StreamQueryType = z.infer<typeof StreamQuery>;

export const formatPosition = (position: LogPosition) =>
  `${position.transactionId}:${position.globalPosition}`;
export const parsePosition = (text: string | undefined): LogPosition => {
  if (!text) return START;
  const [transactionId, globalPosition] = text.split(':');
  return { transactionId, globalPosition };
};

/** One event as the feed sends it: its secrets (password and code hashes, sealed ELD secrets, link token hashes) left out. */
export const feedMessage = (event: RecordedEvent) =>
  JSON.stringify({
    position: formatPosition(event.position),
    streamId: event.streamId,
    type: event.type,
    data: publicEvent(event).data,
    metadata: event.metadata,
  });

const bearerOf = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  if (header) return /^Bearer ([A-Za-z0-9\-_.]+)$/.exec(header)?.[1] ?? null;
  const token = (request.query as StreamQueryType).token;
  return typeof token === 'string' && token !== '' ? token : null;
};

export async function eventsRoutes(app: App) {
  const { store, tokens, realtime, logger } = app.platform;

  // @fastify/websocket would send every upgrade through Fastify's router, and so answer 404 to
  // socket.io's own; it listens to this emitter instead, which gets only this route's upgrades.
  const upgrades = new EventEmitter();
  const routeUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = request.url ?? '';
    if (url.slice(0, SOCKET_PATH.length + 1) === `${SOCKET_PATH}/`) return; // engine.io's
    if (url.split('?')[0].replace(/\/+$/, '') === EVENTS_STREAM_PATH) {
      upgrades.emit('upgrade', request, socket, head);
      return;
    }
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  };
  app.server.on('upgrade', routeUpgrade);
  app.addHook('onClose', async () => {
    app.server.off('upgrade', routeUpgrade);
  });
  await app.register(websocket, { options: { server: upgrades as never, maxPayload: 4096 } });

  /** `?token=` for browsers: read only where no header was sent, and checked like the header. */
  const tokenFromQuery = async (request: FastifyRequest) => {
    if (request.actor || request.headers.authorization) return;
    const token = bearerOf(request);
    if (!token) return;
    try {
      request.actor = actorOf(await tokens.authenticate(token));
    } catch (error) {
      request.authError = error instanceof UnauthorizedError ? error.message : 'Token not valid';
    }
  };

  app.route({
    method: 'GET',
    url: '/events/stream',
    schema: {
      tags: ['events'],
      summary:
        'WebSocket: the event log from a position (transactionId:globalPosition), then live; Superadmins only',
      ...eventsContract.stream,
    },
    onRequest: [tokenFromQuery, can(SUPER_ADMIN)],
    // A plain GET (no upgrade) is told how to ask.
    handler: async (_request, reply) =>
      reply.code(426).header('upgrade', 'websocket').send({
        statusCode: 426,
        error: 'Upgrade Required',
        message: 'Open this address as a WebSocket',
        code: 'upgrade_required',
      }),
    wsHandler: (socket: WebSocket, request: FastifyRequest) => {
      // The guard let it through, so the token is good: read it again for its expiry and session.
      const claims = tokens.verifyAccess(bearerOf(request)!);
      let closed = false;
      const stopWatching = realtime.sessions.watch({
        userId: claims.sub,
        familyId: claims.sid,
        expiresAt: claims.exp,
        close: (reason) =>
          socket.close(
            CLOSE_SESSION_ENDED,
            reason === 'expired' ? 'Token expired' : 'Session ended',
          ),
      });
      const send = (text: string) =>
        new Promise<void>((resolve) => socket.send(text, () => resolve()));
      const subscription = store.subscribe(
        { from: parsePosition((request.query as StreamQueryType).from), pageSize: PAGE },
        async (events) => {
          let last: Promise<void> = Promise.resolve();
          for (const event of events) {
            if (closed) return;
            last = send(feedMessage(event));
          }
          // One page in flight at a time: a slow reader slows its own feed, not the server's memory.
          await last;
        },
      );
      let alive = true;
      const ping = setInterval(() => {
        if (!alive) return socket.terminate();
        alive = false;
        socket.ping();
      }, PING_MS);
      ping.unref();
      socket.on('pong', () => {
        alive = true;
      });
      socket.on('message', () => undefined);
      socket.on('close', () => {
        closed = true;
        clearInterval(ping);
        stopWatching();
        subscription
          .close()
          .catch((err) => logger.warn({ err }, 'event feed subscription did not close'));
      });
    },
  });
}
