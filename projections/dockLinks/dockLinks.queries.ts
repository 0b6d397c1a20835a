import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';

/** The dock link a token names while it works: not revoked and not expired at `now`; else nothing. */
export const liveDockLinkByHash = (db: Kysely<DB>, tokenHash: string, now: Date) =>
  db
    .selectFrom('dock_links_view')
    .select(['id', 'tour_id', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();

/** A dock link of the tour by its token, whatever its state (for its revocation). */
export const dockLinkOfTourByHash = (db: Kysely<DB>, tourId: string, tokenHash: string) =>
  db
    .selectFrom('dock_links_view')
    .select(['id', 'organization_id', 'revoked_at'])
    .where('tour_id', '=', tourId)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
