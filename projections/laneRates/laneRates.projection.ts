import { sql } from 'kysely';
import type { LoadDetails, LoadEvent } from '../../domain/loads/load.types.ts';
import { routeMiles, type Point } from '../../domain/loads/route.ts';
import { ROAD_FACTOR } from '../../domain/tours/geo.ts';
import { defineProjection } from '../projection.ts';
import type { LaneLoadsViewTable } from './laneRates.tables.ts';

type LaneLoadRow = Omit<LaneLoadsViewTable, 'miles'> & { miles: number };
type Acceptance = {
  proposal_id: string;
  load_id: string;
  price: number;
  month: string;
  accepted_at: string;
};

/**
 * The road miles of a load, for prices per mile. The product routes no trip: the distance a load
 * shows is the straight lines through its stops in order (`routeMiles`); roads are longer, so that is
 * multiplied by the road factor the arrival estimate uses (1.2, domain/tours/geo.ts).
 */
export const laneMiles = (details: { stops: readonly Point[] }): number =>
  Math.round(routeMiles(details.stops) * ROAD_FACTOR * 10) / 10;

/** The lane row of a load's details: its first and last stops, equipment and road miles. */
const laneOf = (loadId: string, details: LoadDetails): LaneLoadRow => {
  const pickup = details.stops[0]!;
  const dropoff = details.stops[details.stops.length - 1]!;
  return {
    load_id: loadId,
    pickup_latitude: pickup.latitude,
    pickup_longitude: pickup.longitude,
    pickup_city: pickup.city,
    pickup_state: pickup.state,
    dropoff_latitude: dropoff.latitude,
    dropoff_longitude: dropoff.longitude,
    dropoff_city: dropoff.city,
    dropoff_state: dropoff.state,
    equipment: details.equipment.map((value) => Math.trunc(value)),
    miles: laneMiles(details),
  };
};

/** The month of an instant in UTC, as YYYY-MM. */
export const monthOf = (instant: string): string => new Date(instant).toISOString().slice(0, 7);

/**
 * The agreed prices of the marketplace by lane (GET insights/lanes): each load's lane as posted or
 * edited, and on an offer's acceptance one row with that lane, the agreed price and the month. A
 * load cancelled after its acceptance takes its price out again: the shipment never ran at it.
 *
 * A page is applied set-based: the lanes it posts or edits are folded in memory and written with
 * one upsert; its acceptances are inserted with one INSERT ... SELECT joining the lanes; its
 * cancellations delete with one statement.
 */
export const laneRatesProjection = defineProjection({
  name: 'laneRates',
  version: 1,
  tables: ['lane_loads_view', 'lane_rates_view'],
  handles: ['LoadPosted', 'LoadUpdated', 'LoadProposalAccepted', 'LoadCanceled'],
  async apply(trx, recorded) {
    const events = recorded as unknown as LoadEvent[];
    const lanes = new Map<string, LaneLoadRow>();
    const accepted = new Map<string, Acceptance>();
    const canceled = new Set<string>();
    // Lanes, then acceptances, then cancellations: the order of a load's life. A load is never
    // accepted after its cancellation; should the page hold that, the cancellation is written first.
    const flush = async () => {
      if (lanes.size > 0) {
        await sql`INSERT INTO lane_loads_view SELECT * FROM jsonb_populate_recordset(NULL::lane_loads_view, ${JSON.stringify([...lanes.values()])}::jsonb)
          ON CONFLICT (load_id) DO UPDATE SET (pickup_latitude, pickup_longitude, pickup_city, pickup_state, dropoff_latitude, dropoff_longitude, dropoff_city, dropoff_state, equipment, miles)
          = ROW(excluded.pickup_latitude, excluded.pickup_longitude, excluded.pickup_city, excluded.pickup_state, excluded.dropoff_latitude, excluded.dropoff_longitude,
            excluded.dropoff_city, excluded.dropoff_state, excluded.equipment, excluded.miles)`.execute(
          trx,
        );
        lanes.clear();
      }
      if (accepted.size > 0) {
        await sql`INSERT INTO lane_rates_view (proposal_id, load_id, pickup_latitude, pickup_longitude, pickup_city, pickup_state, dropoff_latitude, dropoff_longitude,
            dropoff_city, dropoff_state, equipment, price, miles, month, accepted_at)
          SELECT a.proposal_id, a.load_id, l.pickup_latitude, l.pickup_longitude, l.pickup_city, l.pickup_state, l.dropoff_latitude, l.dropoff_longitude,
            l.dropoff_city, l.dropoff_state, l.equipment, a.price, l.miles, a.month, a.accepted_at
          FROM jsonb_to_recordset(${JSON.stringify([...accepted.values()])}::jsonb) AS a(proposal_id uuid, load_id uuid, price numeric, month text, accepted_at timestamptz)
          JOIN lane_loads_view l ON l.load_id = a.load_id
          ON CONFLICT (proposal_id) DO NOTHING`.execute(trx);
        accepted.clear();
      }
      if (canceled.size > 0) {
        await sql`DELETE FROM lane_rates_view WHERE load_id = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify([...canceled])}::jsonb))::uuid[])`.execute(
          trx,
        );
        canceled.clear();
      }
    };
    for (const event of events) {
      if (event.type === 'LoadPosted' || event.type === 'LoadUpdated') {
        lanes.set(event.data.loadId, laneOf(event.data.loadId, event.data.details));
      } else if (event.type === 'LoadProposalAccepted') {
        if (canceled.has(event.data.loadId)) await flush();
        const { proposalId: offerId, loadId, price, acceptedAt } = event.data;
        accepted.set(offerId, {
          proposal_id: offerId,
          load_id: loadId,
          price,
          month: monthOf(acceptedAt),
          accepted_at: acceptedAt,
        });
      } else if (event.type === 'LoadCanceled') {
        canceled.add(event.data.loadId);
      }
    }
    await flush();
  },
});
