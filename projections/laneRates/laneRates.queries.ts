import { sql, type Kysely, type RawBuilder } from 'kysely';
import { boundingBox, type Point } from '../../domain/loads/route.ts';
import type { DB } from '../../storage/schema.ts';

/**
 * Figures need at least this many agreed prices behind them; fewer give null. With three, the
 * interpolated quartiles gave each price back (2·p25 − median is the lowest); five, with the
 * rounding below, leave no single deal to be read off a chart.
 */
export const LANE_MINIMUM = 5;
/** Prices are given to the nearest $25, prices per mile to the nearest $0.05. */
export const PRICE_STEP = 25;
export const PER_MILE_STEP = 0.05;

const EARTH_RADIUS_MILES = 3958.7613;

/** Great-circle miles from a point to a row's columns (haversine, as domain/loads/route.ts computes it). */
const milesFrom = (
  point: Point,
  latitude: string,
  longitude: string,
): RawBuilder<number> => sql<number>`(2 * ${EARTH_RADIUS_MILES}::float8 * asin(least(1, sqrt(
  power(sin(radians(${sql.ref(latitude)} - ${point.latitude}::float8) / 2), 2)
  + cos(radians(${point.latitude}::float8)) * cos(radians(${sql.ref(latitude)})) * power(sin(radians(${sql.ref(longitude)} - ${point.longitude}::float8) / 2), 2)))))`;

const within = (point: Point, miles: number, latitude: string, longitude: string) => {
  const box = boundingBox(point, miles);
  return sql`${sql.ref(latitude)} BETWEEN ${box.minLat}::float8 AND ${box.maxLat}::float8
    AND ${sql.ref(longitude)} BETWEEN ${box.minLon}::float8 AND ${box.maxLon}::float8
    AND ${milesFrom(point, latitude, longitude)} <= ${miles}::float8`;
};

type Band = { p25: number | null; median: number | null; p75: number | null };
type Round = (value: unknown) => number | null;
const num = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
/** Rounded to a whole number of `step`s (in cents, so 0.05 steps stay exact decimals). */
const roundedTo =
  (step: number): Round =>
  (value) => {
    const n = num(value);
    if (n === null) return null;
    const cents = Math.round(step * 100);
    return (Math.round((n * 100) / cents) * cents) / 100;
  };
const roundPrice = roundedTo(PRICE_STEP);
const roundPerMile = roundedTo(PER_MILE_STEP);
/** A figure computed from `count` agreed prices: rounded, or null below LANE_MINIMUM. */
const figure = (count: number, value: unknown, round: Round): number | null =>
  count >= LANE_MINIMUM ? round(value) : null;
const band = (count: number, p25: unknown, median: unknown, p75: unknown, round: Round): Band => ({
  p25: figure(count, p25, round),
  median: figure(count, median, round),
  p75: figure(count, p75, round),
});

export type LaneQuery = {
  origin: Point;
  destination: Point;
  radius: number;
  equipment: number | null;
  since: Date;
};
export type LaneFigures = {
  count: number;
  price: Band;
  perMile: Band;
  /** Only the months with agreed prices, oldest first. */
  months: { month: string; count: number; median: number | null }[];
};

/**
 * The agreed prices whose pickup lies within `radius` miles of `origin` and dropoff within `radius`
 * of `destination`, accepted since `since`, of loads asking for `equipment` (any when null):
 * quartiles of the price and of the price per road mile, and the median price per month, computed
 * by PostgreSQL (`percentile_cont`, interpolated), each rounded and only from LANE_MINIMUM agreed
 * prices up.
 */
export async function laneFigures(db: Kysely<DB>, query: LaneQuery): Promise<LaneFigures> {
  const lane = sql`accepted_at >= ${query.since.toISOString()}::timestamptz
    AND ${within(query.origin, query.radius, 'pickup_latitude', 'pickup_longitude')}
    AND ${within(query.destination, query.radius, 'dropoff_latitude', 'dropoff_longitude')}
    AND (${query.equipment}::int IS NULL OR ${query.equipment}::int = ANY(equipment))`;
  const {
    rows: [total],
  } = await sql<{
    count: string;
    per_mile_count: string;
    p25: unknown;
    median: unknown;
    p75: unknown;
    m25: unknown;
    m50: unknown;
    m75: unknown;
  }>`
    SELECT count(*) AS count, count(price / NULLIF(miles, 0)) AS per_mile_count,
      percentile_cont(0.25) WITHIN GROUP (ORDER BY price) AS p25,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY price) AS median,
      percentile_cont(0.75) WITHIN GROUP (ORDER BY price) AS p75,
      percentile_cont(0.25) WITHIN GROUP (ORDER BY price / NULLIF(miles, 0)) AS m25,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY price / NULLIF(miles, 0)) AS m50,
      percentile_cont(0.75) WITHIN GROUP (ORDER BY price / NULLIF(miles, 0)) AS m75
    FROM lane_rates_view WHERE ${lane}`.execute(db);
  const { rows: months } = await sql<{ month: string; count: string; median: unknown }>`
    SELECT month, count(*) AS count, percentile_cont(0.5) WITHIN GROUP (ORDER BY price) AS median
    FROM lane_rates_view WHERE ${lane} GROUP BY month ORDER BY month`.execute(db);
  const count = Number(total?.count ?? 0);
  return {
    count,
    price: band(count, total?.p25, total?.median, total?.p75, roundPrice),
    perMile: band(
      Number(total?.per_mile_count ?? 0),
      total?.m25,
      total?.m50,
      total?.m75,
      roundPerMile,
    ),
    months: months.map((row) => ({
      month: row.month,
      count: Number(row.count),
      median: figure(Number(row.count), row.median, roundPrice),
    })),
  };
}

