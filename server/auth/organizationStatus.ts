/**
 * The status of the caller's organization, asked on every authenticated request (http/auth.ts) and
 * at every socket handshake: a Pending organization's users may only wait, a Blocked one's may do
 * nothing. An access token carries no status, so that a block or an activation takes effect for
 * tokens issued before it: the status is read from the organization's stream (the truth, never a
 * read model that may lag) and kept here for at most `ttlMs`.
 *
 * A change made by this process (PUT organizations/{id}/status, the activation of a user's Pending
 * organization) forgets the entry at once, and so does every committed page of the organizations
 * read model of this process; a change made by another process is seen within `ttlMs`.
 */
export const ORGANIZATION_STATUS_CACHE_MS = 3_000;
const CACHE_MAX = 10_000;

/** `null`: no such organization (treated like a blocked one by the callers). */
export type OrganizationStatusOf = (organizationId: string) => Promise<number | null>;

/** Blocked, or gone: neither may sign in nor call anything. Pending (1) waits, Active (2) works. */
export const isBlockedStatus = (status: number | null) => status !== 1 && status !== 2;

export type OrganizationStatusCache = {
  statusOf: OrganizationStatusOf;
  /** Drops the cached status (the organization's status just changed). */
  forget(organizationId: string): void;
};

export function createOrganizationStatusCache(options: {
  load: (organizationId: string) => Promise<number | null>;
  ttlMs?: number;
  now?: () => number;
}): OrganizationStatusCache {
  const ttlMs = options.ttlMs ?? ORGANIZATION_STATUS_CACHE_MS;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { status: Promise<number | null>; until: number }>();

  return {
    statusOf(organizationId) {
      const cached = cache.get(organizationId);
      if (cached && cached.until > now()) return cached.status;
      const status = options.load(organizationId);
      cache.delete(organizationId);
      cache.set(organizationId, { status, until: now() + ttlMs });
      // A failed read is not kept: the next request asks again.
      status.catch(() => {
        if (cache.get(organizationId)?.status === status) cache.delete(organizationId);
      });
      // Insertion order is age order: drop the oldest to stay bounded.
      while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
      return status;
    },
    forget(organizationId) {
      cache.delete(organizationId);
    },
  };
}
