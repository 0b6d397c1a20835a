import { sql, type Kysely } from 'kysely';
import {
  FIGURES_FROM,
  facilityFigures,
  tagCounts,
  type FacilityFigures,
  type FacilityVisit,
} from '../../domain/facilities/facilityFigures.ts';
import { facilityFor, searchBox, type FacilityTag } from '../../domain/facilities/facility.ts';
import type { DB } from '../../storage/schema.ts';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/** The visits of facilities, by facility id. */
async function visitsOf(
  db: Kysely<DB>,
  facilityIds: readonly string[],
): Promise<Map<string, FacilityVisit[]>> {
  const answer = new Map<string, FacilityVisit[]>();
  if (facilityIds.length === 0) return answer;
  const rows = await db
    .selectFrom('facility_visits_view')
    .select([
      'facility_id',
      'arrived_at',
      'departed_at',
      'appointment_at',
      'grace_minutes',
      'time_zone',
      'detention',
    ])
    .where('facility_id', 'in', facilityIds)
    .where('arrived_at', 'is not', null)
    .execute();
  for (const row of rows) {
    const list = answer.get(row.facility_id) ?? [];
    list.push({
      arrivedAt: iso(row.arrived_at),
      departedAt: iso(row.departed_at),
      appointmentAt: iso(row.appointment_at),
      graceMinutes: Number(row.grace_minutes),
      timeZone: row.time_zone,
      detention: Boolean(row.detention),
    });
    answer.set(row.facility_id, list);
  }
  return answer;
}

export type FacilityPage = FacilityFigures & {
  id: string;
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  tags: { tag: FacilityTag; count: number }[];
  replies: { id: string; text: string; at: string; organization: string | null }[];
};

