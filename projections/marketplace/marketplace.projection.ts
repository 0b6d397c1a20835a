import { sql, type Transaction } from 'kysely';
import type { LoadDetails, LoadEvent } from '../../domain/loads/load.types.ts';
import type { LocationSaved } from '../../domain/loads/savedLocation.ts';
import type { ProposalEvent } from '../../domain/proposals/proposal.types.ts';
import { routeMiles } from '../../domain/loads/route.ts';
import type { TourEvent } from '../../domain/tours/tour.types.ts';
import type { DB } from '../../storage/schema.ts';
import { defineProjection } from '../projection.ts';

type MarketplaceEvent = LoadEvent | ProposalEvent | TourEvent | LocationSaved;

const int4Array = (values: number[]) => sql`${`{${values.map((value) => Math.trunc(value)).join(',')}}`}::integer[]`;

/** The loads_view columns a load's details fill, by name. */
const detailFields = (details: LoadDetails): [string, unknown][] => {
  const pickup = details.stops[0]!;
  const dropoff = details.stops[details.stops.length - 1]!;
  return [
    ['pickup_start', details.pickupStart], ['pickup_end', details.pickupEnd], ['pickup_timezone', details.pickupTimezone],
    ['dropoff_start', details.dropoffStart], ['dropoff_end', details.dropoffEnd], ['dropoff_timezone', details.dropoffTimezone],
    ['expiration', details.expiration], ['expiration_timezone', details.expirationTimezone], ['load_type_id', details.loadTypeId],
    ['equipment', int4Array(details.equipment)], ['accessories', int4Array(details.accessories)], ['weight', details.weight],
    ['commodity', details.commodity], ['ref_number', details.refNumber], ['description', details.description],
    ['pickup_address', pickup.address], ['pickup_city', pickup.city], ['pickup_state', pickup.state],
    ['pickup_latitude', pickup.latitude], ['pickup_longitude', pickup.longitude],
    ['dropoff_address', dropoff.address], ['dropoff_city', dropoff.city], ['dropoff_state', dropoff.state],
    ['dropoff_latitude', dropoff.latitude], ['dropoff_longitude', dropoff.longitude],
    ['distance_miles', routeMiles(details.stops)], ['stops', sql`${JSON.stringify(details.stops)}::jsonb`],
  ];
};

const detailColumns = (details: LoadDetails) =>
  sql.join(detailFields(details).map(([column, value]) => sql`${sql.ref(column)} = ${value}`));

/** Recounts a load's offers after proposal changes. */
const recountProposals = (trx: Transaction<DB>, loadId: string) => sql`
  UPDATE loads_view l SET
    proposals_count = c.total, open_proposals = c.open, best_price = c.best, last_proposal_at = c.last
  FROM (SELECT count(*)::int AS total, count(*) FILTER (WHERE status IN (10, 11))::int AS open,
          min(price) FILTER (WHERE status IN (10, 11)) AS best, max(submitted_at) AS last
        FROM proposals_view WHERE load_id = ${loadId}) c
  WHERE l.id = ${loadId}`.execute(trx);

const setTourStatus = async (trx: Transaction<DB>, tourId: string, status: number, at: string) => {
  await sql`UPDATE tours_view SET status = ${status}, updated_at = ${at} WHERE id = ${tourId}`.execute(trx);
  await sql`UPDATE loads_view SET tour_status = ${status}, updated_at = ${at} WHERE tour_id = ${tourId}`.execute(trx);
};

/**
 * Loads, their offers and their tours as the tables, the marketplace and the tracking screens read
 * them; plus tour timelines, ratings and saved locations. One projection, because a load row shows
 * its offers and its tour's status: all three move together in one transaction.
 */
