/**
 * Every enumeration of the specification (section 3 and the constants of sections 2 and 9), with
 * ids, names and chip colours. `buildCatalog(nowIso)` is the answer of GET /api/catalog.
 */
import {
  accessories,
  limits,
  loadTypes,
  locationTypes,
  pageSizes,
  searchRadii,
  tableActions,
  valueBands,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SEARCH_RADIUS,
} from './catalog/loads.ts';
import { chipColors } from './catalog/colors.ts';
import { ratingCriteria } from './catalog/ratings.ts';
import { roles, organizationTypes } from './catalog/roles.ts';
import {
  genericStatuses,
  shipmentStatuses,
  tourStatuses,
  userListStatuses,
  userStatuses,
} from './catalog/statuses.ts';
import { timeZones, timeZonesAt, type TimeZoneAt } from './catalog/timeZones.ts';
import { driverTeams, equipmentGroups, trailerTypes, truckTypes } from './catalog/vehicles.ts';
import { permissions } from './permissions.ts';

export * from './catalog/colors.ts';
export * from './catalog/loads.ts';
export * from './catalog/lookup.ts';
export * from './catalog/ratings.ts';
export * from './catalog/roles.ts';
export * from './catalog/statuses.ts';
export * from './catalog/timeZones.ts';
export * from './catalog/vehicles.ts';

/** The enumerations that do not depend on the date; time zones without abbreviation and offset. */
export const catalog = {
  truckTypes,
  driverTeams,
  trailerTypes,
  equipmentGroups,
  loadTypes,
  locationTypes,
  accessories,
  valueBands,
  genericStatuses,
  userStatuses,
  userListStatuses,
  tourStatuses,
  shipmentStatuses,
  chipColors,
  timeZones,
  ratingCriteria,
  tableActions,
  searchRadii,
  defaultSearchRadius: DEFAULT_SEARCH_RADIUS,
  pageSizes,
  defaultPageSize: DEFAULT_PAGE_SIZE,
  roles,
  organizationTypes,
  permissions,
  limits,
} as const;

export type Catalog = Omit<typeof catalog, 'timeZones'> & {
  /** The instant the time zones' abbreviations and offsets hold for. */
  readonly asOf: string;
  readonly timeZones: readonly TimeZoneAt[];
};

/** The answer of GET /api/catalog, with each zone's abbreviation and offset at `nowIso`. */
export const buildCatalog = (nowIso: string): Catalog => ({
  ...catalog,
  asOf: nowIso,
  timeZones: timeZonesAt(nowIso),
});
