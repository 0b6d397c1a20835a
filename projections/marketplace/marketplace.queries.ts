import { sql, type Kysely } from 'kysely';
import { GenericStatus, ratingCriteria, TourStatus } from '../../domain/catalog.ts';
import { boundingBox } from '../../domain/loads/route.ts';
import type { DB } from '../../storage/schema.ts';
import { orderDirection, type TablePage } from '../tablePage.ts';

/** No organization: matches no row (a caller without one sees nothing). */
const NO_ORGANIZATION = '00000000-0000-0000-0000-000000000000';
/** Offers still open: submitted or countered. */
const OPEN_PROPOSALS = [GenericStatus.SubmittedProposal, GenericStatus.PendingAcceptance];
/** Tours under way: a driver assigned to one cannot go, and the ELD is polled for some. */
const ACTIVE_TOURS = [
  TourStatus.ReadyForPickup,
  TourStatus.Dispatched,
  TourStatus.InTransit,
  TourStatus.PendingDeliveryConfirmation,
];

// ---------------------------------------------------------------------------------------------
// Loads

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
  const rows = await base
    .selectAll('l')
    .select(['t.shipper_rated', 't.carrier_rated', 't.assignee_name'])
    .select(
      sql<number>`(SELECT count(*)::int FROM proposals_view p WHERE p.load_id = l.id AND p.status IN (10, 11) AND (s.seen_at IS NULL OR p.submitted_at > s.seen_at)
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
      } | null>`(SELECT CASE WHEN count(*) FILTER (WHERE c.status = ${GenericStatus.Blocked} AND p.status IN (10, 11)) = 0 THEN NULL
        ELSE json_build_object('total', count(*) FILTER (WHERE NOT (c.status = ${GenericStatus.Blocked} AND p.status IN (10, 11))),
          'open', count(*) FILTER (WHERE c.status <> ${GenericStatus.Blocked} AND p.status IN (10, 11)),
          'best', min(p.price) FILTER (WHERE c.status <> ${GenericStatus.Blocked} AND p.status IN (10, 11))) END
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
    .where('o.status', '=', GenericStatus.Active);
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
            .where('p.status', 'in', OPEN_PROPOSALS),
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

// ---------------------------------------------------------------------------------------------
// Offers

/** The offers table: sortable columns. */
export const PROPOSAL_ORDER: Record<string, string> = {
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
export type ProposalScope = {
  loadId?: string;
  carrierOrganizationId?: string;
  hideBlockedCarriers?: boolean;
};

const proposalQuery = (db: Kysely<DB>) =>
  db
    .selectFrom('proposals_view as p')
    .innerJoin('organizations_view as c', 'c.id', 'p.carrier_organization_id')
    .innerJoin('loads_view as l', 'l.id', 'p.load_id');
const proposalColumns = [
  'p.id',
  'p.load_id',
  'p.load_guid',
  'p.status',
  'p.price',
  'p.counter_price',
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
] as const;

/** A page of offers with their carrier's name and their load's status (and, `withLoad`, its places), and the number of all matches. */
export async function proposalsPage(
  db: Kysely<DB>,
  scope: ProposalScope,
  filter: { statuses: number[] | null; withLoad: boolean },
  page: TablePage,
) {
  let base = proposalQuery(db);
  if (scope.loadId !== undefined) base = base.where('p.load_id', '=', scope.loadId);
  if (scope.carrierOrganizationId !== undefined)
    base = base.where('p.carrier_organization_id', '=', scope.carrierOrganizationId);
  if (scope.hideBlockedCarriers)
    base = base.where((eb) =>
      eb.not(
        eb.and([eb('c.status', '=', GenericStatus.Blocked), eb('p.status', 'in', OPEN_PROPOSALS)]),
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
    .select([...proposalColumns])
    .$if(filter.withLoad, (qb) => qb.select([...loadColumns]))
    .orderBy(sql.ref(page.column), orderDirection(page))
    .orderBy('p.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { total: Number(total), rows };
}

/** One offer on a load, with its carrier's name and status and its load's status and places; undefined when there is none. */
export const proposalOnLoad = (db: Kysely<DB>, loadId: string, proposalId: string) =>
  proposalQuery(db)
    .select([...proposalColumns, ...loadColumns, 'c.status as carrier_status'])
    .where('p.id', '=', proposalId)
    .where('p.load_id', '=', loadId)
    .executeTakeFirst();

/** A carrier's offer on a load (its id), or undefined. */
export const carrierProposalOn = (db: Kysely<DB>, loadId: string, carrierOrganizationId: string) =>
  db
    .selectFrom('proposals_view')
    .select('id')
    .where('load_id', '=', loadId)
    .where('carrier_organization_id', '=', carrierOrganizationId)
    .executeTakeFirst();

/** The ids of a load's offers still open (submitted or countered). */
export async function openProposalIds(db: Kysely<DB>, loadId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('proposals_view')
    .select('id')
    .where('load_id', '=', loadId)
    .where('status', 'in', OPEN_PROPOSALS)
    .execute();
  return rows.map((row) => row.id);
}

/** The ids of every offer on a load. */
export async function proposalIdsOf(db: Kysely<DB>, loadId: string): Promise<string[]> {
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
    .where('p.status', 'in', [...OPEN_PROPOSALS, GenericStatus.Accepted, GenericStatus.Confirmed])
    // A blocked carrier's open offers are hidden from the shipper.
    .where((eb) =>
      eb.not(
        eb.and([eb('o.status', '=', GenericStatus.Blocked), eb('p.status', 'in', OPEN_PROPOSALS)]),
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

// ---------------------------------------------------------------------------------------------
// Tours

/** The tours table: sortable columns. */
export const TOUR_ORDER: Record<string, string> = {
  guid: 't.load_guid',
  openedAt: 't.opened_at',
  updatedAt: 't.updated_at',
  status: 't.status',
  pickupTime: 'l.pickup_start',
};

/** Whose tours a table lists: all, one driver's, or one organization's (as shipper or carrier). */
export type TourScope = { all: true } | { assigneeId: string } | { organizationId: string | null };

/**
 * A page of tours with their load's status and places, both parties' names and the time of the
 * last position, and the number of all matches.
 */
export async function toursPage(
  db: Kysely<DB>,
  scope: TourScope,
  filter: { statuses: number[] | null },
  page: TablePage,
) {
  let base = db
    .selectFrom('tours_view as t')
    .innerJoin('loads_view as l', 'l.id', 't.load_id')
    .leftJoin('organizations_view as so', 'so.id', 't.shipper_organization_id')
    .leftJoin('organizations_view as co', 'co.id', 't.carrier_organization_id');
  if ('assigneeId' in scope) {
    base = base.where('t.assignee_id', '=', scope.assigneeId);
  } else if ('organizationId' in scope) {
    const organizationId = scope.organizationId ?? NO_ORGANIZATION;
    base = base.where((eb) =>
      eb.or([
        eb('t.shipper_organization_id', '=', organizationId),
        eb('t.carrier_organization_id', '=', organizationId),
      ]),
    );
  }
  if (filter.statuses) base = base.where('t.status', 'in', filter.statuses);
  const { pattern } = page;
  if (pattern) {
    base = base.where((eb) =>
      eb.or([
        eb('t.load_guid', 'ilike', pattern),
        eb('t.assignee_name', 'ilike', pattern),
        eb('l.pickup_address', 'ilike', pattern),
        eb('l.dropoff_address', 'ilike', pattern),
      ]),
    );
  }
  const { total } = await base
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await base
    .selectAll('t')
    .select([
      'l.status as load_status',
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
      'so.name as shipper_name',
      'co.name as carrier_name',
    ])
    .select(
      sql<Date | null>`(SELECT max(recorded_at) FROM tour_positions_view p WHERE p.tour_id = t.id)`.as(
        'last_position_at',
      ),
    )
    .orderBy(sql.ref(page.column), orderDirection(page))
    .orderBy('t.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { total: Number(total), rows };
}

/** A tour's parties, or undefined. */
export const tourParties = (db: Kysely<DB>, tourId: string) =>
  db
    .selectFrom('tours_view')
    .select(['shipper_organization_id', 'carrier_organization_id', 'assignee_id'])
    .where('id', '=', tourId)
    .executeTakeFirst();

/** A carrier's tours under way (Ready for pickup to Pending delivery confirmation) with their driver. */
export const activeToursOfCarrier = (db: Kysely<DB>, carrierOrganizationId: string) =>
  db
    .selectFrom('tours_view')
    .select(['assignee_id', 'id', 'load_guid'])
    .where('carrier_organization_id', '=', carrierOrganizationId)
    .where('status', 'in', ACTIVE_TOURS)
    .execute();

/** Whether a driver is assigned to a tour under way. */
export async function hasActiveTour(db: Kysely<DB>, assigneeId: string): Promise<boolean> {
  const open = await db
    .selectFrom('tours_view')
    .select('id')
    .where('assignee_id', '=', assigneeId)
    .where('status', 'in', ACTIVE_TOURS)
    .executeTakeFirst();
  return Boolean(open);
}

/** A tour's timeline, oldest first, with who added each entry. */
export const tourTimeline = (db: Kysely<DB>, tourId: string) =>
  db
    .selectFrom('tour_events_view as e')
    .leftJoin('users_view as u', 'u.id', 'e.added_by')
    .select([
      'e.id',
      'e.type',
      'e.message',
      'e.stop_id',
      'e.at',
      'u.id as user_id',
      'u.name as user_name',
    ])
    .where('e.tour_id', '=', tourId)
    .orderBy('e.at')
    .orderBy('e.id')
    .execute();
