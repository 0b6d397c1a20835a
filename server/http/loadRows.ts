/** The columns every load row of the API shares (shipper table, marketplace, realtime payloads), from a `loads_view` row. */
import { loadTypes, statusName, trailerTypes } from '../../domain/catalog.ts';
import type { LoadRow } from '../../projections/marketplace/marketplace.tables.ts';

export type { LoadRow };

export const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();
export const money = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

const place = (row: LoadRow, prefix: 'pickup' | 'dropoff') => ({
  address: row[`${prefix}_address`],
  city: row[`${prefix}_city`],
  state: row[`${prefix}_state`],
  latitude: Number(row[`${prefix}_latitude`]),
  longitude: Number(row[`${prefix}_longitude`]),
  time: iso(row[`${prefix}_start`]),
  timeEnd: iso(row[`${prefix}_end`]),
  timezone: row[`${prefix}_timezone`],
});

export const baseLoadRow = (row: LoadRow) => ({
  id: row.id,
  guid: row.guid,
  loadStatus: row.status,
  loadStatusName: statusName(row.status),
  pickup: place(row, 'pickup'),
  dropoff: place(row, 'dropoff'),
  pickupTime: iso(row.pickup_start),
  dropoffTime: iso(row.dropoff_start),
  expiration: iso(row.expiration),
  expirationTimezone: row.expiration_timezone,
  loadTypeId: row.load_type_id,
  loadType: loadTypes.find((type) => type.id === row.load_type_id)?.name ?? null,
  equipment: row.equipment.map(Number),
  equipmentNames: row.equipment.map(
    (id) => trailerTypes.find((type) => type.id === Number(id))?.name ?? String(id),
  ),
  accessories: row.accessories.map(Number),
  weight: Number(row.weight),
  commodity: row.commodity,
  refNumber: row.ref_number,
  distance: Number(row.distance_miles),
  stopsCount: Array.isArray(row.stops) ? row.stops.length : 0,
  /** The load's accessorial terms; null: none. */
  terms: row.terms ?? null,
  /** The Book Now price; null: the load only takes offers. */
  bookNowPrice: money(row.book_now_price),
});
