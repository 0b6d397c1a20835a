/** Sockets opened with a tracking link: one tour, read-only, redacted, until the link ends. */
import type { ShareWatch } from './shareWatch.ts';
import type { Logger } from 'pino';
import type { TourChangePayload } from '../../domain/realtime/events.ts';
import { hashShareToken } from '../auth/shareTokens.ts';
import { shareRoom, sharedTourRoom, tourRoom } from './rooms.ts';
import type { Io, IoSocket, SocketData } from './realtime.types.ts';
import { untyped } from './realtime.types.ts';
import type { createSocketEvents } from './socketEvents.ts';

export const SHARE_ENDED = 'This tracking link does not exist or has ended';

/**
 * What a tour's tracking links hear of what its room hears: the positions as they are, and that its
 * status or timeline changed (the page reads its own answer again), without the event's data (names, messages).
 */
export function mirrorToLinks(io: Io, rooms: string[], event: string, payload: unknown) {
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

/** What a tracking link's socket may do once connected. */
export function createShareConnections({
  shares,
  budgeted,
  logger,
}: {
  shares: ShareWatch;
  budgeted: ReturnType<typeof createSocketEvents>['budgeted'];
  logger: Logger;
}) {
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
  return onShareConnection;
}
