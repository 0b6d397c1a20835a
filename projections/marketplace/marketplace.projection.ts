import { sql, type Transaction } from 'kysely';
import type { LoadDetails, LoadEvent } from '../../domain/loads/load.types.ts';
import type { LocationSaved } from '../../domain/loads/savedLocation.ts';
import type { ProposalEvent } from '../../domain/proposals/proposal.types.ts';
import { routeMiles } from '../../domain/loads/route.ts';
import type { TourEvent } from '../../domain/tours/tour.types.ts';
import type { DB } from '../../storage/schema.ts';
import { defineProjection } from '../projection.ts';
import type {
  LoadsViewTable,
  ProposalsViewTable,
  SavedLocationsViewTable,
  ToursViewTable,
} from './marketplace.tables.ts';

type MarketplaceEvent = LoadEvent | ProposalEvent | TourEvent | LocationSaved;

/** A row as JSON: what `to_jsonb` reads and `jsonb_populate_recordset` writes, so every column keeps its type. */
type Row = Record<string, unknown>;

/** Every column of a table, checked against its row type: a column added to the type and not here fails to compile. */
const columnsOf =
  <T>() =>
  <const C extends readonly (keyof T & string)[]>(
    columns: C & ([Exclude<keyof T, C[number]>] extends [never] ? unknown : 'missing columns'),
  ) =>
    columns;

const loadColumns = columnsOf<LoadsViewTable>()([
  'id',
  'guid',
  'shipper_organization_id',
  'posted_by',
  'status',
  'pickup_start',
  'pickup_end',
  'pickup_timezone',
  'dropoff_start',
  'dropoff_end',
  'dropoff_timezone',
  'expiration',
  'expiration_timezone',
  'load_type_id',
  'equipment',
  'accessories',
  'weight',
  'commodity',
  'ref_number',
  'description',
  'pickup_address',
  'pickup_city',
  'pickup_state',
  'pickup_latitude',
  'pickup_longitude',
  'dropoff_address',
  'dropoff_city',
  'dropoff_state',
  'dropoff_latitude',
  'dropoff_longitude',
  'distance_miles',
  'stops',
  'accepted_proposal_id',
  'carrier_organization_id',
  'price',
  'tour_id',
  'tour_status',
  'assignee_id',
  'contract_file_id',
  'cancel_message',
  'proposals_count',
  'open_proposals',
  'best_price',
  'last_proposal_at',
  'created_at',
  'updated_at',
]);
const proposalColumns = columnsOf<ProposalsViewTable>()([
  'id',
  'load_id',
  'load_guid',
  'shipper_organization_id',
  'carrier_organization_id',
  'submitted_by',
  'status',
  'price',
  'counter_price',
  'message',
  'eld_truck_name',
  'tour_id',
  'contract_file_id',
  'submitted_at',
  'updated_at',
]);
const tourColumns = columnsOf<ToursViewTable>()([
  'id',
  'load_id',
  'load_guid',
  'proposal_id',
  'shipper_organization_id',
  'carrier_organization_id',
  'status',
  'assignee_id',
  'assignee_name',
  'price',
  'eld_truck_name',
  'stops',
  'contract_file_id',
  'shipper_rated',
  'carrier_rated',
  'opened_at',
  'updated_at',
]);
const locationColumns = columnsOf<SavedLocationsViewTable>()([
  'id',
  'organization_id',
  'name',
  'address',
  'city',
  'state',
  'latitude',
  'longitude',
  'contact_name',
  'contact_phone',
  'number',
  'location_type',
  'saved_at',
]);

const jsonList = (values: Iterable<unknown>) => JSON.stringify([...values]);

/** The rows of `table` whose `column` is one of `ids` (uuids), as JSON. */
async function readRows(
  trx: Transaction<DB>,
  table: string,
  where: { column: string; ids: Set<string> }[],
): Promise<Row[]> {
  const conditions = where
    .filter((condition) => condition.ids.size > 0)
    .map(
      ({ column, ids }) =>
        sql`t.${sql.ref(column)} = ANY(ARRAY(SELECT jsonb_array_elements_text(${jsonList(ids)}::jsonb))::uuid[])`,
    );
  if (conditions.length === 0) return [];
  const { rows } = await sql<{
    row: Row;
  }>`SELECT to_jsonb(t) AS row FROM ${sql.table(table)} t WHERE ${sql.join(conditions, sql` OR `)}`.execute(
    trx,
  );
  return rows.map(({ row }) => (typeof row === 'string' ? (JSON.parse(row) as Row) : row));
}

