/**
 * The trust flags of a page of loads or offers, weighed on read (docs/domain.md "Trust flags"): a
 * handful of set-based queries per page, whatever its size, over this read model and the
 * marketplace, users and organizations ones. Nothing here is stored per load, so a change of a
 * carrier's authority, a driver leaving it or a new booking beyond its trucks shows on the next read.
 */
import type { Kysely } from 'kysely';
import { GenericStatus, TourStatus } from '../../domain/catalog.ts';
import {
  bookingTrust,
  contactChangedWithin,
  CONTACT_CHANGE_WINDOW_MS,
  offerTrust,
  READY,
  registeredTrucks,
  tourHoldsTruck,
  type CarrierStanding,
  type Trust,
} from '../../domain/loads/trust.ts';
import type { DB } from '../../storage/schema.ts';

/** The read models a trust read waits for. */
export const TRUST_VIEWS = ['trust', 'marketplace', 'users', 'organizations'] as const;

const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

const finishedTours = [TourStatus.Delivered, TourStatus.DeliveredLegacy, TourStatus.Canceled];

/** Each carrier's registered trucks (only those that registered some) and its live tours in booking order. */
async function capacityOf(db: Kysely<DB>, carrierIds: string[]) {
  const trucks = new Map<string, number>();
  const liveTours = new Map<string, string[]>();
  if (carrierIds.length === 0) return { trucks, liveTours };
  const organizations = await db
    .selectFrom('organizations_view')
    .select(['id', 'trucks'])
    .where('id', 'in', carrierIds)
    .execute();
  for (const organization of organizations) {
    const count = registeredTrucks(organization.trucks);
    if (count > 0) trucks.set(organization.id, count);
  }
  const weighed = [...trucks.keys()];
  if (weighed.length > 0) {
    const tours = await db
      .selectFrom('tours_view')
      .select(['id', 'carrier_organization_id'])
      .where('carrier_organization_id', 'in', weighed)
      .where('status', 'not in', finishedTours)
      .orderBy('opened_at')
      .orderBy('id')
      .execute();
    for (const tour of tours) {
      const list = liveTours.get(tour.carrier_organization_id) ?? [];
      list.push(tour.id);
      liveTours.set(tour.carrier_organization_id, list);
    }
  }
  return { trucks, liveTours };
}

/** The requests of contact changes by these users, from `since` on. */
async function contactChangesOf(db: Kysely<DB>, userIds: string[], since: Date) {
  const byUser = new Map<string, string[]>();
  if (userIds.length === 0) return byUser;
  const rows = await db
    .selectFrom('trust_contact_changes_view')
    .select(['requested_by', 'requested_at'])
    .where('requested_by', 'in', userIds)
    .where('requested_at', '>=', since)
    .execute();
  for (const row of rows) {
    const list = byUser.get(row.requested_by) ?? [];
    list.push(iso(row.requested_at)!);
    byUser.set(row.requested_by, list);
  }
  return byUser;
}

async function standingsOf(db: Kysely<DB>, carrierIds: string[]) {
  const standings = new Map<string, CarrierStanding>();
  if (carrierIds.length === 0) return standings;
  const rows = await db
    .selectFrom('trust_carriers_view')
    .select(['organization_id', 'authority_status', 'insurance_on_file'])
    .where('organization_id', 'in', carrierIds)
    .execute();
  for (const row of rows)
    standings.set(row.organization_id, {
      authorityStatus: row.authority_status,
      insuranceOnFile: row.insurance_on_file,
    });
  return standings;
}

const earliest = (instants: string[]) =>
  new Date(Math.min(...instants.map((at) => Date.parse(at))) - CONTACT_CHANGE_WINDOW_MS);

/**
 * The trust of each load (by id): its booking's flags, or ready with no reasons while it has none.
 * Ids that name no load are left out.
 */
