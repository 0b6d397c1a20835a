import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';

/** A tour's last `limit` positions, oldest first. */
export async function recentTrail(db: Kysely<DB>, tourId: string, limit: number) {
  const rows = await db
    .selectFrom('tour_positions_view')
    .select(['latitude', 'longitude', 'speed', 'heading', 'recorded_at'])
    .where('tour_id', '=', tourId)
    .orderBy('recorded_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

/** A tour's positions recorded after `since`, oldest first, at most `limit`. */
export const positionsSince = (db: Kysely<DB>, tourId: string, since: string, limit: number) =>
  db
    .selectFrom('tour_positions_view')
    .select(['latitude', 'longitude', 'speed', 'heading', 'recorded_at'])
    .where('tour_id', '=', tourId)
    .where('recorded_at', '>', new Date(since))
    .orderBy('recorded_at', 'asc')
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();

/** A tour's last position, or undefined. */
export const lastPositionOf = (db: Kysely<DB>, tourId: string) =>
  db
    .selectFrom('tour_positions_view')
    .select(['latitude', 'longitude', 'recorded_at'])
    .where('tour_id', '=', tourId)
    .orderBy('recorded_at', 'desc')
    .limit(1)
    .executeTakeFirst();

/** When a tour's first and last positions were recorded (both null without any). */
export async function positionSpan(
  db: Kysely<DB>,
  tourId: string,
): Promise<{ first: Date | null; last: Date | null }> {
  const row = await db
    .selectFrom('tour_positions_view')
    .where('tour_id', '=', tourId)
    .select((eb) => [eb.fn.min('recorded_at').as('first'), eb.fn.max('recorded_at').as('last')])
    .executeTakeFirst();
  return { first: row?.first ?? null, last: row?.last ?? null };
}
