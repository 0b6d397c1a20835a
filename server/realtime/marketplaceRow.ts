/**
 * The payload of `load:posted` and `load:updated`: the load's row as the carriers' marketplace
 * (`GET /api/loads/carrier`) shows it, read from the read model, without the fields that differ
 * per carrier (`myProposal`, `actions`, the distances from a searched area): a client refreshes
 * its marketplace table on it, or adds the row as it is.
 */
import type { Kysely } from 'kysely';
import { GenericStatus, statusName } from '../../domain/catalog.ts';
import { loadWithShipper } from '../../projections/marketplace/marketplace.queries.ts';
import { loadsWithShipper } from '../../projections/marketplace/pushRows.queries.ts';
import type { DB } from '../../storage/schema.ts';
import { baseLoadRow, type LoadRow } from '../http/loadRows.ts';

export type MarketplaceRow = ReturnType<typeof toMarketplaceRow>;

export function toMarketplaceRow(
  row: LoadRow & { shipper_name: string; shipper_status: number },
  now: Date,
) {
  const open =
    row.status === GenericStatus.Created &&
    new Date(row.expiration).getTime() > now.getTime() &&
    row.shipper_status === GenericStatus.Active;
  return {
    ...baseLoadRow(row),
    status: row.status,
    statusName: statusName(row.status),
    shipper: row.shipper_name,
    /** Whether the load is on the marketplace now: false once it was accepted, cancelled, paused or expired. */
    open,
  };
}

/** The load's marketplace row, or null when the read model has no such load. */
export async function readMarketplaceRow(
  db: Kysely<DB>,
  loadId: string,
  now = new Date(),
): Promise<MarketplaceRow | null> {
  const row = await loadWithShipper(db, loadId);
  return row ? toMarketplaceRow(row, now) : null;
}

/** The marketplace rows of these loads, by id; loads the read model does not have are absent. */
export async function readMarketplaceRows(
  db: Kysely<DB>,
  loadIds: readonly string[],
  now = new Date(),
): Promise<Map<string, MarketplaceRow>> {
  const rows = await loadsWithShipper(db, loadIds);
  return new Map(rows.map((row) => [row.id, toMarketplaceRow(row, now)]));
}