export async function trustOfLoads(
  db: Kysely<DB>,
  loadIds: readonly string[],
): Promise<Map<string, Trust>> {
  const result = new Map<string, Trust>();
  const ids = [...new Set(loadIds)];
  if (ids.length === 0) return result;
  const rows = await db
    .selectFrom('loads_view as l')
    .leftJoin('tours_view as t', 't.id', 'l.tour_id')
    .leftJoin('users_view as u', 'u.id', 't.assignee_id')
    .leftJoin('trust_tours_view as tt', 'tt.tour_id', 't.id')
    .leftJoin('proposals_view as p', 'p.id', 't.proposal_id')
    .select([
      'l.id as load_id',
      't.id as tour_id',
      't.status as tour_status',
      't.carrier_organization_id as carrier_id',
      't.assignee_id',
      't.opened_at',
      'u.organization_id as driver_organization_id',
      'u.status as driver_status',
      'tt.tractor_number',
      'tt.dock_state',
      'p.submitted_by',
      'p.submitted_at',
    ])
    .where('l.id', 'in', ids)
    .execute();
  const booked = rows.filter((row) => row.tour_id !== null && row.carrier_id !== null);
  const carriers = [...new Set(booked.map((row) => row.carrier_id!))];
  const bookers = booked.filter((row) => row.submitted_by && row.submitted_at);
  const [standings, capacity, changes] = await Promise.all([
    standingsOf(db, carriers),
    capacityOf(db, [
      ...new Set(
        booked.filter((row) => tourHoldsTruck(row.tour_status)).map((row) => row.carrier_id!),
      ),
    ]),
    bookers.length === 0
      ? new Map<string, string[]>()
      : contactChangesOf(
          db,
          [...new Set(bookers.map((row) => row.submitted_by!))],
          earliest(bookers.map((row) => iso(row.submitted_at)!)),
        ),
  ]);
  for (const row of rows) {
    if (row.tour_id === null || row.carrier_id === null) {
      result.set(row.load_id, READY);
      continue;
    }
    const trucks = capacity.trucks.get(row.carrier_id);
    const rank = (capacity.liveTours.get(row.carrier_id) ?? []).indexOf(row.tour_id);
    const requested = row.submitted_by ? (changes.get(row.submitted_by) ?? []) : [];
    result.set(
      row.load_id,
      bookingTrust({
        standing: standings.get(row.carrier_id) ?? null,
        overbooked:
          tourHoldsTruck(row.tour_status) && trucks !== undefined && rank >= 0 && rank >= trucks,
        driverAssigned: row.assignee_id !== null,
        driverOfCarrier:
          row.driver_organization_id === row.carrier_id &&
          row.driver_status === GenericStatus.Active,
        tractorNumber: row.tractor_number ?? null,
        dock: row.dock_state ?? null,
        contactChangedRecently:
          requested.length > 0 &&
          row.submitted_at !== null &&
          contactChangedWithin(requested, iso(row.submitted_at)!, iso(row.opened_at)),
      }),
    );
  }
  return result;
}

/**
 * The trust of each offer (by id) as its load's shipper weighs it before accepting: the proposing
 * carrier's standing, whether accepting would give it more live tours than trucks, and a contact
 * change its author requested within 24 hours before the offer or since.
 */
export async function trustOfOffers(
  db: Kysely<DB>,
  offerIds: readonly string[],
): Promise<Map<string, Trust>> {
  const result = new Map<string, Trust>();
  const ids = [...new Set(offerIds)];
  if (ids.length === 0) return result;
  const rows = await db
    .selectFrom('proposals_view')
    .select(['id', 'carrier_organization_id', 'submitted_by', 'submitted_at', 'tour_id'])
    .where('id', 'in', ids)
    .execute();
  const carriers = [...new Set(rows.map((row) => row.carrier_organization_id))];
  const [standings, capacity, changes] = await Promise.all([
    standingsOf(db, carriers),
    capacityOf(db, carriers),
    rows.length === 0
      ? new Map<string, string[]>()
      : contactChangesOf(
          db,
          [...new Set(rows.map((row) => row.submitted_by))],
          earliest(rows.map((row) => iso(row.submitted_at)!)),
        ),
  ]);
  for (const row of rows) {
    const trucks = capacity.trucks.get(row.carrier_organization_id);
    const live = (capacity.liveTours.get(row.carrier_organization_id) ?? []).filter(
      (tourId) => tourId !== row.tour_id,
    ).length;
    const requested = changes.get(row.submitted_by) ?? [];
    result.set(
      row.id,
      offerTrust({
        standing: standings.get(row.carrier_organization_id) ?? null,
        wouldOverbook: trucks !== undefined && live + 1 > trucks,
        contactChangedRecently:
          requested.length > 0 && contactChangedWithin(requested, iso(row.submitted_at)!, null),
      }),
    );
  }
  return result;
}
