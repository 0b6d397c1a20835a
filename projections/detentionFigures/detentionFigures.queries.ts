import type { Kysely } from 'kysely';
import {
  figuresOf,
  placeKey,
  type LoadDetention,
  type MeasuredStops,
} from '../../domain/claims/detentionFigures.ts';
import type { DB } from '../../storage/schema.ts';

type Place = { address: string; latitude: number; longitude: number };

/** A load as its detention figures need it: its shipper, its pickup (first stop) and its delivery (last). */
export type LoadPlaces = {
  id: string;
  shipperOrganizationId: string;
  pickup: Place;
  delivery: Place;
};

/** The detention figures of loads, by load id: the shipper's, the pickup place's and the delivery place's. */
export async function detentionOfLoads(
  db: Kysely<DB>,
  loads: readonly LoadPlaces[],
): Promise<Map<string, LoadDetention>> {
  const answer = new Map<string, LoadDetention>();
  if (loads.length === 0) return answer;
  const keyed = loads.map((load) => ({
    id: load.id,
    shipper: load.shipperOrganizationId,
    pickup: placeKey(load.pickup),
    delivery: placeKey(load.delivery),
  }));
  const shippers = [...new Set(keyed.map((load) => load.shipper))];
  const places = [...new Set(keyed.flatMap((load) => [load.pickup, load.delivery]))];
  const rows = await db
    .selectFrom('detention_figures_view')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('scope', '=', 'shipper'), eb('key', 'in', shippers)]),
        eb.and([eb('scope', '=', 'place'), eb('key', 'in', places)]),
      ]),
    )
    .execute();
  const measured = new Map<string, MeasuredStops>(
    rows.map((row) => [
      `${row.scope}:${row.key}`,
      {
        stops: Number(row.stops),
        medianMinutes: row.median_minutes === null ? null : Number(row.median_minutes),
        detentionStops: Number(row.detention_stops),
        claimsDecided: Number(row.claims_decided),
        claimsOnTime: Number(row.claims_on_time),
      },
    ]),
  );
  for (const load of keyed)
    answer.set(load.id, {
      shipper: figuresOf(measured.get(`shipper:${load.shipper}`)),
      pickup: figuresOf(measured.get(`place:${load.pickup}`)),
      delivery: figuresOf(measured.get(`place:${load.delivery}`)),
    });
  return answer;
}

/** The detention figures of one load. */
export async function detentionOfLoad(db: Kysely<DB>, load: LoadPlaces): Promise<LoadDetention> {
  return (await detentionOfLoads(db, [load])).get(load.id)!;
}
