import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';

/** How long `isFamilyActive` trusts its cache: a logout stops access tokens within this many ms. */
export const FAMILY_CACHE_MS = 5_000;
const FAMILY_CACHE_MAX = 10_000;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Sessions (refresh families) ended on logout, block or password change, and whether one is still
 * active: the answer is cached a few seconds per family, and a revocation here updates the cache.
 */
export function createSessionRevocation({ db, now }: { db: Kysely<DB>; now: () => Date }) {
  const familyCache = new Map<string, { active: boolean; until: number }>();

  function cacheFamily(familyId: string, active: boolean) {
    familyCache.delete(familyId);
    familyCache.set(familyId, { active, until: now().getTime() + FAMILY_CACHE_MS });
    // Insertion order is age order: drop the oldest to stay bounded.
    while (familyCache.size > FAMILY_CACHE_MAX)
      familyCache.delete(familyCache.keys().next().value!);
  }

  async function revokeFamily(familyId: string): Promise<void> {
    await db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now() })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
    cacheFamily(familyId, false);
  }

  /** False once the family is revoked or expired; cached for at most FAMILY_CACHE_MS. */
  async function isFamilyActive(familyId: string): Promise<boolean> {
    if (!UUID.test(familyId)) return false;
    const cached = familyCache.get(familyId);
    if (cached && cached.until > now().getTime()) return cached.active;
    const row = await db
      .selectFrom('refresh_tokens')
      .select('id')
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now())
      .limit(1)
      .executeTakeFirst();
    cacheFamily(familyId, row !== undefined);
    return row !== undefined;
  }

  return {
    cacheFamily,
    revokeFamily,
    isFamilyActive,

    /** Every session of a user: on block, password change or reset. */
    async revokeAllForUser(userId: string): Promise<number> {
      if (!UUID.test(userId)) return 0;
      const rows = await db
        .updateTable('refresh_tokens')
        .set({ revoked_at: now() })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .returning('family_id')
        .execute();
      const families = new Set(rows.map((row) => row.family_id));
      for (const familyId of families) cacheFamily(familyId, false);
      return families.size;
    },

    /** Every session of every member of an organization: on its block. */
    async revokeAllForOrganization(organizationId: string): Promise<number> {
      if (!UUID.test(organizationId)) return 0;
      const rows = await db
        .updateTable('refresh_tokens')
        .set({ revoked_at: now() })
        .where('organization_id', '=', organizationId)
        .where('revoked_at', 'is', null)
        .returning('family_id')
        .execute();
      const families = new Set(rows.map((row) => row.family_id));
      for (const familyId of families) cacheFamily(familyId, false);
      return families.size;
    },

    /**
     * Every session of a user but the one it is using (it changed its own password or e-mail). The
     * kept session counts as begun now, so that the password change's cutoff does not refuse it.
     */
    async revokeOtherSessions(userId: string, keepFamilyId: string): Promise<number> {
      if (!UUID.test(userId) || !UUID.test(keepFamilyId)) return 0;
      const rows = await db
        .updateTable('refresh_tokens')
        .set({ revoked_at: now() })
        .where('user_id', '=', userId)
        .where('family_id', '!=', keepFamilyId)
        .where('revoked_at', 'is', null)
        .returning('family_id')
        .execute();
      await db
        .updateTable('refresh_tokens')
        .set({ session_started_at: now() })
        .where('user_id', '=', userId)
        .where('family_id', '=', keepFamilyId)
        .execute();
      const families = new Set(rows.map((row) => row.family_id));
      for (const familyId of families) cacheFamily(familyId, false);
      return families.size;
    },
  };
}
