/**
 * socket.io (and the raw event feed) check the access token only when the connection opens. This
 * keeps checking it for as long as the connection lives, and closes the connection:
 * - when the token expires: a timer set to its `exp`, moved when the connection receives a fresh
 *   token of the same session (`renew`);
 * - when its session ends (logout, a block, a password change or reset, a deletion: each revokes
 *   the refresh family in `refresh_tokens`): one query every `pollMs` for the families of every
 *   open connection of this process, in batches, so the cost is one indexed query per tick
 *   however many sockets are open, none while none is, and it sees a revocation made by any
 *   process (the token service's family cache would hide one made elsewhere for 5 s);
 * - at once, when the notifier sees the user blocked or deleted in the event log (`endUser`).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';

export type WatchedSession = {
  userId: string;
  /** The refresh family (the token's `sid`). */
  familyId: string;
  /** The token's `exp`, in seconds since the epoch. */
  expiresAt: number;
  close: (reason: SessionEndReason) => void;
};
export type SessionEndReason = 'expired' | 'signedOut' | 'blocked';

const BATCH = 1000;

export type SessionWatch = ReturnType<typeof createSessionWatch>;

export function createSessionWatch(options: {
  db: Kysely<DB>;
  pollMs?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
}) {
  const pollMs = options.pollMs ?? 500;
  const now = options.now ?? Date.now;
  const watched = new Map<WatchedSession, NodeJS.Timeout>();
  let poller: NodeJS.Timeout | null = null;
  let polling = false;
  let closed = false;

  function end(session: WatchedSession, reason: SessionEndReason) {
    const timer = watched.get(session);
    if (timer === undefined) return;
    clearTimeout(timer);
    watched.delete(session);
    if (watched.size === 0) stopPolling();
    session.close(reason);
  }

  function expiryTimer(session: WatchedSession): NodeJS.Timeout {
    const remaining = session.expiresAt * 1000 - now();
    // setTimeout keeps at most 2^31-1 ms; access tokens live 15 minutes.
    const timer = setTimeout(
      () => end(session, 'expired'),
      Math.max(0, Math.min(remaining, 2 ** 31 - 1)),
    );
    timer.unref();
    return timer;
  }

  function stopPolling() {
    if (poller) clearInterval(poller);
    poller = null;
  }

  async function poll() {
    if (polling || watched.size === 0) return;
    polling = true;
    try {
      const families = [...new Set([...watched.keys()].map((session) => session.familyId))];
      const active = new Set<string>();
      for (let start = 0; start < families.length; start += BATCH) {
        const rows = await options.db
          .selectFrom('refresh_tokens')
          .select('family_id')
          .distinct()
          .where('family_id', 'in', families.slice(start, start + BATCH))
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', new Date(now()))
          .execute();
        for (const row of rows) active.add(String(row.family_id));
      }
      for (const session of [...watched.keys()]) {
        if (!active.has(session.familyId)) end(session, 'signedOut');
      }
    } catch (error) {
      // A failed check closes nothing: the next tick tries again.
      options.onError?.(error);
    } finally {
      polling = false;
    }
  }

  return {
    /** Starts watching; returns the function that stops watching (when the connection closed by itself). */
    watch(session: WatchedSession): () => void {
      if (closed) {
        session.close('signedOut');
        return () => undefined;
      }
      watched.set(session, expiryTimer(session));
      if (!poller) {
        poller = setInterval(() => void poll(), pollMs);
        poller.unref();
      }
      return () => {
        const pending = watched.get(session);
        if (pending !== undefined) clearTimeout(pending);
        watched.delete(session);
        if (watched.size === 0) stopPolling();
      };
    },

    /** A fresh token came for a watched connection: it now closes at `expiresAt` (seconds) instead. False when no longer watched. */
    renew(session: WatchedSession, expiresAt: number): boolean {
      const timer = watched.get(session);
      if (timer === undefined) return false;
      clearTimeout(timer);
      session.expiresAt = expiresAt;
      watched.set(session, expiryTimer(session));
      return true;
    },

    /** Ends every connection of the user now (it was blocked or deleted). */
    endUser(userId: string, reason: SessionEndReason = 'blocked') {
      for (const session of [...watched.keys()])
        if (session.userId === userId) end(session, reason);
    },

    /** How many connections are watched (for tests and health figures). */
    get size() {
      return watched.size;
    },

    close() {
      closed = true;
      stopPolling();
      for (const timer of watched.values()) clearTimeout(timer);
      watched.clear();
    },
  };
}