export const marketplaceProjection = defineProjection({
  name: 'marketplace',
  version: 1,
  tables: ['loads_view', 'proposals_view', 'tours_view', 'tour_events_view', 'tour_ratings_view', 'saved_locations_view'],
  handles: [
    'LoadPosted', 'LoadUpdated', 'LoadExpirationExtended', 'LoadExpired', 'LoadCanceled', 'LoadProposalAccepted', 'LoadContractSigned', 'LoadCompleted',
    'ProposalSubmitted', 'ProposalRevised', 'ProposalCountered', 'CounterAccepted', 'ProposalAccepted', 'ProposalDeclined', 'ProposalCanceled', 'ContractUploaded',
    'TourOpened', 'CarrierConfirmed', 'TourAssigned', 'TourStatusChanged', 'TourEventAdded', 'TourRated', 'TourCanceled',
    'LocationSaved',
  ],
  async apply(trx, events) {
    // Offer counts are recounted once per load at the end of the page, however many offers changed.
    const recount = new Set<string>();
    for (const recorded of events) {
      const event = recorded as unknown as MarketplaceEvent;
      switch (event.type) {
        case 'LoadPosted': {
          const d = event.data;
          const fields: [string, unknown][] = [
            ['id', d.loadId], ['guid', d.guid], ['shipper_organization_id', d.shipperOrganizationId], ['posted_by', d.postedBy], ['status', 4],
            ...detailFields(d.details), ['created_at', d.postedAt], ['updated_at', d.postedAt],
          ];
          await sql`INSERT INTO loads_view (${sql.join(fields.map(([column]) => sql.ref(column)))})
            VALUES (${sql.join(fields.map(([, value]) => value))})
            ON CONFLICT (id) DO NOTHING`.execute(trx);
          break;
        }
        case 'LoadUpdated':
          await sql`UPDATE loads_view SET ${detailColumns(event.data.details)}, updated_at = ${event.data.updatedAt} WHERE id = ${event.data.loadId}`.execute(trx);
          break;
        case 'LoadExpirationExtended': {
          const d = event.data;
          await sql`UPDATE loads_view SET expiration = ${d.expiration}, expiration_timezone = ${d.expirationTimezone},
              status = CASE WHEN ${d.reopened} THEN 4 ELSE status END, updated_at = ${d.extendedAt} WHERE id = ${d.loadId}`.execute(trx);
          break;
        }
        case 'LoadExpired':
          await sql`UPDATE loads_view SET status = 8, updated_at = ${event.data.expiredAt} WHERE id = ${event.data.loadId}`.execute(trx);
          break;
        case 'LoadCanceled':
          await sql`UPDATE loads_view SET status = 7, cancel_message = ${event.data.message}, updated_at = ${event.data.canceledAt} WHERE id = ${event.data.loadId}`.execute(trx);
          break;
        case 'LoadProposalAccepted': {
          const d = event.data;
          await sql`UPDATE loads_view SET status = 5, accepted_proposal_id = ${d.proposalId}, carrier_organization_id = ${d.carrierOrganizationId},
              price = ${d.price}, tour_id = ${d.tourId}, tour_status = COALESCE(tour_status, 7), updated_at = ${d.acceptedAt} WHERE id = ${d.loadId}`.execute(trx);
          break;
        }
        case 'LoadContractSigned':
          await sql`UPDATE loads_view SET status = 6, contract_file_id = ${event.data.contractFileId}, updated_at = ${event.data.signedAt} WHERE id = ${event.data.loadId}`.execute(trx);
          break;
        case 'LoadCompleted':
          await sql`UPDATE loads_view SET status = 9, updated_at = ${event.data.completedAt} WHERE id = ${event.data.loadId}`.execute(trx);
          break;

        case 'ProposalSubmitted': {
          const d = event.data;
          await sql`INSERT INTO proposals_view (id, load_id, load_guid, shipper_organization_id, carrier_organization_id, submitted_by, status, price,
              counter_price, message, eld_truck_name, submitted_at, updated_at)
            VALUES (${d.proposalId}, ${d.loadId}, ${d.loadGuid}, ${d.shipperOrganizationId}, ${d.carrierOrganizationId}, ${d.submittedBy}, 10, ${d.price},
              NULL, ${d.message}, ${d.eldTruckName}, ${d.submittedAt}, ${d.submittedAt})
            ON CONFLICT (id) DO UPDATE SET submitted_by = EXCLUDED.submitted_by, status = 10, price = EXCLUDED.price, counter_price = NULL,
              message = EXCLUDED.message, eld_truck_name = EXCLUDED.eld_truck_name, submitted_at = EXCLUDED.submitted_at, updated_at = EXCLUDED.updated_at`.execute(trx);
          recount.add(d.loadId);
          break;
        }
        case 'ProposalRevised':
        case 'ProposalCountered':
        case 'CounterAccepted':
        case 'ProposalAccepted':
        case 'ProposalDeclined':
        case 'ProposalCanceled':
        case 'ContractUploaded': {
          const d = event.data;
          const change = (() => {
            switch (event.type) {
              case 'ProposalRevised': return sql`status = 10, price = ${event.data.price}, counter_price = NULL, message = ${event.data.message},
                eld_truck_name = ${event.data.eldTruckName}, submitted_at = ${event.data.revisedAt}, updated_at = ${event.data.revisedAt}`;
              case 'ProposalCountered': return sql`status = 11, counter_price = ${event.data.price}, updated_at = ${event.data.counteredAt}`;
              case 'CounterAccepted': return sql`status = 10, price = ${event.data.price}, counter_price = NULL, updated_at = ${event.data.acceptedAt}`;
              case 'ProposalAccepted': return sql`status = 5, price = ${event.data.price}, tour_id = ${event.data.tourId}, updated_at = ${event.data.acceptedAt}`;
              case 'ProposalDeclined': return sql`status = 12, updated_at = ${event.data.declinedAt}`;
              case 'ProposalCanceled': return sql`status = 7, updated_at = ${event.data.canceledAt}`;
              case 'ContractUploaded': return sql`status = 14, contract_file_id = ${event.data.contractFileId}, updated_at = ${event.data.uploadedAt}`;
            }
          })();
          const { rows } = await sql<{ load_id: string }>`UPDATE proposals_view SET ${change} WHERE id = ${d.proposalId} RETURNING load_id`.execute(trx);
          if (rows[0]) recount.add(rows[0].load_id);
          break;
        }

        case 'TourOpened': {
          const d = event.data;
          await sql`INSERT INTO tours_view (id, load_id, load_guid, proposal_id, shipper_organization_id, carrier_organization_id, status, price,
              eld_truck_name, stops, opened_at, updated_at)
            VALUES (${d.tourId}, ${d.loadId}, ${d.loadGuid}, ${d.proposalId}, ${d.shipperOrganizationId}, ${d.carrierOrganizationId}, 7, ${d.price},
              ${d.eldTruckName}, ${JSON.stringify(d.stops)}::jsonb, ${d.openedAt}, ${d.openedAt})
            ON CONFLICT (id) DO NOTHING`.execute(trx);
          await sql`UPDATE loads_view SET tour_id = ${d.tourId}, tour_status = 7 WHERE id = ${d.loadId}`.execute(trx);
          break;
        }
        case 'CarrierConfirmed':
          await sql`UPDATE tours_view SET contract_file_id = ${event.data.contractFileId} WHERE id = ${event.data.tourId}`.execute(trx);
          await setTourStatus(trx, event.data.tourId, 8, event.data.confirmedAt);
          break;
        case 'TourAssigned': {
          const d = event.data;
          await sql`UPDATE tours_view SET assignee_id = ${d.assigneeId}, assignee_name = ${d.assigneeName}, updated_at = ${d.assignedAt} WHERE id = ${d.tourId}`.execute(trx);
          await sql`UPDATE loads_view SET assignee_id = ${d.assigneeId} WHERE tour_id = ${d.tourId}`.execute(trx);
          break;
        }
        case 'TourStatusChanged':
          await setTourStatus(trx, event.data.tourId, event.data.to, event.data.changedAt);
          break;
        case 'TourCanceled':
          await setTourStatus(trx, event.data.tourId, 5, event.data.canceledAt);
          break;
        case 'TourEventAdded': {
          const d = event.data;
          await sql`INSERT INTO tour_events_view (id, tour_id, type, message, stop_id, added_by, at)
            VALUES (${d.eventId}, ${d.tourId}, ${d.type}, ${d.message}, ${d.stopId}, ${d.addedBy}, ${d.at}) ON CONFLICT (id) DO NOTHING`.execute(trx);
          break;
        }
        case 'TourRated': {
          const d = event.data;
          for (const entry of d.ratings) {
            await sql`INSERT INTO tour_ratings_view (tour_id, side, rated_organization_id, criteria, rating, rated_by, rated_at)
              VALUES (${d.tourId}, ${d.side}, ${d.ratedOrganizationId}, ${entry.criteria}, ${entry.rating}, ${d.ratedBy}, ${d.ratedAt})
              ON CONFLICT (tour_id, side, criteria) DO NOTHING`.execute(trx);
          }
          await sql`UPDATE tours_view SET shipper_rated = shipper_rated OR ${d.side === 'shipper'}, carrier_rated = carrier_rated OR ${d.side === 'carrier'},
              updated_at = ${d.ratedAt} WHERE id = ${d.tourId}`.execute(trx);
          break;
        }
        case 'LocationSaved': {
          const { organizationId, location: l, savedAt } = event.data;
          await sql`INSERT INTO saved_locations_view (id, organization_id, name, address, city, state, latitude, longitude, contact_name, contact_phone,
              number, location_type, saved_at)
            VALUES (${l.id}, ${organizationId}, ${l.name}, ${l.address}, ${l.city}, ${l.state}, ${l.latitude}, ${l.longitude}, ${l.contactName},
              ${l.contactPhone}, ${l.number}, ${l.locationType}, ${savedAt})
            ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, address = EXCLUDED.address, city = EXCLUDED.city, state = EXCLUDED.state,
              latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude, contact_name = EXCLUDED.contact_name, contact_phone = EXCLUDED.contact_phone,
              number = EXCLUDED.number, location_type = EXCLUDED.location_type, saved_at = EXCLUDED.saved_at`.execute(trx);
          break;
        }
        default:
          break;
      }
    }
    for (const loadId of recount) await recountProposals(trx, loadId);
  },
});
