/**
 * Sockets opened with a tracking link live only as long as the link: each closes when the link
 * expires (a timer at its `expiresAt`) or is revoked, which one query every `pollMs` over the links
 * of every open link socket of this process notices, whichever process revoked it (as sessions.ts
 * does for signed-in sockets).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';

export type WatchedShare = {
  shareId: string;
  expiresAt: Date;
  close: (reason: 'expired' | 'revoked') => void;
};

const BATCH = 1000;

export type ShareWatch = ReturnType<typeof createShareWatch>;

export function createShareWatch(options: {
  db: Kysely<DB>;
  pollMs?: number;
  onError?: (error: unknown) => void;
}) {
  const pollMs = options.pollMs ?? 500;
  const watched = new Map<WatchedShare, NodeJS.Timeout>();
  let poller: NodeJS.Timeout | null = null;
  let polling = false;
  let closed = false;

  function end(share: WatchedShare, reason: 'expired' | 'revoked') {
    const timer = watched.get(share);
    if (timer === undefined) return;
    clearTimeout(timer);
    watched.delete(share);
    if (watched.size === 0) stopPolling();
    share.close(reason);
  }

  function stopPolling() {
    if (poller) clearInterval(poller);
    poller = null;
  }

  async function poll() {
    if (polling || watched.size === 0) return;
    polling = true;
    try {
      const ids = [...new Set([...watched.keys()].map((share) => share.shareId))];
      const live = new Set<string>();
      for (let start = 0; start < ids.length; start += BATCH) {
        const rows = await options.db
          .selectFrom('tour_shares_view')
          .select('id')
          .where('id', 'in', ids.slice(start, start + BATCH))
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', new Date())
          .execute();
        for (const row of rows) live.add(String(row.id));
      }
      for (const share of [...watched.keys()]) if (!live.has(share.shareId)) end(share, 'revoked');
    } catch (error) {
      // A failed check closes nothing: the next tick tries again.
      options.onError?.(error);
    } finally {
      polling = false;
    }
  }

  return {
    /** Starts watching; returns the function that stops watching (when the socket closed by itself). */
    watch(share: WatchedShare): () => void {
      if (closed) {
        share.close('revoked');
        return () => undefined;
      }
      const remaining = share.expiresAt.getTime() - Date.now();
      const timer = setTimeout(
        () => end(share, 'expired'),
        Math.max(0, Math.min(remaining, 2 ** 31 - 1)),
      );
      timer.unref();
      watched.set(share, timer);
      if (!poller) {
        poller = setInterval(() => void poll(), pollMs);
        poller.unref();
      }
      return () => {
        const pending = watched.get(share);
        if (pending !== undefined) clearTimeout(pending);
        watched.delete(share);
        if (watched.size === 0) stopPolling();
      };
    },

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
