/** A socket's incoming events, each counted against its budget (budget.ts) before its handler runs. */
import type { EventBudget } from './budget.ts';
import type { Logger } from 'pino';
import type { Breach, SocketBudget } from './budget.ts';
import type { ClientEventHandler, IoSocket, Reply } from './realtime.types.ts';

/** Runs each socket's handlers within its budget, shared with the other sockets of the same owner in this process. */
export function createSocketEvents(events: EventBudget, logger: Logger) {
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

  return { closeOverBudget, budgeted };
}
