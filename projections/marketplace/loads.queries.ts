import type { Kysely } from 'kysely';
import { GenericStatus, OPEN_OFFER_STATUSES } from '../../domain/catalog.ts';
import type { DB } from '../../storage/schema.ts';

// One load at a time, the scheduler's look-ups, and the saved locations of the load form.

/** A load's row with its shipper's name and status, or undefined. */
export const loadWithShipper = (db: Kysely<DB>, loadId: string) =>
  db
    .selectFrom('loads_view as l')
    .innerJoin('organizations_view as o', 'o.id', 'l.shipper_organization_id')
    .selectAll('l')
    .select(['o.name as shipper_name', 'o.status as shipper_status'])
    .where('l.id', '=', loadId)
    .executeTakeFirst();

/** The shipper of a load, or undefined when the read model has no such load. */
export const loadShipper = (db: Kysely<DB>, loadId: string) =>
  db
    .selectFrom('loads_view')
    .select(['shipper_organization_id'])
    .where('id', '=', loadId)
    .executeTakeFirst();

/** How many loads were ever posted. */
export async function loadCount(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('loads_view')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The tour of a shipper's latest load with that reference number that has one. */
export async function latestTourIdByRefNumber(
  db: Kysely<DB>,
  shipperOrganizationId: string,
  refNumber: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('loads_view')
    .select(['tour_id'])
    .where('ref_number', '=', refNumber)
    .where('shipper_organization_id', '=', shipperOrganizationId)
    .where('tour_id', 'is not', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row?.tour_id ?? null;
}

/** Up to `limit` open loads whose offer expired at `now`, soonest first. */
export const expiredOpenLoads = (db: Kysely<DB>, now: string, limit: number) =>
  db
    .selectFrom('loads_view')
    .select('id')
    .where('status', '=', GenericStatus.Created)
    .where('expiration', '<=', new Date(now))
    .orderBy('expiration')
    .limit(limit)
    .execute();

/**
 * Up to `limit` accepted or signed loads, last changed before `changedBefore`, whose acceptance was
 * cut short: no tour in the read model, or offers still open.
 */
export const unfinishedAcceptances = (db: Kysely<DB>, changedBefore: string, limit: number) =>
  db
    .selectFrom('loads_view as l')
    .select('l.id')
    .where('l.status', 'in', [GenericStatus.Accepted, GenericStatus.Signed])
    .where((eb) =>
      eb.or([
        eb.not(
          eb.exists(
            eb.selectFrom('tours_view as t').select('t.id').whereRef('t.id', '=', 'l.tour_id'),
          ),
        ),
        eb.exists(
          eb
            .selectFrom('proposals_view as p')
            .select('p.id')
            .whereRef('p.load_id', '=', 'l.id')
            .where('p.status', 'in', OPEN_OFFER_STATUSES),
        ),
      ]),
    )
    .where('l.updated_at', '<', new Date(changedBefore))
    .limit(limit)
    .execute();

/** An organization's saved locations, by name. */
export const savedLocationsOf = (db: Kysely<DB>, organizationId: string) =>
  db
    .selectFrom('saved_locations_view')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('name')
    .execute();
