import { sql, type Transaction } from 'kysely';
import type { AccessorialClaimed } from '../../domain/claims/claim.types.ts';
import { facilityFor, searchBox, type FacilityEvent } from '../../domain/facilities/facility.ts';
import type {
  LoadDetails,
  LoadPosted,
  LoadProposalAccepted,
  LoadUpdated,
} from '../../domain/loads/load.types.ts';
import type { LocationSaved } from '../../domain/loads/savedLocation.ts';
import { STANDARD_TERMS } from '../../domain/loads/terms.ts';
import { distanceMeters, type LatLng } from '../../domain/tours/geo.ts';
import type { TourAssigned, TourEventAdded, TourOpened } from '../../domain/tours/tour.types.ts';
import type { DB } from '../../storage/schema.ts';
import { defineProjection } from '../projection.ts';

type Handled =
  | LocationSaved
  | LoadPosted
  | LoadUpdated
  | LoadProposalAccepted
  | TourOpened
  | TourAssigned
  | TourEventAdded
  | AccessorialClaimed
  | FacilityEvent;

type Place = LatLng & { name: string; address: string };
/**
 * The facility of each exact place met while applying one page. Founding a facility clears it (the
 * new one may be nearer to a place met before), so a page gives what one event at a time gives.
 */
type Memo = Map<string, string>;

/** The facility within 200 m of a place, nearest first, the earliest founded on a tie; else null. */
const facilityNear = async (
  trx: Transaction<DB>,
  place: LatLng,
  memo: Memo,
): Promise<string | null> => {
  const key = `${place.latitude},${place.longitude}`;
  const known = memo.get(key);
  if (known) return known;
  const box = searchBox(place);
  const rows = await trx
    .selectFrom('facilities_view')
    .select(['id', 'latitude', 'longitude', 'founded'])
    .where('latitude', '>=', box.minLatitude)
    .where('latitude', '<=', box.maxLatitude)
    .where('longitude', '>=', box.minLongitude)
    .where('longitude', '<=', box.maxLongitude)
    .execute();
  const id = facilityFor(
    place,
    rows.map((row) => ({
      id: row.id,
      latitude: Number(row.latitude),
      longitude: Number(row.longitude),
      founded: Number(row.founded),
    })),
  );
  if (id) memo.set(key, id);
  return id;
};