/**
 * Writes the final state of `rows` in one statement. `update` lists the columns an existing row takes
 * from the new one (all but the key for a row folded from its stored state); none: an existing row stays.
 */
async function writeRows(
  trx: Transaction<DB>,
  table: string,
  key: readonly string[],
  rows: Row[],
  update: readonly string[],
) {
  if (rows.length === 0) return;
  const set = update.filter((column) => !key.includes(column));
  const conflict =
    set.length === 0
      ? sql`DO NOTHING`
      : sql`DO UPDATE SET (${sql.join(set.map((column) => sql.ref(column)))}) = ROW(${sql.join(set.map((column) => sql.ref(`excluded.${column}`)))})`;
  for (let start = 0; start < rows.length; start += 1000) {
    await sql`INSERT INTO ${sql.table(table)} SELECT * FROM jsonb_populate_recordset(NULL::${sql.table(table)}, ${JSON.stringify(rows.slice(start, start + 1000))}::jsonb)
      ON CONFLICT (${sql.join(key.map((column) => sql.ref(column)))}) ${conflict}`.execute(trx);
  }
}

/** The loads_view columns a load's details fill. */
const detailFields = (details: LoadDetails): Row => {
  const pickup = details.stops[0]!;
  const dropoff = details.stops[details.stops.length - 1]!;
  return {
    pickup_start: details.pickupStart,
    pickup_end: details.pickupEnd,
    pickup_timezone: details.pickupTimezone,
    dropoff_start: details.dropoffStart,
    dropoff_end: details.dropoffEnd,
    dropoff_timezone: details.dropoffTimezone,
    expiration: details.expiration,
    expiration_timezone: details.expirationTimezone,
    load_type_id: details.loadTypeId,
    equipment: details.equipment.map((value) => Math.trunc(value)),
    accessories: details.accessories.map((value) => Math.trunc(value)),
    weight: details.weight,
    commodity: details.commodity,
    ref_number: details.refNumber,
    description: details.description,
    pickup_address: pickup.address,
    pickup_city: pickup.city,
    pickup_state: pickup.state,
    pickup_latitude: pickup.latitude,
    pickup_longitude: pickup.longitude,
    dropoff_address: dropoff.address,
    dropoff_city: dropoff.city,
    dropoff_state: dropoff.state,
    dropoff_latitude: dropoff.latitude,
    dropoff_longitude: dropoff.longitude,
    distance_miles: routeMiles(details.stops),
    stops: details.stops,
  };
};

/** Rows of one table by key, folded in memory: `null` for a key known to have no row; `changed` the keys to write. */
class Rows {
  readonly byId = new Map<string, Row | null>();
  readonly changed = new Set<string>();
  load(rows: Row[], wanted: Iterable<string>) {
    for (const row of rows) this.byId.set(row.id as string, row);
    for (const id of wanted) if (!this.byId.has(id)) this.byId.set(id, null);
  }
  get(id: string): Row | null {
    return this.byId.get(id) ?? null;
  }
  /** Changes an existing row (an UPDATE ... WHERE id: nothing when there is none). */
  update(id: string, change: Row): Row | null {
    const row = this.get(id);
    if (!row) return null;
    Object.assign(row, change);
    this.changed.add(id);
    return row;
  }
  /** Adds a row unless one exists (INSERT ... ON CONFLICT DO NOTHING). */
  insert(row: Row) {
    const id = row.id as string;
    if (this.get(id)) return;
    this.byId.set(id, row);
    this.changed.add(id);
  }
  written(): Row[] {
    return [...this.changed].map((id) => this.byId.get(id)).filter((row): row is Row => !!row);
  }
}

