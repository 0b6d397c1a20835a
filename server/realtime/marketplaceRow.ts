/**
 * The payload of `load:posted` and `load:updated`: the load's row as the carriers' marketplace
 * (`GET /api/loads/carrier`) shows it, read from the read model, without the fields that differ
 * per carrier (`myProposal`, `actions`, the distances from a searched area): a client refreshes
 * its marketplace table on it, or adds the row as it is.
 *
 * The columns mirror `baseRow` of server/routes/loads.routes.ts, which is not exported; keep the two in step.
 */
import type { Kysely } from 'kysely';
import { GenericStatus, loadTypes, trailerTypes } from '../../domain/catalog.ts';
import { statusName } from '../identity/accounts.ts';

type Row = Record<string, any>;

const iso = (value: unknown): string | null => (value === null || value === undefined ? null : new Date(value as string).toISOString());

const place = (row: Row, prefix: 'pickup' | 'dropoff') => ({
  address: row[`${prefix}_address`], city: row[`${prefix}_city`], state: row[`${prefix}_state`],
  latitude: Number(row[`${prefix}_latitude`]), longitude: Number(row[`${prefix}_longitude`]),
  time: iso(row[`${prefix}_start`]), timeEnd: iso(row[`${prefix}_end`]), timezone: row[`${prefix}_timezone`],
});

export type MarketplaceRow = ReturnType<typeof toMarketplaceRow>;

export function toMarketplaceRow(row: Row, now: Date) {
  const open = row.status === GenericStatus.Created && new Date(row.expiration).getTime() > now.getTime() && row.shipper_status === GenericStatus.Active;
  return {
    id: row.id as string,
    guid: row.guid as string,
    loadStatus: row.status as number,
    loadStatusName: statusName(row.status),
    pickup: place(row, 'pickup'),
    dropoff: place(row, 'dropoff'),
    pickupTime: iso(row.pickup_start),
    dropoffTime: iso(row.dropoff_start),
    expiration: iso(row.expiration),
    expirationTimezone: row.expiration_timezone as string,
    loadTypeId: row.load_type_id as number,
    loadType: loadTypes.find((type) => type.id === row.load_type_id)?.name ?? null,
    equipment: (row.equipment as number[]).map(Number),
    equipmentNames: (row.equipment as number[]).map((id) => trailerTypes.find((type) => type.id === Number(id))?.name ?? String(id)),
    accessories: (row.accessories as number[]).map(Number),
    weight: Number(row.weight),
    commodity: row.commodity as string,
    refNumber: row.ref_number as string,
    distance: Number(row.distance_miles),
    stopsCount: Array.isArray(row.stops) ? row.stops.length : 0,
    status: row.status as number,
    statusName: statusName(row.status),
    shipper: row.shipper_name as string,
    /** Whether the load is on the marketplace now: false once it was accepted, cancelled, paused or expired. */
    open,
  };
}

/** The load's marketplace row, or null when the read model has no such load. */
export async function readMarketplaceRow(db: Kysely<any>, loadId: string, now = new Date()): Promise<MarketplaceRow | null> {
  const row = await db.selectFrom('loads_view as l').innerJoin('organizations_view as o', 'o.id', 'l.shipper_organization_id')
    .selectAll('l').select(['o.name as shipper_name', 'o.status as shipper_status'])
    .where('l.id', '=', loadId).executeTakeFirst();
  return row ? toMarketplaceRow(row, now) : null;
}
