import { sql, type Transaction } from 'kysely';
import type {
  AccessorialApproved,
  AccessorialClaimed,
  AccessorialDisputed,
} from '../../domain/claims/claim.types.ts';
import { placeKey, stopKindOf } from '../../domain/claims/detentionFigures.ts';
import type { LoadProposalAccepted } from '../../domain/loads/load.types.ts';
import { STANDARD_TERMS } from '../../domain/loads/terms.ts';
import type { TourEventAdded, TourOpened } from '../../domain/tours/tour.types.ts';
import type { DB } from '../../storage/schema.ts';
import { defineProjection } from '../projection.ts';

type Handled =
  | LoadProposalAccepted
  | TourOpened
  | TourEventAdded
  | AccessorialClaimed
  | AccessorialApproved
  | AccessorialDisputed;

const uuids = (ids: Iterable<string>) =>
  sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify([...ids])}::jsonb))::uuid[]`;

/** Whole minutes between two timestamptz expressions, null unless both are there in order. */
const minutesBetween = (arrived: ReturnType<typeof sql>, departed: ReturnType<typeof sql>) =>
  sql`CASE WHEN ${arrived} IS NOT NULL AND ${departed} IS NOT NULL AND ${departed} >= ${arrived}
    THEN floor(extract(epoch FROM ${departed} - ${arrived}) / 60)::integer END`;

/**
 * The figures of every shipper and every place the page's tours touch, counted again from the
 * stops and claims: measured stops, their median time on site, those held beyond the free time
 * (the booking's, else the platform's standard), and the claims answered and answered on time.
 */
const refigure = async (trx: Transaction<DB>, tours: Set<string>) => {
  const standard = STANDARD_TERMS.freeTimeHours;
  await sql`
    WITH touched AS (SELECT unnest(${uuids(tours)}) AS tour_id),
    shippers AS (
      SELECT shipper_organization_id::text AS key FROM detention_stops_view WHERE tour_id IN (SELECT tour_id FROM touched)
      UNION SELECT shipper_organization_id::text FROM detention_claims_view WHERE tour_id IN (SELECT tour_id FROM touched)),
    places AS (SELECT DISTINCT place_key AS key FROM detention_stops_view WHERE tour_id IN (SELECT tour_id FROM touched)),
    measured AS (
      SELECT s.shipper_organization_id::text AS shipper, s.place_key, s.minutes_on_site,
        s.minutes_on_site > CASE WHEN s.kind = 'pickup'
          THEN coalesce(d.free_pickup_minutes, ${standard.pickup * 60})
          ELSE coalesce(d.free_delivery_minutes, ${standard.delivery * 60}) END AS held
      FROM detention_stops_view s LEFT JOIN detention_tours_view d ON d.tour_id = s.tour_id
      WHERE s.minutes_on_site IS NOT NULL
        AND (s.shipper_organization_id::text IN (SELECT key FROM shippers) OR s.place_key IN (SELECT key FROM places))),
    answered AS (
      SELECT c.shipper_organization_id::text AS shipper, s.place_key, c.outcome
      FROM detention_claims_view c
      LEFT JOIN detention_stops_view s ON s.tour_id = c.tour_id AND s.stop_index = c.stop_index
      WHERE c.outcome <> 'open'
        AND (c.shipper_organization_id::text IN (SELECT key FROM shippers) OR s.place_key IN (SELECT key FROM places)))
    INSERT INTO detention_figures_view (scope, key, stops, median_minutes, detention_stops, claims_decided, claims_on_time)
    SELECT 'shipper', k.key,
      (SELECT count(*) FROM measured m WHERE m.shipper = k.key)::integer,
      (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY m.minutes_on_site) FROM measured m WHERE m.shipper = k.key),
      (SELECT count(*) FROM measured m WHERE m.shipper = k.key AND m.held)::integer,
      (SELECT count(*) FROM answered a WHERE a.shipper = k.key)::integer,
      (SELECT count(*) FROM answered a WHERE a.shipper = k.key AND a.outcome = 'on-time')::integer
    FROM shippers k
    UNION ALL
    SELECT 'place', k.key,
      (SELECT count(*) FROM measured m WHERE m.place_key = k.key)::integer,
      (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY m.minutes_on_site) FROM measured m WHERE m.place_key = k.key),
      (SELECT count(*) FROM measured m WHERE m.place_key = k.key AND m.held)::integer,
      (SELECT count(*) FROM answered a WHERE a.place_key = k.key)::integer,
      (SELECT count(*) FROM answered a WHERE a.place_key = k.key AND a.outcome = 'on-time')::integer
    FROM places k
    ON CONFLICT (scope, key) DO UPDATE SET stops = EXCLUDED.stops, median_minutes = EXCLUDED.median_minutes,
      detention_stops = EXCLUDED.detention_stops, claims_decided = EXCLUDED.claims_decided,
      claims_on_time = EXCLUDED.claims_on_time`.execute(trx);
};

/**
 * Detention figures (docs/domain.md "Detention figures"): from the log alone, each tour's stops
 * with their place and their first recorded arrival and departure, the free time its booking
 * agreed, each claim with the shipper's first answer, and per shipper and per place the counts the
 * figures of GET loads/carrier and GET loads/{id} are computed from.
 */
export const detentionFiguresProjection = defineProjection({
  name: 'detentionFigures',
  version: 1,
  tables: [
    'detention_tours_view',
    'detention_stops_view',
    'detention_claims_view',
    'detention_figures_view',
  ],
  handles: [
    'LoadProposalAccepted',
    'TourOpened',
    'TourEventAdded',
    'AccessorialClaimed',
    'AccessorialApproved',
    'AccessorialDisputed',
  ],
  async apply(trx, events) {
    const touched = new Set<string>();
    for (const recorded of events) {
      const event = recorded as unknown as Handled;
      switch (event.type) {
        case 'LoadProposalAccepted': {
          const d = event.data;
          const free = (d.terms ?? STANDARD_TERMS).freeTimeHours;
          await sql`INSERT INTO detention_tours_view (tour_id, free_pickup_minutes, free_delivery_minutes)
            VALUES (${d.tourId}, ${Math.round(free.pickup * 60)}, ${Math.round(free.delivery * 60)})
            ON CONFLICT (tour_id) DO UPDATE SET free_pickup_minutes = EXCLUDED.free_pickup_minutes,
              free_delivery_minutes = EXCLUDED.free_delivery_minutes`.execute(trx);
          touched.add(d.tourId);
          break;
        }
        case 'TourOpened': {
          const d = event.data;
          const rows = d.stops.map((stop, index) => ({
            tour_id: d.tourId,
            stop_id: stop.id,
            stop_index: index,
            shipper_organization_id: d.shipperOrganizationId,
            place_key: placeKey(stop),
            kind: stopKindOf(stop.locationType),
          }));
          if (rows.length > 0)
            await sql`INSERT INTO detention_stops_view (tour_id, stop_id, stop_index, shipper_organization_id, place_key, kind)
              SELECT tour_id, stop_id, stop_index, shipper_organization_id, place_key, kind
              FROM jsonb_populate_recordset(NULL::detention_stops_view, ${JSON.stringify(rows)}::jsonb)
              ON CONFLICT (tour_id, stop_id) DO NOTHING`.execute(trx);
          touched.add(d.tourId);
          break;
        }
        case 'TourEventAdded': {
          const d = event.data;
          if (!d.stopId || (d.type !== 'arrived' && d.type !== 'departed')) break;
          const at = sql`${d.at}::timestamptz`;
          if (d.type === 'arrived') {
            const arrived = sql`coalesce(arrived_at, ${at})`;
            await sql`UPDATE detention_stops_view SET arrived_at = ${arrived},
                minutes_on_site = ${minutesBetween(arrived, sql`departed_at`)}
              WHERE tour_id = ${d.tourId} AND stop_id = ${d.stopId}`.execute(trx);
          } else {
            const departed = sql`coalesce(departed_at, ${at})`;
            await sql`UPDATE detention_stops_view SET departed_at = ${departed},
                minutes_on_site = ${minutesBetween(sql`arrived_at`, departed)}
              WHERE tour_id = ${d.tourId} AND stop_id = ${d.stopId}`.execute(trx);
          }
          touched.add(d.tourId);
          break;
        }
        case 'AccessorialClaimed': {
          const d = event.data;
          await sql`INSERT INTO detention_claims_view (claim_id, tour_id, stop_index, shipper_organization_id, due_at, outcome)
            VALUES (${d.claimId}, ${d.tourId}, ${d.stopIndex}, ${d.shipperOrganizationId}, ${d.dueAt}, 'open')
            ON CONFLICT (claim_id) DO NOTHING`.execute(trx);
          touched.add(d.tourId);
          break;
        }
        case 'AccessorialApproved': {
          // Only the first answer counts: a claim approved after a dispute stays disputed.
          const d = event.data;
          await sql`UPDATE detention_claims_view SET outcome = CASE
                WHEN ${d.bySilence}::boolean THEN 'silence'
                WHEN ${d.approvedAt}::timestamptz < due_at THEN 'on-time'
                ELSE 'late' END
            WHERE claim_id = ${d.claimId} AND outcome = 'open'`.execute(trx);
          touched.add(d.tourId);
          break;
        }
        case 'AccessorialDisputed': {
          const d = event.data;
          await sql`UPDATE detention_claims_view SET outcome = 'disputed'
            WHERE claim_id = ${d.claimId} AND outcome = 'open'`.execute(trx);
          touched.add(d.tourId);
          break;
        }
      }
    }
    if (touched.size > 0) await refigure(trx, touched);
  },
});
