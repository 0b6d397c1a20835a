import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';

/** The change a cancel link names, whatever its state; nothing for an unknown token. */
export const contactChangeByHash = (db: Kysely<DB>, tokenHash: string) =>
  db
    .selectFrom('organization_contact_changes_view')
    .select(['id', 'organization_id', 'status'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();

/** The pending changes whose 24 hours are over at `now`, the oldest first. */
export const dueContactChanges = (db: Kysely<DB>, now: string, limit: number) =>
  db
    .selectFrom('organization_contact_changes_view')
    .select(['id', 'organization_id'])
    .where('status', '=', 'pending')
    .where('pending_until', '<=', new Date(now))
    .orderBy('pending_until')
    .limit(limit)
    .execute();
