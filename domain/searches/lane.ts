/**
 * Whether a load lies on a saved search's lane: its first stop within the origin circle, its last
 * stop within the destination circle, and one of its trailer types among the search's equipment.
 * An absent criterion matches every load.
 */
import { haversineMiles, type Point } from '../loads/route.ts';
import type { SearchArea, SearchCriteria } from './savedSearch.types.ts';

/** The part of a load a lane looks at: its stops in route order and its trailer types. */
export type LaneLoad = { stops: readonly Point[]; equipment: readonly number[] };

const within = (area: SearchArea | undefined, point: Point | undefined): boolean =>
  !area || (point !== undefined && haversineMiles(area, point) <= area.radius);

export const matchesLane = (search: SearchCriteria, load: LaneLoad): boolean =>
  within(search.origin, load.stops[0]) &&
  within(search.destination, load.stops[load.stops.length - 1]) &&
  (!search.equipment?.length || search.equipment.some((id) => load.equipment.includes(id)));
