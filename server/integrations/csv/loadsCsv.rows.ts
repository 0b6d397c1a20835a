/** What a row of the loads CSV stands for: its load body, and the column each of its errors names. */
import {
  accessories,
  loadTypes,
  timeZones,
  trailerTypes,
  type Entry,
  type TimeZoneId,
} from '../../../domain/catalog.ts';
import {
  type GeocodedPlace,
  LOADS_CSV_LIST_SEPARATOR,
  type LoadsCsvColumn,
  type Row,
} from './loadsCsv.columns.ts';

const byName = (list: readonly Entry[]) =>
  new Map(list.map((entry) => [entry.name.toLowerCase(), entry.id]));
const trailerTypeIds = byName(trailerTypes);
const accessoryIds = byName(accessories);
const loadTypeIds = byName(loadTypes);
const zoneIds = new Map<string, TimeZoneId>(
  timeZones.flatMap((zone) => [
    [zone.id.toLowerCase(), zone.id],
    [zone.name.toLowerCase(), zone.id],
  ]),
);

/** An id, or the name of an entry; anything else is passed on for the schema to refuse. */
const idOrName = (names: Map<string, number>, cell: string): number | string =>
  /^\d+$/.test(cell) ? Number(cell) : (names.get(cell.toLowerCase()) ?? cell);
const idList = (names: Map<string, number>, cell: string) =>
  cell
    .split(LOADS_CSV_LIST_SEPARATOR)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => idOrName(names, part));
const zone = (cell: string): string => zoneIds.get(cell.toLowerCase()) ?? cell;
// "42,000" is how a spreadsheet shows a weight.
const weight = (cell: string): string =>
  /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(cell) ? cell.replaceAll(',', '') : cell;

const stop = (
  row: Row,
  side: 'pickup' | 'dropoff',
  locationType: 1 | 4,
  geocode: (query: string) => GeocodedPlace | null,
) => {
  const typed = row[`${side}Address`];
  // An unknown place keeps its text without coordinates: the schema then says it was not found.
  const place = typed ? geocode(typed) : null;
  return {
    locationType,
    address: place?.address ?? typed,
    latitude: place?.latitude ?? 0,
    longitude: place?.longitude ?? 0,
    city: place?.city ?? null,
    state: place?.state ?? null,
    name: row[`${side}Facility`],
    contactName: row[`${side}ContactName`],
    contactPhone: row[`${side}ContactPhone`],
    number: row[`${side}Number`],
  };
};

/** The load body (specification section 3 names) a row stands for. */
export const toLoadBody = (row: Row, geocode: (query: string) => GeocodedPlace | null) => ({
  pickupTimestampStart: row.pickupStart,
  pickupTimestampEnd: row.pickupEnd,
  pickupTimezone: zone(row.pickupTimezone),
  dropOffTimestampStart: row.dropoffStart,
  dropOffTimestampEnd: row.dropoffEnd,
  dropoffTimezone: zone(row.dropoffTimezone),
  expiration: row.expiration,
  expirationTimezone: zone(row.expirationTimezone),
  loadTypeId: idOrName(loadTypeIds, row.loadType),
  loadEquipment: idList(trailerTypeIds, row.equipment),
  loadAccessories: idList(accessoryIds, row.accessories),
  weight: weight(row.weight),
  commodity: row.commodity,
  refNumber: row.refNumber,
  description: row.description,
  locations: [stop(row, 'pickup', 1, geocode), stop(row, 'dropoff', 4, geocode)],
});

const bodyFieldColumns: Readonly<Record<string, LoadsCsvColumn>> = {
  pickupTimestampStart: 'pickupStart',
  pickupTimestampEnd: 'pickupEnd',
  pickupTimezone: 'pickupTimezone',
  dropOffTimestampStart: 'dropoffStart',
  dropOffTimestampEnd: 'dropoffEnd',
  dropoffTimezone: 'dropoffTimezone',
  expiration: 'expiration',
  expirationTimezone: 'expirationTimezone',
  loadTypeId: 'loadType',
  loadEquipment: 'equipment',
  loadAccessories: 'accessories',
  weight: 'weight',
  commodity: 'commodity',
  refNumber: 'refNumber',
  description: 'description',
};
const stopFieldColumns: Readonly<Record<string, string>> = {
  name: 'Facility',
  contactName: 'ContactName',
  contactPhone: 'ContactPhone',
  number: 'Number',
};

/** The CSV column an error of the load body belongs to. */
export const columnOf = (path: readonly PropertyKey[]): string => {
  const [first, index, field] = path;
  if (first === 'locations' && typeof index === 'number') {
    return `${index === 0 ? 'pickup' : 'dropoff'}${stopFieldColumns[String(field)] ?? 'Address'}`;
  }
  return bodyFieldColumns[String(first)] ?? path.map(String).join('.');
};

// Reading the file
