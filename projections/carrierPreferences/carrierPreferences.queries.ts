import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { GenericStatus } from '../../domain/catalog.ts';
import type { DB } from '../../storage/schema.ts';

/** A shipper's two lists, each in its order. */
export async function carrierPreferencesOf(db: Kysely<DB>, shipperOrganizationId: string) {
  const rows = await db
    .selectFrom('carrier_preferences_view')
    .select(['carrier_organization_id', 'list'])
    .where('shipper_organization_id', '=', shipperOrganizationId)
    .orderBy('position')
    .execute();
  return {
    preferred: rows
      .filter((row) => row.list === 'preferred')
      .map((row) => row.carrier_organization_id),
    blocked: rows.filter((row) => row.list === 'blocked').map((row) => row.carrier_organization_id),
  };
}

/** Where a carrier stands with a shipper: preferred, blocked or neither (null). */
export async function carrierStandingWith(
  db: Kysely<DB>,
  shipperOrganizationId: string,
  carrierOrganizationId: string,
): Promise<'preferred' | 'blocked' | null> {
  const row = await db
    .selectFrom('carrier_preferences_view')
    .select('list')
    .where('shipper_organization_id', '=', shipperOrganizationId)
    .where('carrier_organization_id', '=', carrierOrganizationId)
    .executeTakeFirst();
  return row?.list ?? null;
}

/** Every shipper's list a carrier is on. */
export async function standingsOfCarrier(db: Kysely<DB>, carrierOrganizationId: string) {
  return db
    .selectFrom('carrier_preferences_view')
    .select(['shipper_organization_id', 'list'])
    .where('carrier_organization_id', '=', carrierOrganizationId)
    .execute();
}

/**
 * The marketplace's rule for a load row `l` and a carrier: never a load of a shipper that blocked
 * it; a preferred-only load (`opens_at` set) only when the carrier is on the shipper's preferred list.
 */
export const visibleToCarrier =
  (carrierOrganizationId: string) =>
  // biome-ignore lint/suspicious/noExplicitAny: applies to any query over `loads_view as l`
  (eb: ExpressionBuilder<any, any>) =>
    eb.and([
      sql<boolean>`NOT EXISTS (SELECT 1 FROM carrier_preferences_view cp WHERE cp.shipper_organization_id = l.shipper_organization_id AND cp.carrier_organization_id = ${carrierOrganizationId} AND cp.list = 'blocked')`,
      sql<boolean>`(l.opens_at IS NULL OR EXISTS (SELECT 1 FROM carrier_preferences_view cp WHERE cp.shipper_organization_id = l.shipper_organization_id AND cp.carrier_organization_id = ${carrierOrganizationId} AND cp.list = 'preferred'))`,
    ]);

/** The preferred-only loads whose window has passed by `now` (the scheduler opens them). */
export async function loadsDueToOpen(db: Kysely<DB>, now: string, limit: number) {
  return db
    .selectFrom('loads_view')
    .select('id')
    .where('opens_at', 'is not', null)
    .where('opens_at', '<=', new Date(now))
    .where('status', '=', GenericStatus.Created)
    .orderBy('opens_at')
    .limit(limit)
    .execute();
}

/**
 * Who hears of these loads: per load, whether it is preferred-only now and its shipper's two lists
 * (the realtime pushes and the webhooks decide by them).
 */
export async function loadAudiences(db: Kysely<DB>, loadIds: readonly string[]) {
  const answer = new Map<
    string,
    { preferredOnly: boolean; preferred: string[]; blocked: string[] }
  >();
  if (loadIds.length === 0) return answer;
  const loads = await db
    .selectFrom('loads_view')
    .select(['id', 'shipper_organization_id', 'opens_at'])
    .where('id', 'in', [...loadIds])
    .execute();
  const shippers = [...new Set(loads.map((load) => load.shipper_organization_id))];
  const lists =
    shippers.length === 0
      ? []
      : await db
          .selectFrom('carrier_preferences_view')
          .select(['shipper_organization_id', 'carrier_organization_id', 'list'])
          .where('shipper_organization_id', 'in', shippers)
          .execute();
  for (const load of loads) {
    const own = lists.filter((row) => row.shipper_organization_id === load.shipper_organization_id);
    answer.set(load.id, {
      preferredOnly: load.opens_at !== null,
      preferred: own
        .filter((row) => row.list === 'preferred')
        .map((row) => row.carrier_organization_id),
      blocked: own
        .filter((row) => row.list === 'blocked')
        .map((row) => row.carrier_organization_id),
    });
  }
  return answer;
}
