import type { TypedSocket } from './transport.ts';

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

export type TokenSource = {
  /** The access token to connect with now (null: signed out). */
  token(): string | null;
  /** A fresh access token, or null when the session cannot be refreshed. Shared with the HTTP client. */
  refresh(): Promise<string | null>;
};

/**
 * The open socket's access token: refreshed shortly before it expires (the HTTP client's single
 * refresh, so the two never refresh twice) and handed to the socket (`auth:refresh`), so the server
 * does not close it at the old token's expiry.
 */
export function createTokenRefresher(source: TokenSource, currentSocket: () => TypedSocket | null) {
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  /** The token the socket holds now (the handshake's, or the last one handed over). */
  let socketToken: string | null = null;

  /** A token that lives a while yet: the stored one, else a refreshed one. */
  async function usableToken(): Promise<string | null> {
    const stored = source.token();
    const times = tokenTimes(stored);
    if (stored && times && times.exp * 1000 - Date.now() > 5000) return stored;
    return stored ? source.refresh() : null;
  }

  function stop() {
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = null;
  }

  function scheduleRefresh() {
    stop();
    const times = tokenTimes(socketToken);
    if (!times || !currentSocket()) return;
    const due = times.exp * 1000 - refreshLeadMs(times) - Date.now();
    refreshTimer = setTimeout(() => void handOver(), Math.max(0, due));
  }

  /** Gives the open socket a fresh token before its own expires. */
  async function handOver() {
    refreshTimer = null;
    if (!currentSocket()?.connected) return;
    const held = tokenTimes(socketToken);
    // The HTTP client may have refreshed already: a stored token that ends later is fresh enough.
    const stored = source.token();
    const storedTimes = tokenTimes(stored);
    const fresh =
      stored &&
      storedTimes &&
      held &&
      storedTimes.exp > held.exp &&
      storedTimes.exp * 1000 - Date.now() > refreshLeadMs(storedTimes)
        ? stored
        : await source.refresh();
    const socket = currentSocket();
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

  return {
    usableToken,
    scheduleRefresh,
    /** Cancels the pending refresh (the socket is down). */
    stop,
    /** The newest stored token, read for a handshake: the socket holds it from now on. */
    handshakeToken(): string | null {
      socketToken = source.token();
      return socketToken;
    },
    /** Signed out: no timer, no token held. */
    reset() {
      stop();
      socketToken = null;
    },
  };
}
