/**
 * The rows the notifier pushes after the marketplace projection committed a page: a load with its
 * shipper, an offer with its carrier's name, and a tour with its parties. One query per kind for the
 * whole page, however many events it held.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';

export type OfferPushRow = {
  id: string;
  loadId: string;
  loadGuid: string;
  shipperOrganizationId: string;
  carrierOrganizationId: string;
  carrierName: string | null;
  status: number;
  price: number;
  counterPrice: number | null;
  submittedAt: string;
};

export type TourPushRow = {
  id: string;
  loadId: string;
  loadGuid: string;
  shipperOrganizationId: string;
  carrierOrganizationId: string;
  assigneeId: string | null;
  status: number;
};

const iso = (value: unknown): string =>
  (value instanceof Date ? value : new Date(String(value))).toISOString();
const money = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

export async function offerPushRows(
  db: Kysely<DB>,
  ids: readonly string[],
): Promise<OfferPushRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('proposals_view as p')
    .leftJoin('organizations_view as o', 'o.id', 'p.carrier_organization_id')
    .select([
      'p.id',
      'p.load_id',
      'p.load_guid',
      'p.shipper_organization_id',
      'p.carrier_organization_id',
      'o.name as carrier_name',
      'p.status',
      'p.price',
      'p.counter_price',
      'p.submitted_at',
    ])
    .where('p.id', 'in', [...ids])
    .execute();
  return rows.map((row) => ({
    id: row.id,
    loadId: row.load_id,
    loadGuid: row.load_guid,
    shipperOrganizationId: row.shipper_organization_id,
    carrierOrganizationId: row.carrier_organization_id,
    carrierName: row.carrier_name ?? null,
    status: row.status,
    price: money(row.price) ?? 0,
    counterPrice: money(row.counter_price),
    submittedAt: iso(row.submitted_at),
  }));
}

export async function tourPushRows(db: Kysely<DB>, ids: readonly string[]): Promise<TourPushRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('tours_view')
    .select([
      'id',
      'load_id',
      'load_guid',
      'shipper_organization_id',
      'carrier_organization_id',
      'assignee_id',
      'status',
    ])
    .where('id', 'in', [...ids])
    .execute();
  return rows.map((row) => ({
    id: row.id,
    loadId: row.load_id,
    loadGuid: row.load_guid,
    shipperOrganizationId: row.shipper_organization_id,
    carrierOrganizationId: row.carrier_organization_id,
    assigneeId: row.assignee_id ?? null,
    status: row.status,
  }));
}

/** Loads with their shipper's name and status (the marketplace row's source), for the ids the read model has. */
export const loadsWithShipper = (db: Kysely<DB>, ids: readonly string[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('loads_view as l')
        .innerJoin('organizations_view as o', 'o.id', 'l.shipper_organization_id')
        .selectAll('l')
        .select(['o.name as shipper_name', 'o.status as shipper_status'])
        .where('l.id', 'in', [...ids])
        .execute();
