import { sql, type Insertable, type Transaction } from 'kysely';
import { OPEN_OFFER_STATUSES, type TourStatusId } from '../../domain/catalog.ts';
import type { DB } from '../../storage/schema.ts';
import type {
  LoadsViewTable,
  OffersViewTable,
  SavedLocationsViewTable,
  TourEventsViewTable,
  TourRatingsViewTable,
  ToursViewTable,
} from './marketplace.tables.ts';
import { columnsOf, jsonList, readRows, Rows, writeRows } from './pageRows.ts';

/** A row as the page folds it: what `to_jsonb` read, or what an event inserts. */
export type LoadState = Insertable<LoadsViewTable>;
export type OfferState = Insertable<OffersViewTable>;
export type TourState = Insertable<ToursViewTable>;

export const loadColumns = columnsOf<LoadsViewTable>()([
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
  'terms',
  'audience',
  'opens_at',
  'book_now_price',
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
export const offerColumns = columnsOf<OffersViewTable>()([
  'id',
  'load_id',
  'load_guid',
  'shipper_organization_id',
  'carrier_organization_id',
  'submitted_by',
  'status',
  'price',
  'counter_price',
  'terms',
  'counter_terms',
  'message',
  'eld_truck_name',
  'tour_id',
  'contract_file_id',
  'submitted_at',
  'updated_at',
]);
export const tourColumns = columnsOf<ToursViewTable>()([
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
export const locationColumns = columnsOf<SavedLocationsViewTable>()([
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

/** The rows a page's events read or change, by table. */
export type Touched = { load?: string; offer?: string; tour?: string };

/**
 * The marketplace rows of one page of events, folded in memory in log order: the loads, offers and
 * tours its events touch (read first, in one statement per table), and the timeline entries,
 * ratings and saved locations it adds. Written back with one multi-row upsert per table.
 */
export class MarketplacePage {
  readonly loads = new Rows<LoadState>();
  readonly offers = new Rows<OfferState>();
  readonly tours = new Rows<TourState>();
  readonly tourEvents = new Map<string, Insertable<TourEventsViewTable>>();
  readonly ratings = new Map<string, Insertable<TourRatingsViewTable>>();
  readonly locations = new Map<string, Insertable<SavedLocationsViewTable>>();
  /** Loads whose offer counts are recounted once at the end of the page, however many offers changed. */
  readonly recount = new Set<string>();

  /** Reads the rows the page touches: loads by id or by tour, offers and tours by id. */
  async read(trx: Transaction<DB>, touched: Touched[]) {
    const ids = (key: keyof Touched) =>
      new Set(touched.flatMap((keys) => (keys[key] ? [keys[key]] : [])));
    const loadIds = ids('load');
    const offerIds = ids('offer');
    const tourIds = ids('tour');
    this.loads.load(
      await readRows<LoadState>(trx, 'loads_view', [
        { column: 'id', ids: loadIds },
        { column: 'tour_id', ids: tourIds },
      ]),
      loadIds,
    );
    this.offers.load(
      await readRows<OfferState>(trx, 'proposals_view', [{ column: 'id', ids: offerIds }]),
      offerIds,
    );
    this.tours.load(
      await readRows<TourState>(trx, 'tours_view', [{ column: 'id', ids: tourIds }]),
      tourIds,
    );
  }

  /** UPDATE loads_view ... WHERE tour_id = tourId, over the rows as they stand now. */
  updateLoadsOfTour(tourId: string, change: Partial<LoadState>) {
    for (const [id, row] of this.loads.byId)
      if (row && row.tour_id === tourId) this.loads.update(id, change);
  }

  /** A tour's status, on the tour and on its load. */
  setTourStatus(tourId: string, status: TourStatusId, at: string) {
    this.tours.update(tourId, { status, updated_at: at });
    this.updateLoadsOfTour(tourId, { tour_status: status, updated_at: at });
  }

  async write(trx: Transaction<DB>) {
    await writeRows(trx, 'loads_view', ['id'], this.loads.written(), loadColumns);
    await writeRows(trx, 'proposals_view', ['id'], this.offers.written(), offerColumns);
    await writeRows(trx, 'tours_view', ['id'], this.tours.written(), tourColumns);
    await writeRows(trx, 'tour_events_view', ['id'], [...this.tourEvents.values()], []);
    await writeRows(
      trx,
      'tour_ratings_view',
      ['tour_id', 'side', 'criteria'],
      [...this.ratings.values()],
      [],
    );
    await writeRows(
      trx,
      'saved_locations_view',
      ['id'],
      [...this.locations.values()],
      locationColumns.filter((column) => column !== 'organization_id'),
    );
    if (this.recount.size > 0) {
      const open = sql.join(OPEN_OFFER_STATUSES);
      await sql`UPDATE loads_view l SET proposals_count = c.total, open_proposals = c.open, best_price = c.best, last_proposal_at = c.last
        FROM (SELECT k.id, count(p.id)::int AS total, count(p.id) FILTER (WHERE p.status IN (${open}))::int AS open,
                min(p.price) FILTER (WHERE p.status IN (${open})) AS best, max(p.submitted_at) AS last
              FROM unnest(ARRAY(SELECT jsonb_array_elements_text(${jsonList(this.recount)}::jsonb))::uuid[]) AS k(id)
              LEFT JOIN proposals_view p ON p.load_id = k.id
              GROUP BY k.id) c
        WHERE l.id = c.id`.execute(trx);
    }
  }
}

/** How the read model takes one type of event: the rows it touches, and what it makes of them. */
export type Handler<E extends { data: object }> = {
  touches: (data: E['data']) => Touched;
  fold: (page: MarketplacePage, data: E['data']) => void;
};