/** Founds a facility named `id` at the place. */
const found = async (
  trx: Transaction<DB>,
  id: string,
  place: Place,
  organizationId: string | null,
  memo: Memo,
) => {
  memo.clear();
  const last = await trx
    .selectFrom('facilities_view')
    .select((eb) => eb.fn.max('founded').as('founded'))
    .executeTakeFirst();
  await trx
    .insertInto('facilities_view')
    .values({
      id,
      name: place.name,
      address: place.address,
      latitude: place.latitude,
      longitude: place.longitude,
      organization_id: organizationId,
      founded: Number(last?.founded ?? 0) + 1,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
};

/** The facility of a stop: the one within 200 m, or a new one named by the stop's id. */
const facilityOf = async (trx: Transaction<DB>, stop: Place & { id: string }, memo: Memo) => {
  const near = await facilityNear(trx, stop, memo);
  if (near) return near;
  await found(trx, stop.id, stop, null, memo);
  return stop.id;
};

/** A load's stops with their facility, appointment (first and last stop) and time zone. */
const placeStops = async (
  trx: Transaction<DB>,
  loadId: string,
  shipperOrganizationId: string,
  details: LoadDetails,
  memo: Memo,
  edited: boolean,
) => {
  if (edited) await trx.deleteFrom('facility_stops_view').where('load_id', '=', loadId).execute();
  const first = details.stops[0];
  const last = details.stops.at(-1);
  const rows = [];
  for (const [index, stop] of details.stops.entries()) {
    const facilityId = await facilityOf(trx, stop, memo);
    const isFirst = index === 0;
    const isLast = index === details.stops.length - 1;
    // A stop between takes the zone of the nearer end of the route.
    const timeZone =
      isFirst ||
      (!isLast && first && last && distanceMeters(stop, first) <= distanceMeters(stop, last))
        ? details.pickupTimezone
        : details.dropoffTimezone;
    rows.push({
      load_id: loadId,
      stop_id: stop.id,
      stop_index: index,
      facility_id: facilityId,
      shipper_organization_id: shipperOrganizationId,
      appointment_at: isFirst ? details.pickupStart : isLast ? details.dropoffStart : null,
      grace_minutes: (details.terms ?? STANDARD_TERMS).graceMinutes,
      time_zone: timeZone,
    });
  }
  if (rows.length > 0)
    await trx
      .insertInto('facility_stops_view')
      .values(rows)
      .onConflict((oc) => oc.columns(['load_id', 'stop_id']).doNothing())
      .execute();
};

/**
 * The measured visits and their median minutes on site of the facilities a page touched, counted
 * again from their visits (the median interpolated, as `facilityFigures` computes it).
 */
const refigure = async (trx: Transaction<DB>, facilities: Set<string>) => {
  const ids = JSON.stringify([...facilities]);
  await sql`
    WITH touched AS (
      SELECT jsonb_array_elements_text(${ids}::jsonb)::uuid AS facility_id),
    measured AS (
      SELECT v.facility_id, extract(epoch FROM v.departed_at - v.arrived_at) / 60 AS minutes
      FROM facility_visits_view v
      WHERE v.facility_id IN (SELECT facility_id FROM touched)
        AND v.arrived_at IS NOT NULL AND v.departed_at IS NOT NULL AND v.departed_at >= v.arrived_at)
    INSERT INTO facility_figures_view (facility_id, visits, median_minutes)
    SELECT t.facility_id,
      (SELECT count(*) FROM measured m WHERE m.facility_id = t.facility_id)::integer,
      (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY m.minutes) FROM measured m
        WHERE m.facility_id = t.facility_id)
    FROM touched t
    ON CONFLICT (facility_id) DO UPDATE SET visits = EXCLUDED.visits,
      median_minutes = EXCLUDED.median_minutes`.execute(trx);
};

/**
 * Facilities (docs/domain.md "Facilities"): from the log alone, in its order, so a rebuild finds the
 * same facilities with the same ids. A saved location founds a facility of its id unless one lies
 * within 200 m; a load's stop joins the nearest facility within 200 m or founds one named by the
 * stop's id. Each tour's stops become visits with the arrival, the departure and any detention
 * claim; tags and replies come from the facility's stream.
 */
export const facilitiesProjection = defineProjection({
  name: 'facilities',
  version: 1,
  tables: [
    'facilities_view',
    'facility_stops_view',
    'facility_visits_view',
    'facility_figures_view',
    'facility_tags_view',
    'facility_replies_view',
  ],
  handles: [
    'LocationSaved',
    'LoadPosted',
    'LoadUpdated',
    'LoadProposalAccepted',
    'TourOpened',
    'TourAssigned',
    'TourEventAdded',
    'AccessorialClaimed',
    'FacilityTagged',
    'FacilityReplied',
  ],
  async apply(trx, events) {
    const touched = new Set<string>();
    const memo: Memo = new Map();
    for (const recorded of events) {
      const event = recorded as unknown as Handled;
      switch (event.type) {
        case 'LocationSaved': {
          const { location, organizationId } = event.data;
          if (!(await facilityNear(trx, location, memo)))
            await found(trx, location.id, location, organizationId, memo);
          break;
        }
        case 'LoadPosted': {
          const d = event.data;
          await placeStops(trx, d.loadId, d.shipperOrganizationId, d.details, memo, false);
          break;
        }
        case 'LoadUpdated': {
          const d = event.data;
          const shipper = await trx
            .selectFrom('facility_stops_view')
            .select('shipper_organization_id')
            .where('load_id', '=', d.loadId)
            .executeTakeFirst();
          if (shipper)
            await placeStops(trx, d.loadId, shipper.shipper_organization_id, d.details, memo, true);
          break;
        }
        case 'LoadProposalAccepted': {
          const d = event.data;
          if (!d.terms) break;
          const grace = d.terms.graceMinutes;
          await trx
            .updateTable('facility_stops_view')
            .set({ grace_minutes: grace })
            .where('load_id', '=', d.loadId)
            .execute();
          await trx
            .updateTable('facility_visits_view')
            .set({ grace_minutes: grace })
            .where('tour_id', '=', d.tourId)
            .execute();
          break;
        }
        case 'TourOpened': {
          const d = event.data;
          const planned = new Map(
            (
              await trx
                .selectFrom('facility_stops_view')
                .selectAll()
                .where('load_id', '=', d.loadId)
                .execute()
            ).map((row) => [row.stop_id, row]),
          );
          for (const [index, stop] of d.stops.entries()) {
            const plan = planned.get(stop.id);
            await trx
              .insertInto('facility_visits_view')
              .values({
                tour_id: d.tourId,
                stop_id: stop.id,
                stop_index: index,
                facility_id: plan?.facility_id ?? (await facilityOf(trx, stop, memo)),
                shipper_organization_id: d.shipperOrganizationId,
                driver_id: null,
                appointment_at: plan?.appointment_at ?? null,
                grace_minutes: plan?.grace_minutes ?? STANDARD_TERMS.graceMinutes,
                time_zone: plan?.time_zone ?? 'UTC',
              })
              .onConflict((oc) => oc.columns(['tour_id', 'stop_id']).doNothing())
              .execute();
          }
          break;
        }
        case 'TourAssigned': {
          const d = event.data;
          await trx
            .updateTable('facility_visits_view')
            .set({ driver_id: d.assigneeId })
            .where('tour_id', '=', d.tourId)
            // A stop already left keeps the driver who was there.
            .where('departed_at', 'is', null)
            .execute();
          break;
        }
        case 'TourEventAdded': {
          const d = event.data;
          if (!d.stopId || (d.type !== 'arrived' && d.type !== 'departed')) break;
          // The first recorded arrival and departure count.
          const column = d.type === 'arrived' ? 'arrived_at' : 'departed_at';
          const changed = await trx
            .updateTable('facility_visits_view')
            .set({ [column]: d.at })
            .where('tour_id', '=', d.tourId)
            .where('stop_id', '=', d.stopId)
            .where(column, 'is', null)
            .returning('facility_id')
            .execute();
          for (const row of changed) touched.add(row.facility_id);
          break;
        }
        case 'AccessorialClaimed': {
          const d = event.data;
          if (d.kind !== 'detention' || d.stopIndex === null) break;
          await trx
            .updateTable('facility_visits_view')
            .set({ detention: true })
            .where('tour_id', '=', d.tourId)
            .where('stop_index', '=', d.stopIndex)
            .execute();
          break;
        }
        case 'FacilityTagged': {
          const d = event.data;
          await trx
            .insertInto('facility_tags_view')
            .values({
              facility_id: d.facilityId,
              user_id: d.taggedBy,
              tour_id: d.tourId,
              tags: JSON.stringify(d.tags),
              tagged_at: d.taggedAt,
            })
            .onConflict((oc) =>
              oc.columns(['facility_id', 'user_id']).doUpdateSet({
                tour_id: d.tourId,
                tags: JSON.stringify(d.tags),
                tagged_at: d.taggedAt,
              }),
            )
            .execute();
          break;
        }
        case 'FacilityReplied': {
          const d = event.data;
          await trx
            .insertInto('facility_replies_view')
            .values({
              reply_id: d.replyId,
              facility_id: d.facilityId,
              text: d.text,
              organization_id: d.organizationId,
              replied_by: d.repliedBy,
              replied_at: d.repliedAt,
            })
            .onConflict((oc) => oc.column('reply_id').doNothing())
            .execute();
          break;
        }
      }
    }
    if (touched.size > 0) await refigure(trx, touched);
  },
});
