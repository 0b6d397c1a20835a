import {
  laneRatesAnswers,
  LaneQuerySchema,
  parsePoint,
  TopLanesQuerySchema,
} from '../../domain/contracts/laneRates.contract.ts';
import { LOADS_CARRIER, LOADS_SHIPPER } from '../../domain/permissions.ts';
import { laneFigures, topLanes } from '../../projections/laneRates/laneRates.queries.ts';
import { can } from '../http/auth.ts';
import type { App } from '../http/routeContext.ts';

/** The months of a window ending with the current one (UTC), oldest first, and the instant it starts. */
export function monthWindow(months: number, now = new Date()): { since: Date; months: string[] } {
  const list: string[] = [];
  for (let back = months - 1; back >= 0; back--) {
    list.push(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1))
        .toISOString()
        .slice(0, 7),
    );
  }
  return {
    since: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (months - 1), 1)),
    months: list,
  };
}

/**
 * Lane rates from the agreed prices of accepted offers (`laneRates` read model), market-wide and
 * anonymous: figures only where at least five agreed prices stand behind them, rounded (prices to
 * $25, per mile to $0.05), and a lane with fewer is not among the busiest. For the shipper and
 * carrier users of Active organizations and the Superadmin; drivers hold neither code.
 */
export async function laneRatesRoutes(app: App) {
  const { db } = app.platform.database;

  app.get(
    '/insights/lanes',
    {
      schema: {
        tags: ['insights'],
        summary:
          'The typical agreed price on a lane: quartiles of the price and of the price per mile, and the median per month (figures need 5 agreed prices; prices to the nearest $25, per mile to $0.05)',
        querystring: LaneQuerySchema,
        response: laneRatesAnswers.lanes,
      },
      onRequest: can(LOADS_SHIPPER, LOADS_CARRIER),
    },
    async (request) => {
      const query = request.query;
      const window = monthWindow(query.months);
      const figures = await laneFigures(db, {
        origin: parsePoint(query.origin)!,
        destination: parsePoint(query.destination)!,
        radius: query.radius,
        equipment: query.equipment ?? null,
        since: window.since,
      });
      const byMonth = new Map(figures.months.map((month) => [month.month, month]));
      return {
        count: figures.count,
        price: figures.price,
        perMile: figures.perMile,
        series: window.months.map(
          (month) => byMonth.get(month) ?? { month, count: 0, median: null },
        ),
      };
    },
  );

  app.get(
    '/insights/lanes/top',
    {
      schema: {
        tags: ['insights'],
        summary:
          'The busiest lanes (by city and state of pickup and dropoff, only those with 5 agreed prices or more) with their median price per mile per month',
        querystring: TopLanesQuerySchema,
        response: laneRatesAnswers.top,
      },
      onRequest: can(LOADS_SHIPPER, LOADS_CARRIER),
    },
    async (request) => {
      const window = monthWindow(request.query.months);
      const lanes = await topLanes(db, window.since, request.query.limit);
      return {
        months: window.months,
        lanes: lanes.map(({ months, ...lane }) => {
          const byMonth = new Map(months.map((month) => [month.month, month]));
          return {
            ...lane,
            series: window.months.map(
              (month) => byMonth.get(month) ?? { month, count: 0, medianPerMile: null },
            ),
          };
        }),
      };
    },
  );
}
