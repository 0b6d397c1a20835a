import { sql, type Kysely } from 'kysely';
import { TOUR_UNDER_WAY_STATUSES } from '../../domain/catalog.ts';
import type { DB } from '../../storage/schema.ts';
import { orderDirection, type TablePage } from '../tablePage.ts';
import { NO_ORGANIZATION } from './organizationScope.ts';

// Tours: the tracking tables, their parties and drivers, and their timelines.

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
    .where('status', 'in', TOUR_UNDER_WAY_STATUSES)
    .execute();

/** Whether a driver is assigned to a tour under way. */
export async function hasActiveTour(db: Kysely<DB>, assigneeId: string): Promise<boolean> {
  const open = await db
    .selectFrom('tours_view')
    .select('id')
    .where('assignee_id', '=', assigneeId)
    .where('status', 'in', TOUR_UNDER_WAY_STATUSES)
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