/**
 * Loads, their offers and their tours as the tables, the marketplace and the tracking screens read
 * them; plus tour timelines, ratings and saved locations. One projection, because a load row shows
 * its offers and its tour's status: all three move together in one transaction.
 *
 * A page is applied set-based: the rows its events touch are read in one statement per table, the
 * events are folded over them in memory in log order, and the final rows are written back with one
 * multi-row upsert per table; offer counts are recounted once per load at the end.
 */
export const marketplaceProjection = defineProjection({
  name: 'marketplace',
  version: 1,
  tables: [
    'loads_view',
    'proposals_view',
    'tours_view',
    'tour_events_view',
    'tour_ratings_view',
    'saved_locations_view',
  ],
  handles: [
    'LoadPosted',
    'LoadUpdated',
    'LoadExpirationExtended',
    'LoadExpired',
    'LoadCanceled',
    'LoadProposalAccepted',
    'LoadContractSigned',
    'LoadCompleted',
    'ProposalSubmitted',
    'ProposalRevised',
    'ProposalCountered',
    'CounterAccepted',
    'ProposalAccepted',
    'ProposalDeclined',
    'ProposalCanceled',
    'ContractUploaded',
    'TourOpened',
    'CarrierConfirmed',
    'TourAssigned',
    'TourStatusChanged',
    'TourEventAdded',
    'TourRated',
    'TourCanceled',
    'LocationSaved',
  ],
  async apply(trx, recorded) {
    const events = recorded as unknown as MarketplaceEvent[];
    // The keys the page touches.
    const loadIds = new Set<string>();
    const proposalIds = new Set<string>();
    const tourIds = new Set<string>();
    for (const event of events) {
      const d = event.data as { loadId?: string; proposalId?: string; tourId?: string };
      if (event.type.startsWith('Load') && d.loadId) loadIds.add(d.loadId);
      if (
        (event.type.startsWith('Proposal') ||
          event.type === 'CounterAccepted' ||
          event.type === 'ContractUploaded') &&
        d.proposalId
      )
        proposalIds.add(d.proposalId);
      if (event.type === 'TourOpened') loadIds.add(d.loadId!);
      if (event.type.startsWith('Tour') || event.type === 'CarrierConfirmed') {
        if (d.tourId) tourIds.add(d.tourId);
      }
    }
    const loads = new Rows();
    const proposals = new Rows();
    const tours = new Rows();
    loads.load(
      await readRows(trx, 'loads_view', [
        { column: 'id', ids: loadIds },
        { column: 'tour_id', ids: tourIds },
      ]),
      loadIds,
    );
    proposals.load(
      await readRows(trx, 'proposals_view', [{ column: 'id', ids: proposalIds }]),
      proposalIds,
    );
    tours.load(await readRows(trx, 'tours_view', [{ column: 'id', ids: tourIds }]), tourIds);
    /** UPDATE loads_view ... WHERE tour_id = tourId, over the rows as they stand now. */
    const updateLoadsOfTour = (tourId: string, change: Row) => {
      for (const [id, row] of loads.byId)
        if (row && row.tour_id === tourId) loads.update(id, change);
    };
    const setTourStatus = (tourId: string, status: number, at: string) => {
      tours.update(tourId, { status, updated_at: at });
      updateLoadsOfTour(tourId, { tour_status: status, updated_at: at });
    };
    const tourEvents = new Map<string, Row>();
    const ratings = new Map<string, Row>();
    const locations = new Map<string, Row>();
    // Offer counts are recounted once per load at the end of the page, however many offers changed.
    const recount = new Set<string>();

    for (const event of events) {
      switch (event.type) {
        case 'LoadPosted': {
          const d = event.data;
          loads.insert({
            id: d.loadId,
            guid: d.guid,
            shipper_organization_id: d.shipperOrganizationId,
            posted_by: d.postedBy,
            status: 4,
            ...detailFields(d.details),
            proposals_count: 0,
            open_proposals: 0,
            created_at: d.postedAt,
            updated_at: d.postedAt,
          });
          break;
        }
        case 'LoadUpdated':
          loads.update(event.data.loadId, {
            ...detailFields(event.data.details),
            updated_at: event.data.updatedAt,
          });
          break;
        case 'LoadExpirationExtended': {
          const d = event.data;
          const row = loads.get(d.loadId);
          loads.update(d.loadId, {
            expiration: d.expiration,
            expiration_timezone: d.expirationTimezone,
            status: d.reopened ? 4 : row?.status,
            updated_at: d.extendedAt,
          });
          break;
        }
        case 'LoadExpired':
          loads.update(event.data.loadId, { status: 8, updated_at: event.data.expiredAt });
          break;
        case 'LoadCanceled':
          loads.update(event.data.loadId, {
            status: 7,
            cancel_message: event.data.message,
            updated_at: event.data.canceledAt,
          });
          break;
        case 'LoadProposalAccepted': {
          const d = event.data;
          const row = loads.get(d.loadId);
          loads.update(d.loadId, {
            status: 5,
            accepted_proposal_id: d.proposalId,
            carrier_organization_id: d.carrierOrganizationId,
            price: d.price,
            tour_id: d.tourId,
            tour_status: row?.tour_status ?? 7,
            updated_at: d.acceptedAt,
          });
          break;
        }
        case 'LoadContractSigned':
          loads.update(event.data.loadId, {
            status: 6,
            contract_file_id: event.data.contractFileId,
            updated_at: event.data.signedAt,
          });
          break;
        case 'LoadCompleted':
          loads.update(event.data.loadId, { status: 9, updated_at: event.data.completedAt });
          break;

        case 'ProposalSubmitted': {
          const d = event.data;
          const resubmitted = {
            submitted_by: d.submittedBy,
            status: 10,
            price: d.price,
            counter_price: null,
            message: d.message,
            eld_truck_name: d.eldTruckName,
            submitted_at: d.submittedAt,
            updated_at: d.submittedAt,
          };
          if (!proposals.update(d.proposalId, resubmitted)) {
            proposals.insert({
              id: d.proposalId,
              load_id: d.loadId,
              load_guid: d.loadGuid,
              shipper_organization_id: d.shipperOrganizationId,
              carrier_organization_id: d.carrierOrganizationId,
              tour_id: null,
              contract_file_id: null,
              ...resubmitted,
            });
          }
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
          const change = ((): Row => {
            switch (event.type) {
              case 'ProposalRevised':
                return {
                  status: 10,
                  price: event.data.price,
                  counter_price: null,
                  message: event.data.message,
                  eld_truck_name: event.data.eldTruckName,
                  submitted_at: event.data.revisedAt,
                  updated_at: event.data.revisedAt,
                };
              case 'ProposalCountered':
                return {
                  status: 11,
                  counter_price: event.data.price,
                  updated_at: event.data.counteredAt,
                };
              case 'CounterAccepted':
                return {
                  status: 10,
                  price: event.data.price,
                  counter_price: null,
                  updated_at: event.data.acceptedAt,
                };
              case 'ProposalAccepted':
                return {
                  status: 5,
                  price: event.data.price,
                  tour_id: event.data.tourId,
                  updated_at: event.data.acceptedAt,
                };
              case 'ProposalDeclined':
                return { status: 12, updated_at: event.data.declinedAt };
              case 'ProposalCanceled':
                return { status: 7, updated_at: event.data.canceledAt };
              case 'ContractUploaded':
                return {
                  status: 14,
                  contract_file_id: event.data.contractFileId,
                  updated_at: event.data.uploadedAt,
                };
            }
          })();
          const row = proposals.update(event.data.proposalId, change);
          if (row) recount.add(row.load_id as string);
          break;
        }

        case 'TourOpened': {
          const d = event.data;
          tours.insert({
            id: d.tourId,
            load_id: d.loadId,
            load_guid: d.loadGuid,
            proposal_id: d.proposalId,
            shipper_organization_id: d.shipperOrganizationId,
            carrier_organization_id: d.carrierOrganizationId,
            status: 7,
            price: d.price,
            eld_truck_name: d.eldTruckName,
            stops: d.stops,
            shipper_rated: false,
            carrier_rated: false,
            opened_at: d.openedAt,
            updated_at: d.openedAt,
          });
          loads.update(d.loadId, { tour_id: d.tourId, tour_status: 7 });
          break;
        }
        case 'CarrierConfirmed':
          tours.update(event.data.tourId, { contract_file_id: event.data.contractFileId });
          setTourStatus(event.data.tourId, 8, event.data.confirmedAt);
          break;
        case 'TourAssigned': {
          const d = event.data;
          tours.update(d.tourId, {
            assignee_id: d.assigneeId,
            assignee_name: d.assigneeName,
            updated_at: d.assignedAt,
          });
          updateLoadsOfTour(d.tourId, { assignee_id: d.assigneeId });
          break;
        }
        case 'TourStatusChanged':
          setTourStatus(event.data.tourId, event.data.to, event.data.changedAt);
          break;
        case 'TourCanceled':
          setTourStatus(event.data.tourId, 5, event.data.canceledAt);
          break;
        case 'TourEventAdded': {
          const d = event.data;
          if (!tourEvents.has(d.eventId))
            tourEvents.set(d.eventId, {
              id: d.eventId,
              tour_id: d.tourId,
              type: d.type,
              message: d.message,
              stop_id: d.stopId,
              added_by: d.addedBy,
              at: d.at,
            });
          break;
        }
        case 'TourRated': {
          const d = event.data;
          for (const entry of d.ratings) {
            const key = JSON.stringify([d.tourId, d.side, entry.criteria]);
            if (!ratings.has(key)) {
              ratings.set(key, {
                tour_id: d.tourId,
                side: d.side,
                rated_organization_id: d.ratedOrganizationId,
                criteria: entry.criteria,
                rating: entry.rating,
                rated_by: d.ratedBy,
                rated_at: d.ratedAt,
              });
            }
          }
          const row = tours.get(d.tourId);
          tours.update(d.tourId, {
            shipper_rated: row?.shipper_rated === true || d.side === 'shipper',
            carrier_rated: row?.carrier_rated === true || d.side === 'carrier',
            updated_at: d.ratedAt,
          });
          break;
        }
        case 'LocationSaved': {
          const { organizationId, location: l, savedAt } = event.data;
          // A location saved again keeps its organization and takes everything else from the newest.
          locations.set(l.id, {
            id: l.id,
            organization_id: locations.get(l.id)?.organization_id ?? organizationId,
            name: l.name,
            address: l.address,
            city: l.city,
            state: l.state,
            latitude: l.latitude,
            longitude: l.longitude,
            contact_name: l.contactName,
            contact_phone: l.contactPhone,
            number: l.number,
            location_type: l.locationType,
            saved_at: savedAt,
          });
          break;
        }
        default:
          break;
      }
    }

    await writeRows(trx, 'loads_view', ['id'], loads.written(), loadColumns);
    await writeRows(trx, 'proposals_view', ['id'], proposals.written(), proposalColumns);
    await writeRows(trx, 'tours_view', ['id'], tours.written(), tourColumns);
    await writeRows(trx, 'tour_events_view', ['id'], [...tourEvents.values()], []);
    await writeRows(
      trx,
      'tour_ratings_view',
      ['tour_id', 'side', 'criteria'],
      [...ratings.values()],
      [],
    );
    await writeRows(
      trx,
      'saved_locations_view',
      ['id'],
      [...locations.values()],
      locationColumns.filter((column) => column !== 'organization_id'),
    );
    if (recount.size > 0) {
      await sql`UPDATE loads_view l SET proposals_count = c.total, open_proposals = c.open, best_price = c.best, last_proposal_at = c.last
        FROM (SELECT k.id, count(p.id)::int AS total, count(p.id) FILTER (WHERE p.status IN (10, 11))::int AS open,
                min(p.price) FILTER (WHERE p.status IN (10, 11)) AS best, max(p.submitted_at) AS last
              FROM unnest(ARRAY(SELECT jsonb_array_elements_text(${jsonList(recount)}::jsonb))::uuid[]) AS k(id)
              LEFT JOIN proposals_view p ON p.load_id = k.id
              GROUP BY k.id) c
        WHERE l.id = c.id`.execute(trx);
    }
  },
});
