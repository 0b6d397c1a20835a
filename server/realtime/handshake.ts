/**
 * Who may open a socket: the Origin a browser sends, the access token (or a tracking link's token), and
 * the organization's status; a socket let in carries its user (or its link) from then on.
 */
import type { IncomingMessage } from 'node:http';
import { permissionsFor } from '../../domain/permissions.ts';
import { UnauthorizedError } from '../../domain/shared/errors.ts';
import { hashShareToken } from '../auth/shareTokens.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { liveShareByHash } from '../../projections/tourShares/tourShares.queries.ts';
import type { Actor } from '../http/auth.ts';
import type { IoSocket, RealtimeDeps } from './realtime.types.ts';
import { SHARE_ENDED } from './shareSockets.ts';

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
export const allowOrigin =
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

/** The handshake of every socket; the notifier starts with the first socket let in. */
export function createHandshake(deps: RealtimeDeps, notifier: { start(): Promise<void> }) {
  const { logger } = deps;

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
    // A session that must enrol in two-factor sign-in hears nothing until it has (403 on the API too).
    if (claims.enr === 1) return next(refusal('Set up two-factor sign-in first', 403));
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
  return handshake;
}
