/**
 * The name and status of an organization as the read model holds them, kept in memory for a few
 * seconds: every read of one load names its shipper, and a load page would otherwise ask the
 * database for the same organization on every request. A committed page of the organizations read
 * model in this process empties the cache at once (an activation, a block, a rename); a change read
 * by another process's projection is seen within `ttlMs`.
 */
import type { Kysely } from 'kysely';
import { organizationNameAndStatus } from '../../projections/organizations/organizations.queries.ts';
import type { DB } from '../../storage/schema.ts';

export const ORGANIZATION_NAMES_CACHE_MS = 3_000;
const CACHE_MAX = 10_000;

export type OrganizationNameAndStatus = { name: string; status: number } | undefined;

export function createOrganizationNames(options: {
  db: Kysely<DB>;
  onCommitted: (listener: (projection: string) => void) => () => void;
  ttlMs?: number;
}) {
  const ttlMs = options.ttlMs ?? ORGANIZATION_NAMES_CACHE_MS;
  const cache = new Map<string, { row: Promise<OrganizationNameAndStatus>; until: number }>();
  const stop = options.onCommitted((projection) => {
    if (projection === 'organizations') cache.clear();
  });
  return {
    of(organizationId: string): Promise<OrganizationNameAndStatus> {
      const now = Date.now();
      const cached = cache.get(organizationId);
      if (cached && cached.until > now) return cached.row;
      const row = organizationNameAndStatus(options.db, organizationId);
      cache.delete(organizationId);
      cache.set(organizationId, { row, until: now + ttlMs });
      // A failed read is not kept: the next request asks again.
      row.catch(() => {
        if (cache.get(organizationId)?.row === row) cache.delete(organizationId);
      });
      while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
      return row;
    },
    close: stop,
  };
}
export type OrganizationNames = ReturnType<typeof createOrganizationNames>;
