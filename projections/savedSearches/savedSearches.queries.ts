import type { Kysely } from 'kysely';
import { GenericStatus } from '../../domain/catalog.ts';
import type { DB } from '../../storage/schema.ts';
import type { SavedSearchRow } from './savedSearches.tables.ts';

/** An organization's saved searches, oldest first. */
export const savedSearchesOf = (
  db: Kysely<DB>,
  organizationId: string,
): Promise<SavedSearchRow[]> =>
  db
    .selectFrom('saved_searches_view')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** How many searches an organization has saved. */
export async function savedSearchCount(db: Kysely<DB>, organizationId: string): Promise<number> {
  const { count } = await db
    .selectFrom('saved_searches_view')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The saved searches of every Active organization, oldest first: those a new load may alert (but its own shipper's). */
export const activeSearches = (db: Kysely<DB>): Promise<SavedSearchRow[]> =>
  db
    .selectFrom('saved_searches_view as s')
    .innerJoin('organizations_view as o', 'o.id', 's.organization_id')
    .selectAll('s')
    .where('o.status', '=', GenericStatus.Active)
    .orderBy('s.created_at')
    .execute();
