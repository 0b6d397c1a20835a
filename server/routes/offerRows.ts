/** An offer as the API answers it, and the offers tables with their carriers' ratings. */
import { GenericStatus, statusName } from '../../domain/catalog.ts';
import { carrierOfferActions } from '../../domain/loads/loadRows.ts';
import type { OfferRow } from '../../domain/contracts/offers.contract.ts';
import type { Trust } from '../../domain/loads/trust.ts';
import {
  organizationRatings,
  OFFER_ORDER,
  offersPage,
  type OfferScope,
} from '../../projections/marketplace/marketplace.queries.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import type { TrustReader } from '../http/loadTrust.ts';
import { isSuperadmin, type Actor } from '../http/auth.ts';
import {
  actionsNamed,
  activeFilters,
  numbersOf,
  orderOf,
  pageOf,
  type TableQuery,
  tableAnswer,
} from '../http/table.ts';

// biome-ignore lint/suspicious/noExplicitAny: a read model row as the query returned it, shaped into the answer here
export type Row = Record<string, any>;
export const money = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
export const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();

export const offerRow = (
  row: Row,
  ratings: Map<string, Record<string, number>>,
  actor: Actor,
): OfferRow => {
  const asCarrier = row.carrier_organization_id === actor.organizationId;
  const loadOpen =
    row.load_status === GenericStatus.Created &&
    new Date(row.load_expiration).getTime() > Date.now();
  const open =
    row.status === GenericStatus.SubmittedProposal ||
    row.status === GenericStatus.PendingAcceptance;
  const asShipper =
    !asCarrier && (isSuperadmin(actor) || row.shipper_organization_id === actor.organizationId);
  return {
    id: row.id as string,
    loadId: row.load_id as string,
    loadGuid: row.load_guid as string,
    status: row.status as number,
    statusName: statusName(row.status),
    price: money(row.price),
    counterPrice: money(row.counter_price),
    terms: row.terms ?? null,
    counterTerms: row.counter_price === null ? null : (row.counter_terms ?? null),
    message: row.message as string,
    eldTruckName: row.eld_truck_name as string | null,
    submittedAt: iso(row.submitted_at),
    updatedAt: iso(row.updated_at),
    carrier: {
      id: row.carrier_organization_id as string,
      name: row.carrier_name as string,
      ratings: ratings.get(row.carrier_organization_id) ?? {},
    },
    tourId: row.tour_id as string | null,
    contractFileId: row.contract_file_id as string | null,
    load:
      row.pickup_address === undefined
        ? undefined
        : {
            guid: row.load_guid,
            status: row.load_status,
            statusName: statusName(row.load_status),
            pickup: {
              address: row.pickup_address,
              city: row.pickup_city,
              state: row.pickup_state,
              time: iso(row.pickup_start),
              timezone: row.pickup_timezone,
            },
            dropoff: {
              address: row.dropoff_address,
              city: row.dropoff_city,
              state: row.dropoff_state,
              time: iso(row.dropoff_start),
              timezone: row.dropoff_timezone,
            },
            weight: Number(row.weight),
            commodity: row.commodity,
            expiration: iso(row.load_expiration),
            terms: row.load_terms ?? null,
          },
    actions: asCarrier ? carrierOfferActions(row.status, loadOpen) : [1],
    /** What the load's shipper may answer now. */
    canAccept: asShipper && loadOpen && row.status === GenericStatus.SubmittedProposal,
    canCounter: asShipper && loadOpen && row.status === GenericStatus.SubmittedProposal,
    canDecline: asShipper && open,
  };
};

/**
 * The offers tables of one database: a page of offers with their carriers' ratings, and on one
 * load's offers to its shipper (`withTrust`) each proposing carrier's trust flags.
 */
export function createOfferTables(db: Kysely<DB>, trustReader: TrustReader) {
  const ratingsOf = (organizationIds: string[]) => organizationRatings(db, organizationIds);

  const table = async (
    request: { query: TableQuery },
    actor: Actor,
    scope: OfferScope,
    withLoad: boolean,
    withTrust = false,
  ) => {
    const query = request.query;
    const filters = activeFilters(query);
    const statuses = numbersOf(filters.get('status'), [5, 7, 10, 11, 12, 14], 'status');
    const order = orderOf(query, OFFER_ORDER, 'p.submitted_at');
    const { total, rows } = await offersPage(
      db,
      scope,
      { statuses, withLoad },
      pageOf(query, order),
    );
    const ratings = await ratingsOf([...new Set(rows.map((row) => row.carrier_organization_id))]);
    const trust = withTrust
      ? await trustReader.ofOffers(rows.map((row) => row.id as string))
      : new Map<string, Trust>();
    return tableAnswer(
      query,
      total,
      rows.map((row) => {
        const answer = offerRow(row, ratings, actor);
        const flags = trust.get(answer.id);
        return flags ? { ...answer, trust: flags } : answer;
      }),
      actionsNamed([1, 5, 10, 15]),
    );
  };
  return { ratingsOf, table };
}
