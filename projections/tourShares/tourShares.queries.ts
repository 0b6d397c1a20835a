import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';

/** The link a token names while it works: not revoked and not expired at `now`; else nothing. */
export const liveShareByHash = (db: Kysely<DB>, tokenHash: string, now: Date) =>
  db
    .selectFrom('tour_shares_view')
    .select(['id', 'tour_id', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();

/** A link of the tour by its token, whatever its state (for its revocation). */
export const shareOfTourByHash = (db: Kysely<DB>, tourId: string, tokenHash: string) =>
  db
    .selectFrom('tour_shares_view')
    .select(['id', 'organization_id', 'revoked_at'])
    .where('tour_id', '=', tourId)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();

/** The organization's links of a tour that still work, newest first. */
export const liveSharesOfTour = (
  db: Kysely<DB>,
  tourId: string,
  organizationId: string,
  now: Date,
) =>
  db
    .selectFrom('tour_shares_view')
    .select(['id', 'expires_at', 'created_at'])
    .where('tour_id', '=', tourId)
    .where('organization_id', '=', organizationId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute();
