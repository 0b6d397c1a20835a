import { apiGet } from '../../api/http.ts';
import type { LaneRates, TopLanes } from '../../../../domain/contracts/laneRates.contract.ts';

export type {
  LaneRates,
  TopLane,
  TopLanes,
} from '../../../../domain/contracts/laneRates.contract.ts';

export type LanePoint = { latitude: number; longitude: number };

/** The lane's query string: both ends as `<latitude>,<longitude>`, 100 miles around each, one trailer type if given. */
export const laneQuery = (
  origin: LanePoint,
  destination: LanePoint,
  equipment: number | null,
  months = 12,
): string => {
  const params = new URLSearchParams({
    origin: `${origin.latitude},${origin.longitude}`,
    destination: `${destination.latitude},${destination.longitude}`,
    radius: '100',
    months: String(months),
  });
  if (equipment !== null) params.set('equipment', String(equipment));
  return params.toString();
};

export const laneRatesApi = {
  lane: (
    origin: LanePoint,
    destination: LanePoint,
    equipment: number | null,
    signal?: AbortSignal,
  ) =>
    apiGet<LaneRates>(`/insights/lanes?${laneQuery(origin, destination, equipment)}`, { signal }),
  top: (months = 12, signal?: AbortSignal) =>
    apiGet<TopLanes>(`/insights/lanes/top?months=${months}`, { signal }),
};