/** One facility with its figures, tags and replies (newest reply first); null when unknown. */
export async function facilityById(db: Kysely<DB>, id: string): Promise<FacilityPage | null> {
  const facility = await db
    .selectFrom('facilities_view')
    .select(['id', 'name', 'address', 'latitude', 'longitude'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!facility) return null;
  const [visits, tags, replies] = await Promise.all([
    visitsOf(db, [id]),
    db.selectFrom('facility_tags_view').select('tags').where('facility_id', '=', id).execute(),
    db
      .selectFrom('facility_replies_view as r')
      .leftJoin('organizations_view as o', 'o.id', 'r.organization_id')
      .select(['r.reply_id', 'r.text', 'r.replied_at', 'o.name'])
      .where('r.facility_id', '=', id)
      .orderBy('r.replied_at', 'desc')
      .orderBy('r.reply_id')
      .limit(100)
      .execute(),
  ]);
  return {
    id: facility.id,
    name: facility.name,
    address: facility.address,
    latitude: Number(facility.latitude),
    longitude: Number(facility.longitude),
    ...facilityFigures(visits.get(id) ?? []),
    tags: tagCounts(tags.map((row) => row.tags)),
    replies: replies.map((row) => ({
      id: row.reply_id,
      text: row.text,
      at: row.replied_at.toISOString(),
      organization: row.name ?? null,
    })),
  };
}

/** A facility's figure beside a load's stop: its median time on site (null under 3 visits) and its visits. */
export type FacilityBadge = { timeOnSiteMedian: number | null; visits: number };

/** The badges of facilities, by id: visits measured and the median (null under three of them). */
async function badgesOf(
  db: Kysely<DB>,
  facilityIds: readonly string[],
): Promise<Map<string, FacilityBadge>> {
  const answer = new Map<string, FacilityBadge>();
  if (facilityIds.length === 0) return answer;
  const rows = await db
    .selectFrom('facility_figures_view')
    .selectAll()
    .where('facility_id', 'in', facilityIds)
    .execute();
  for (const row of rows) {
    const visits = Number(row.visits);
    answer.set(row.facility_id, {
      visits,
      timeOnSiteMedian:
        visits >= FIGURES_FROM && row.median_minutes !== null
          ? Math.round(Number(row.median_minutes))
          : null,
    });
  }
  return answer;
}
const NO_VISITS: FacilityBadge = { timeOnSiteMedian: null, visits: 0 };

/** The facility of each stop of loads, by stop id, with its badge. */
export async function facilitiesOfLoads(
  db: Kysely<DB>,
  loadIds: readonly string[],
): Promise<Map<string, { facilityId: string; facility: FacilityBadge }>> {
  const answer = new Map<string, { facilityId: string; facility: FacilityBadge }>();
  if (loadIds.length === 0) return answer;
  const stops = await db
    .selectFrom('facility_stops_view')
    .select(['stop_id', 'facility_id'])
    .where('load_id', 'in', loadIds)
    .execute();
  const badges = await badgesOf(db, [...new Set(stops.map((stop) => stop.facility_id))]);
  for (const stop of stops)
    answer.set(stop.stop_id, {
      facilityId: stop.facility_id,
      facility: badges.get(stop.facility_id) ?? NO_VISITS,
    });
  return answer;
}

/** A load's first and last stop's facility with its badge (a marketplace row's pickup and delivery). */
export type LoadEndFacilities = {
  pickup: { facilityId: string; facility: FacilityBadge } | null;
  delivery: { facilityId: string; facility: FacilityBadge } | null;
};

/** The pickup and delivery facilities of loads, by load id; a load the read model has not reached has nulls. */
export async function facilitiesOfLoadEnds(
  db: Kysely<DB>,
  loadIds: readonly string[],
): Promise<Map<string, LoadEndFacilities>> {
  const answer = new Map<string, LoadEndFacilities>();
  if (loadIds.length === 0) return answer;
  const stops = await db
    .selectFrom('facility_stops_view')
    .select(['load_id', 'stop_index', 'facility_id'])
    .where('load_id', 'in', loadIds)
    .orderBy('load_id')
    .orderBy('stop_index')
    .execute();
  const badges = await badgesOf(db, [...new Set(stops.map((stop) => stop.facility_id))]);
  const of = (facilityId: string) => ({
    facilityId,
    facility: badges.get(facilityId) ?? NO_VISITS,
  });
  for (const stop of stops) {
    const ends = answer.get(stop.load_id);
    // Ordered by stop: the first seen is the pickup, each later one the delivery so far.
    if (!ends) answer.set(stop.load_id, { pickup: of(stop.facility_id), delivery: null });
    else ends.delivery = of(stop.facility_id);
  }
  return answer;
}

/** The facility of each stop of a tour, in route order, with its badge. */
export async function facilitiesOfTour(
  db: Kysely<DB>,
  tourId: string,
): Promise<{ stopId: string; facilityId: string; facility: FacilityBadge }[]> {
  const stops = await db
    .selectFrom('facility_visits_view')
    .select(['stop_id', 'facility_id'])
    .where('tour_id', '=', tourId)
    .orderBy('stop_index')
    .execute();
  const badges = await badgesOf(db, [...new Set(stops.map((stop) => stop.facility_id))]);
  return stops.map((stop) => ({
    stopId: stop.stop_id,
    facilityId: stop.facility_id,
    facility: badges.get(stop.facility_id) ?? NO_VISITS,
  }));
}

/** Whether an organization is the facility's shipper: it saved it, or posted loads that stop there. */
export async function isFacilityShipper(
  db: Kysely<DB>,
  facilityId: string,
  organizationId: string,
): Promise<boolean> {
  const row = await sql<{ yes: boolean }>`SELECT EXISTS (
      SELECT 1 FROM facilities_view WHERE id = ${facilityId} AND organization_id = ${organizationId}
      UNION ALL
      SELECT 1 FROM facility_stops_view WHERE facility_id = ${facilityId} AND shipper_organization_id = ${organizationId}
    ) AS yes`.execute(db);
  return Boolean(row.rows[0]?.yes);
}

/** The latest tour the driver is assigned to that has left the facility; null when none. */
export async function departedTourOf(
  db: Kysely<DB>,
  facilityId: string,
  driverId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('facility_visits_view')
    .select('tour_id')
    .where('facility_id', '=', facilityId)
    .where('driver_id', '=', driverId)
    .where('departed_at', 'is not', null)
    .orderBy('departed_at', 'desc')
    .executeTakeFirst();
  return row?.tour_id ?? null;
}

/** Whether a facility exists. */
export async function facilityExists(db: Kysely<DB>, id: string): Promise<boolean> {
  return Boolean(
    await db.selectFrom('facilities_view').select('id').where('id', '=', id).executeTakeFirst(),
  );
}

/** The facility a place belongs to (within 200 m), or null. */
export async function facilityAt(
  db: Kysely<DB>,
  place: { latitude: number; longitude: number },
): Promise<string | null> {
  const box = searchBox(place);
  const rows = await db
    .selectFrom('facilities_view')
    .select(['id', 'latitude', 'longitude', 'founded'])
    .where('latitude', '>=', box.minLatitude)
    .where('latitude', '<=', box.maxLatitude)
    .where('longitude', '>=', box.minLongitude)
    .where('longitude', '<=', box.maxLongitude)
    .execute();
  return facilityFor(
    place,
    rows.map((row) => ({
      id: row.id,
      latitude: Number(row.latitude),
      longitude: Number(row.longitude),
      founded: Number(row.founded),
    })),
  );
}