export type TopLane = {
  origin: { city: string | null; state: string | null; latitude: number; longitude: number };
  destination: { city: string | null; state: string | null; latitude: number; longitude: number };
  count: number;
  medianPrice: number | null;
  medianPerMile: number | null;
  months: { month: string; count: number; medianPerMile: number | null }[];
};

/**
 * The busiest lanes since `since`: agreed prices grouped by the city and state of their pickup and
 * dropoff, most agreed prices first (then by name), at most `limit`; each with its median price and
 * price per mile and, per month, the median price per mile. A lane with fewer than LANE_MINIMUM
 * agreed prices is not listed at all: its name and count would point at a few known deals.
 */
export async function topLanes(db: Kysely<DB>, since: Date, limit: number): Promise<TopLane[]> {
  const { rows: lanes } = await sql<{
    pickup_city: string | null;
    pickup_state: string | null;
    dropoff_city: string | null;
    dropoff_state: string | null;
    pickup_latitude: number;
    pickup_longitude: number;
    dropoff_latitude: number;
    dropoff_longitude: number;
    count: string;
    per_mile_count: string;
    median_price: unknown;
    median_per_mile: unknown;
  }>`
    SELECT pickup_city, pickup_state, dropoff_city, dropoff_state,
      avg(pickup_latitude) AS pickup_latitude, avg(pickup_longitude) AS pickup_longitude,
      avg(dropoff_latitude) AS dropoff_latitude, avg(dropoff_longitude) AS dropoff_longitude,
      count(*) AS count, count(price / NULLIF(miles, 0)) AS per_mile_count,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY price) AS median_price,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY price / NULLIF(miles, 0)) AS median_per_mile
    FROM lane_rates_view WHERE accepted_at >= ${since.toISOString()}::timestamptz
    GROUP BY pickup_city, pickup_state, dropoff_city, dropoff_state
    HAVING count(*) >= ${LANE_MINIMUM}::int
    ORDER BY count(*) DESC, pickup_state, pickup_city, dropoff_state, dropoff_city
    LIMIT ${limit}::int`.execute(db);
  if (lanes.length === 0) return [];
  const keys = lanes.map((lane) => [
    lane.pickup_city,
    lane.pickup_state,
    lane.dropoff_city,
    lane.dropoff_state,
  ]);
  const { rows: months } = await sql<{
    lane: number;
    month: string;
    count: string;
    per_mile_count: string;
    median_per_mile: unknown;
  }>`
    SELECT k.ordinality::int AS lane, r.month, count(*) AS count, count(r.price / NULLIF(r.miles, 0)) AS per_mile_count,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY r.price / NULLIF(r.miles, 0)) AS median_per_mile
    FROM jsonb_array_elements(${JSON.stringify(keys)}::jsonb) WITH ORDINALITY AS k(key, ordinality)
    JOIN lane_rates_view r ON r.pickup_city IS NOT DISTINCT FROM k.key->>0 AND r.pickup_state IS NOT DISTINCT FROM k.key->>1
      AND r.dropoff_city IS NOT DISTINCT FROM k.key->>2 AND r.dropoff_state IS NOT DISTINCT FROM k.key->>3
    WHERE r.accepted_at >= ${since.toISOString()}::timestamptz
    GROUP BY k.ordinality, r.month ORDER BY k.ordinality, r.month`.execute(db);
  return lanes.map((lane, index) => {
    const count = Number(lane.count);
    return {
      origin: {
        city: lane.pickup_city,
        state: lane.pickup_state,
        latitude: Number(lane.pickup_latitude),
        longitude: Number(lane.pickup_longitude),
      },
      destination: {
        city: lane.dropoff_city,
        state: lane.dropoff_state,
        latitude: Number(lane.dropoff_latitude),
        longitude: Number(lane.dropoff_longitude),
      },
      count,
      medianPrice: figure(count, lane.median_price, roundPrice),
      medianPerMile: figure(Number(lane.per_mile_count), lane.median_per_mile, roundPerMile),
      months: months
        .filter((row) => row.lane === index + 1)
        .map((row) => ({
          month: row.month,
          count: Number(row.count),
          medianPerMile: figure(Number(row.per_mile_count), row.median_per_mile, roundPerMile),
        })),
    };
  });
}
