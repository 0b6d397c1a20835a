import { visibleToCarrier } from '../carrierPreferences/carrierPreferences.queries.ts';
import { paysWithin } from '../payerFigures/payerFigures.queries.ts';
import { sql, type Kysely } from 'kysely';
import { GenericStatus, OPEN_OFFER_STATUSES } from '../../domain/catalog.ts';
import { boundingBox } from '../../domain/loads/route.ts';
import type { DB } from '../../storage/schema.ts';
import { orderDirection, type TablePage } from '../tablePage.ts';
import { NO_ORGANIZATION } from './organizationScope.ts';

// The two boards of loads: the shipper's own loads, and the marketplace carriers search.

/** The shipper's loads table: sortable columns by the name the client sends. */
export const SHIPPER_ORDER: Record<string, string> = {
  guid: 'l.guid',
  pickupTime: 'l.pickup_start',
  dropoffTime: 'l.dropoff_start',
  expiration: 'l.expiration',
  createdAt: 'l.created_at',
  weight: 'l.weight',
  status: 'l.status',
  proposals: 'l.proposals_count',
  'loads.guid': 'l.guid',
  'loads.expiration': 'l.expiration',
  'Pickup time': 'l.pickup_start',
};
/** The carriers' marketplace: sortable columns. */
export const CARRIER_ORDER: Record<string, string> = {
  guid: 'l.guid',
  pickupTime: 'l.pickup_start',
  dropoffTime: 'l.dropoff_start',
  expiration: 'l.expiration',
  weight: 'l.weight',
  distance: 'l.distance_miles',
  createdAt: 'l.created_at',
  'loads.guid': 'l.guid',
  'loads.expiration': 'l.expiration',
  'Pickup time': 'l.pickup_start',
};

/**
 * A page of a shipper's loads (every shipper's when `shipperOrganizationId` is null) with their
 * tour's ratings and driver, and the offers still open that `userId` has not seen since last
 * opening the load's offers; `statuses` matches the load's or its tour's status.
 */
