/**
 * A fresh access token of the same user and session moves the socket's expiry; anything else
 * (no token, a bad or expired one, another user's or session's, changed rooms) closes it: the
 * client then connects again with whatever token it has.
 */
import { UnauthorizedError } from '../../domain/shared/errors.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import type { Actor } from '../http/auth.ts';
import type {
  ClientEventHandler,
  IoSocket,
  RealtimeDeps,
  UserSocketData,
} from './realtime.types.ts';
import type { SessionWatch } from './sessions.ts';

/** The `auth:refresh` handler of a signed-in user's socket. */
export function authRefresh({
  socket,
  actor,
  session,
  sessions,
  tokens,
  watching,
  maySee,
  leaveTour,
}: {
  socket: IoSocket;
  actor: Actor;
  session: Parameters<SessionWatch['watch']>[0];
  sessions: SessionWatch;
  tokens: RealtimeDeps['tokens'];
  watching: Set<string>;
  maySee: (actor: Actor, tourId: string) => Promise<boolean | null>;
  leaveTour: (socket: IoSocket, tourId: string) => void;
}): ClientEventHandler {
  return async (payload, reply) => {
    const refuse = (error: string) => {
      reply({ ok: false, error });
      socket.disconnect(true);
    };
    const token = (payload as { token?: unknown } | null)?.token;
    if (typeof token !== 'string' || token === '') return refuse('Please sign in');
    let fresh: AccessClaims;
    try {
      fresh = await tokens.authenticate(token);
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
  };
}
