import { sql, type Kysely } from 'kysely';
import { GenericStatus, OPEN_OFFER_STATUSES, ratingCriteria } from '../../domain/catalog.ts';
import type { DB } from '../../storage/schema.ts';
import { orderDirection, type TablePage } from '../tablePage.ts';

// The carriers' offers on loads, and the ratings their tours earned.

/** The offers table: sortable columns. */
export const OFFER_ORDER: Record<string, string> = {
  price: 'p.price',
  submittedAt: 'p.submitted_at',
  status: 'p.status',
  updatedAt: 'p.updated_at',
  guid: 'p.load_guid',
};

/**
 * Which offers a table lists: one load's, one carrier's, or both at once; all when neither.
 * `hideBlockedCarriers`: without the open offers of blocked carriers (what a shipper sees).
 */
export type OfferScope = {
  loadId?: string;
  carrierOrganizationId?: string;
  hideBlockedCarriers?: boolean;
};

const offerQuery = (db: Kysely<DB>) =>
  db
    .selectFrom('proposals_view as p')
    .innerJoin('organizations_view as c', 'c.id', 'p.carrier_organization_id')
    .innerJoin('loads_view as l', 'l.id', 'p.load_id');
const offerColumns = [
  'p.id',
  'p.load_id',
  'p.load_guid',
  'p.status',
  'p.price',
  'p.counter_price',
  'p.terms',
  'p.counter_terms',
  'p.message',
  'p.eld_truck_name',
  'p.submitted_at',
  'p.updated_at',
  'p.carrier_organization_id',
  'p.shipper_organization_id',
  'p.tour_id',
  'p.contract_file_id',
  'c.name as carrier_name',
  'l.status as load_status',
  'l.expiration as load_expiration',
] as const;
const loadColumns = [
  'l.pickup_address',
  'l.pickup_city',
  'l.pickup_state',
  'l.pickup_start',
  'l.pickup_timezone',
  'l.dropoff_address',
  'l.dropoff_city',
  'l.dropoff_state',
  'l.dropoff_start',
  'l.dropoff_timezone',
  'l.weight',
  'l.commodity',
  'l.terms as load_terms',
] as const;

/** A page of offers with their carrier's name and their load's status (and, `withLoad`, its places), and the number of all matches. */
export async function offersPage(
  db: Kysely<DB>,
  scope: OfferScope,
  filter: { statuses: number[] | null; withLoad: boolean },
  page: TablePage,
) {
  let base = offerQuery(db);
  if (scope.loadId !== undefined) base = base.where('p.load_id', '=', scope.loadId);
  if (scope.carrierOrganizationId !== undefined)
    base = base.where('p.carrier_organization_id', '=', scope.carrierOrganizationId);
  if (scope.hideBlockedCarriers)
    base = base.where((eb) =>
      eb.not(
        eb.and([
          eb('c.status', '=', GenericStatus.Blocked),
          eb('p.status', 'in', OPEN_OFFER_STATUSES),
        ]),
      ),
    );
  if (filter.statuses) base = base.where('p.status', 'in', filter.statuses);
  const { pattern } = page;
  if (pattern)
    base = base.where((eb) =>
      eb.or([
        eb('c.name', 'ilike', pattern),
        eb('p.load_guid', 'ilike', pattern),
        eb('p.message', 'ilike', pattern),
      ]),
    );
  const { total } = await base
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await base
    .select([...offerColumns])
    .$if(filter.withLoad, (qb) => qb.select([...loadColumns]))
    .orderBy(sql.ref(page.column), orderDirection(page))
    .orderBy('p.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { total: Number(total), rows };
}

/** One offer on a load, with its carrier's name and status and its load's status and places; undefined when there is none. */
export const offerOnLoad = (db: Kysely<DB>, loadId: string, offerId: string) =>
  offerQuery(db)
    .select([...offerColumns, ...loadColumns, 'c.status as carrier_status'])
    .where('p.id', '=', offerId)
    .where('p.load_id', '=', loadId)
    .executeTakeFirst();

/** A carrier's offer on a load (its id), or undefined. */
export const carrierOfferOn = (db: Kysely<DB>, loadId: string, carrierOrganizationId: string) =>
  db
    .selectFrom('proposals_view')
    .select('id')
    .where('load_id', '=', loadId)
    .where('carrier_organization_id', '=', carrierOrganizationId)
    .executeTakeFirst();

/** The ids of a load's offers still open (submitted or countered). */
export async function openOfferIds(db: Kysely<DB>, loadId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('proposals_view')
    .select('id')
    .where('load_id', '=', loadId)
    .where('status', 'in', OPEN_OFFER_STATUSES)
    .execute();
  return rows.map((row) => row.id);
}

/** The ids of every offer on a load. */
export async function offerIdsOf(db: Kysely<DB>, loadId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('proposals_view')
    .select('id')
    .where('load_id', '=', loadId)
    .execute();
  return rows.map((row) => row.id);
}

/** A load's live offers (open, accepted or confirmed) with their carrier's contact, for the map. */
export const offersWithCarriers = (db: Kysely<DB>, loadId: string) =>
  db
    .selectFrom('proposals_view as p')
    .innerJoin('organizations_view as o', 'o.id', 'p.carrier_organization_id')
    .select([
      'p.id',
      'p.price',
      'p.status',
      'p.eld_truck_name',
      'p.message',
      'o.id as org_id',
      'o.name',
      'o.address',
      'o.person',
      'o.phone',
    ])
    .where('p.load_id', '=', loadId)
    .where('p.status', 'in', [
      ...OPEN_OFFER_STATUSES,
      GenericStatus.Accepted,
      GenericStatus.Confirmed,
    ])
    // A blocked carrier's open offers are hidden from the shipper.
    .where((eb) =>
      eb.not(
        eb.and([
          eb('o.status', '=', GenericStatus.Blocked),
          eb('p.status', 'in', OPEN_OFFER_STATUSES),
        ]),
      ),
    )
    .execute();

/**
 * Each organization's ratings as `{criterion name: mean}` over all its rated tours, two decimals
 * (docs/domain.md "Ratings"); organizations never rated are absent from the map.
 */
export async function organizationRatings(
  db: Kysely<DB>,
  organizationIds: readonly string[],
): Promise<Map<string, Record<string, number>>> {
  const result = new Map<string, Record<string, number>>();
  if (organizationIds.length === 0) return result;
  const rows = await db
    .selectFrom('tour_ratings_view')
    .select(['rated_organization_id', 'criteria', (eb) => eb.fn.avg<string>('rating').as('mean')])
    .where('rated_organization_id', 'in', [...organizationIds])
    .groupBy(['rated_organization_id', 'criteria'])
    .orderBy('criteria')
    .execute();
  for (const row of rows) {
    const name = ratingCriteria.find((criterion) => criterion.id === row.criteria)?.name;
    if (!name) continue;
    const ratings = result.get(row.rated_organization_id) ?? {};
    ratings[name] = Math.round(Number(row.mean) * 100) / 100;
    result.set(row.rated_organization_id, ratings);
  }
  return result;
}