export async function shipperLoadsPage(
  db: Kysely<DB>,
  filter: { userId: string; shipperOrganizationId: string | null; statuses: number[] | null },
  page: TablePage,
) {
  let base = db
    .selectFrom('loads_view as l')
    .leftJoin('tours_view as t', 't.id', 'l.tour_id')
    .leftJoin('proposals_seen as s', (join) =>
      join.onRef('s.load_id', '=', 'l.id').on('s.user_id', '=', filter.userId),
    );
  if (filter.shipperOrganizationId !== null)
    base = base.where('l.shipper_organization_id', '=', filter.shipperOrganizationId);
  const { statuses } = filter;
  if (statuses)
    base = base.where((eb) =>
      eb.or([eb('l.status', 'in', statuses), eb('l.tour_status', 'in', statuses)]),
    );
  const { pattern } = page;
  if (pattern) {
    base = base.where((eb) =>
      eb.or([
        eb('l.guid', 'ilike', pattern),
        eb('l.commodity', 'ilike', pattern),
        eb('l.ref_number', 'ilike', pattern),
        eb('l.pickup_address', 'ilike', pattern),
        eb('l.dropoff_address', 'ilike', pattern),
      ]),
    );
  }
  const { total } = await base
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  const open = sql.join(OPEN_OFFER_STATUSES);
  const rows = await base
    .selectAll('l')
    .select(['t.shipper_rated', 't.carrier_rated', 't.assignee_name'])
    .select(
      sql<number>`(SELECT count(*)::int FROM proposals_view p WHERE p.load_id = l.id AND p.status IN (${open}) AND (s.seen_at IS NULL OR p.submitted_at > s.seen_at)
      AND NOT EXISTS (SELECT 1 FROM organizations_view c WHERE c.id = p.carrier_organization_id AND c.status = ${GenericStatus.Blocked}))`.as(
        'new_proposals',
      ),
    )
    // A blocked carrier's open offers are hidden from the shipper: the load's figures are recounted without them when it has any.
    .select(
      sql<{
        total: number;
        open: number;
        best: string | null;
      } | null>`(SELECT CASE WHEN count(*) FILTER (WHERE c.status = ${GenericStatus.Blocked} AND p.status IN (${open})) = 0 THEN NULL
        ELSE json_build_object('total', count(*) FILTER (WHERE NOT (c.status = ${GenericStatus.Blocked} AND p.status IN (${open}))),
          'open', count(*) FILTER (WHERE c.status <> ${GenericStatus.Blocked} AND p.status IN (${open})),
          'best', min(p.price) FILTER (WHERE c.status <> ${GenericStatus.Blocked} AND p.status IN (${open}))) END
      FROM proposals_view p JOIN organizations_view c ON c.id = p.carrier_organization_id WHERE p.load_id = l.id)`.as(
        'without_blocked',
      ),
    )
    .orderBy(sql.ref(page.column), orderDirection(page))
    .orderBy('l.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { total: Number(total), rows };
}

const EARTH_MILES = 3958.7613;
/** Great-circle miles between a row's point and a given point, in SQL. */
const milesFrom = (latColumn: string, lonColumn: string, latitude: number, longitude: number) => {
  const lat = sql`${latitude}::float8`;
  const lon = sql`${longitude}::float8`;
  return sql<number>`(2 * ${EARTH_MILES}::float8 * asin(least(1, sqrt(
    power(sin(radians(${sql.ref(latColumn)} - ${lat}) / 2), 2)
    + cos(radians(${lat})) * cos(radians(${sql.ref(latColumn)})) * power(sin(radians(${sql.ref(lonColumn)} - ${lon}) / 2), 2)))))`;
};

export type SearchArea = { latitude: number; longitude: number; radius: number };

/**
 * A page of the marketplace as a carrier sees it: the loads open now (Created, not expired, of an
 * Active shipper) that match the search, each with the carrier's own offer and, for a searched
 * area, its distance; and the number of all matches.
 */
export async function marketplacePage(
  db: Kysely<DB>,
  filter: {
    carrierOrganizationId: string | null;
    now: string;
    origin: SearchArea | null;
    destination: SearchArea | null;
    equipment: number[] | null;
    loadTypes: number[] | null;
    pickupFrom: string | null;
    pickupTo: string | null;
    maxWeight: number | null;
    /** Only the loads with a Book Now price. */
    bookNow?: boolean;
    /** Only the loads of measured shippers whose median days to pay is at most this. */
    maxDaysToPay?: number | null;
  },
  page: TablePage,
) {
  const { origin, destination, equipment, loadTypes, pickupFrom, pickupTo, maxWeight } = filter;
  const orgId = filter.carrierOrganizationId ?? NO_ORGANIZATION;
  let base = db
    .selectFrom('loads_view as l')
    .innerJoin('organizations_view as o', 'o.id', 'l.shipper_organization_id')
    .leftJoin('proposals_view as p', (join) =>
      join.onRef('p.load_id', '=', 'l.id').on('p.carrier_organization_id', '=', orgId),
    )
    .where('l.status', '=', GenericStatus.Created)
    .where('l.expiration', '>', new Date(filter.now))
    .where('o.status', '=', GenericStatus.Active)
    // Never a load of a shipper that blocked the carrier; a preferred-only one to its preferred carriers.
    .where(visibleToCarrier(orgId));
  for (const [area, prefix] of [
    [origin, 'pickup'],
    [destination, 'dropoff'],
  ] as const) {
    if (!area) continue;
    const box = boundingBox(area, area.radius);
    base = base
      .where(
        sql<boolean>`${sql.ref(`l.${prefix}_latitude`)} BETWEEN ${box.minLat}::float8 AND ${box.maxLat}::float8`,
      )
      .where(
        sql<boolean>`${sql.ref(`l.${prefix}_longitude`)} BETWEEN ${box.minLon}::float8 AND ${box.maxLon}::float8`,
      )
      .where(
        milesFrom(`l.${prefix}_latitude`, `l.${prefix}_longitude`, area.latitude, area.longitude),
        '<=',
        area.radius,
      );
  }
  if (equipment)
    base = base.where(
      sql<boolean>`l.equipment && ${sql`${`{${equipment.join(',')}}`}::integer[]`}`,
    );
  if (loadTypes) base = base.where('l.load_type_id', 'in', loadTypes);
  if (pickupFrom) base = base.where('l.pickup_start', '>=', new Date(pickupFrom));
  if (pickupTo) base = base.where('l.pickup_start', '<=', new Date(pickupTo));
  if (maxWeight !== null) base = base.where(sql<boolean>`l.weight <= ${maxWeight}::float8`);
  if (filter.bookNow) base = base.where('l.book_now_price', 'is not', null);
  if (filter.maxDaysToPay != null)
    base = base.where(
      paysWithin('l.shipper_organization_id', filter.maxDaysToPay, new Date(filter.now)),
    );
  const { pattern } = page;
  if (pattern) {
    base = base.where((eb) =>
      eb.or([
        eb('l.guid', 'ilike', pattern),
        eb('l.commodity', 'ilike', pattern),
        eb('l.pickup_address', 'ilike', pattern),
        eb('l.dropoff_address', 'ilike', pattern),
      ]),
    );
  }
  // The page and the number of matches in one scan: the count is a window over every match.
  const rows = await base
    .selectAll('l')
    .select([
      'o.name as shipper_name',
      'p.id as my_proposal_id',
      'p.status as my_proposal_status',
      'p.price as my_proposal_price',
      'p.counter_price as my_counter_price',
    ])
    .select(sql<string>`count(*) OVER ()`.as('total_matches'))
    .$if(origin !== null, (qb) =>
      qb.select(
        milesFrom(
          'l.pickup_latitude',
          'l.pickup_longitude',
          origin!.latitude,
          origin!.longitude,
        ).as('origin_miles'),
      ),
    )
    .$if(destination !== null, (qb) =>
      qb.select(
        milesFrom(
          'l.dropoff_latitude',
          'l.dropoff_longitude',
          destination!.latitude,
          destination!.longitude,
        ).as('destination_miles'),
      ),
    )
    .orderBy(sql.ref(page.column), orderDirection(page))
    .orderBy('l.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  // A page past the last match has no row to carry the count.
  const total =
    rows.length > 0
      ? Number(rows[0]!.total_matches)
      : Number(
          (
            await base
              .select((eb) => eb.fn.countAll<string>().as('total'))
              .executeTakeFirstOrThrow()
          ).total,
        );
  return { total, rows };
}
