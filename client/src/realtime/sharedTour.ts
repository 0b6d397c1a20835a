import { io } from 'socket.io-client';
import type { TourPositionPayload } from '../../../domain/realtime/events.ts';
import { DEFAULT_TRANSPORTS, type Transport, type TypedSocket } from './transport.ts';

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
  options: { url?: string; transports?: Transport[] } = {},
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
