/**
 * POST loads/batchImport and GET loads/batchImport/template: one load per CSV row, a pickup
 * and a dropoff each. Every row is checked with the same rules as the load form (`loadBodySchema`);
 * the import is all or nothing, and each error names the file's line and the CSV column.
 */
import { parse } from 'csv-parse/sync';
import { DateTime } from 'luxon';
import {
  accessories,
  loadTypes,
  timeZones,
  trailerTypes,
  type Entry,
  type TimeZoneId,
} from '../../../domain/catalog.ts';
import { loadBodySchema, type LoadBody } from '../../../domain/schemas/load.schema.ts';

export const LOADS_CSV_COLUMNS = [
  'pickupStart',
  'pickupEnd',
  'pickupTimezone',
  'pickupFacility',
  'pickupAddress',
  'pickupContactName',
  'pickupContactPhone',
  'pickupNumber',
  'dropoffStart',
  'dropoffEnd',
  'dropoffTimezone',
  'dropoffFacility',
  'dropoffAddress',
  'dropoffContactName',
  'dropoffContactPhone',
  'dropoffNumber',
  'expiration',
  'expirationTimezone',
  'loadType',
  'equipment',
  'accessories',
  'weight',
  'commodity',
  'refNumber',
  'description',
] as const;
export type LoadsCsvColumn = (typeof LOADS_CSV_COLUMNS)[number];

export const LOADS_CSV_DEFAULT_MAX_ROWS = 5000;
export const LOADS_CSV_MAX_ERRORS = 1000;
/** Separates several equipment or accessory ids or names in one cell. */
export const LOADS_CSV_LIST_SEPARATOR = ';';

export const LOADS_CSV_INVALID_MESSAGE = 'The file has errors; no load was imported';
export const LOADS_CSV_EMPTY_MESSAGE = 'The file has no loads';
export const loadsCsvTooManyRowsMessage = (maxRows: number) =>
  `The file has more than ${maxRows} loads; import at most ${maxRows} loads at a time`;

export type GeocodedPlace = {
  address: string;
  latitude: number;
  longitude: number;
  city: string | null;
  state: string | null;
};
export type LoadsCsvOptions = {
  /** The instant the rows are checked at (no load may start or expire before it). */
  now: string;
  /** A US place for an address as typed, or null when unknown. */
  geocode: (query: string) => GeocodedPlace | null;
  maxRows?: number;
};
/** `row` is the file's line where the record starts (the header is 1); `field` a column name, 'header' or 'file'. */
export type LoadsCsvError = { row: number; field: string; message: string };
export type LoadsCsvResult =
  | { ok: true; loads: LoadBody[] }
  | { ok: false; message: string; errors: LoadsCsvError[] };

// Reading a row

type Row = Record<LoadsCsvColumn, string>;

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
const toLoadBody = (row: Row, geocode: (query: string) => GeocodedPlace | null) => ({
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
const columnOf = (path: readonly PropertyKey[]): string => {
  const [first, index, field] = path;
  if (first === 'locations' && typeof index === 'number') {
    return `${index === 0 ? 'pickup' : 'dropoff'}${stopFieldColumns[String(field)] ?? 'Address'}`;
  }
  return bodyFieldColumns[String(first)] ?? path.map(String).join('.');
};

// Reading the file

type CsvRecord = { cells: string[]; line: number };

/** The non-empty records with the line each starts on (a quoted cell may span lines). */
const readRecords = (content: Buffer | string): CsvRecord[] => {
  const parsed = parse(content, {
    bom: true,
    raw: true,
    relax_column_count: true,
    trim: true,
  }) as unknown as { record: string[]; raw: string }[];
  const records: CsvRecord[] = [];
  let line = 1;
  for (const { record, raw } of parsed) {
    const cells = record.map((cell) => cell.trim());
    if (cells.some((cell) => cell !== '')) records.push({ cells, line });
    const newlines = raw.split('\n').length - 1 - (raw.endsWith('\n') ? 1 : 0);
    line += newlines + 1;
  }
  return records;
};

const failure = (message: string, errors: LoadsCsvError[]): LoadsCsvResult => ({
  ok: false,
  message,
  errors,
});

/**
 * The column of each cell (null for a cell of a blank header, as spreadsheets add at the end), or an
 * error naming the unknown, missing and repeated columns.
 */
const readHeader = (
  header: CsvRecord,
): { columns: (LoadsCsvColumn | null)[] } | { error: LoadsCsvError } => {
  const known = new Map(LOADS_CSV_COLUMNS.map((column) => [column.toLowerCase(), column]));
  const columns = header.cells.map((cell) => (cell === '' ? null : known.get(cell.toLowerCase())));
  const unknown = header.cells.filter((_, index) => columns[index] === undefined);
  const missing = LOADS_CSV_COLUMNS.filter((column) => !columns.includes(column));
  const repeated = LOADS_CSV_COLUMNS.filter(
    (column) => columns.filter((found) => found === column).length > 1,
  );
  if (unknown.length === 0 && missing.length === 0 && repeated.length === 0)
    return { columns: columns as (LoadsCsvColumn | null)[] };
  const problems = [
    unknown.length ? `unknown columns: ${unknown.join(', ')}` : '',
    missing.length ? `missing columns: ${missing.join(', ')}` : '',
    repeated.length ? `repeated columns: ${repeated.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return {
    error: {
      row: header.line,
      field: 'header',
      message: `The header must name the columns ${LOADS_CSV_COLUMNS.join(', ')} (${problems})`,
    },
  };
};

/**
 * Reads a batch of loads. All or nothing: any invalid row gives `ok: false` with every row's errors
 * (at most LOADS_CSV_MAX_ERRORS), and no load.
 */
export const parseLoadsCsv = (
  content: Buffer | string,
  options: LoadsCsvOptions,
): LoadsCsvResult => {
  const maxRows = options.maxRows ?? LOADS_CSV_DEFAULT_MAX_ROWS;
  let records: CsvRecord[];
  try {
    records = readRecords(content);
  } catch (error) {
    const line = (error as { lines?: unknown }).lines;
    return failure(LOADS_CSV_INVALID_MESSAGE, [
      {
        row: typeof line === 'number' && line > 0 ? line : 1,
        field: 'file',
        message: `The file is not a valid CSV: ${(error as Error).message}`,
      },
    ]);
  }
  const [header, ...rows] = records;
  if (!header)
    return failure(LOADS_CSV_EMPTY_MESSAGE, [
      { row: 1, field: 'file', message: LOADS_CSV_EMPTY_MESSAGE },
    ]);
  const headerResult = readHeader(header);
  if ('error' in headerResult) return failure(LOADS_CSV_INVALID_MESSAGE, [headerResult.error]);
  if (rows.length === 0)
    return failure(LOADS_CSV_EMPTY_MESSAGE, [
      { row: header.line + 1, field: 'file', message: LOADS_CSV_EMPTY_MESSAGE },
    ]);
  if (rows.length > maxRows) {
    const message = loadsCsvTooManyRowsMessage(maxRows);
    return failure(message, [{ row: rows[maxRows].line, field: 'file', message }]);
  }

  const schema = loadBodySchema(options.now);
  const places = new Map<string, GeocodedPlace | null>();
  const geocode = (query: string): GeocodedPlace | null => {
    const key = query.toLowerCase();
    if (!places.has(key)) places.set(key, options.geocode(query));
    return places.get(key) ?? null;
  };
  const loads: LoadBody[] = [];
  const errors: LoadsCsvError[] = [];
  for (const { cells, line } of rows) {
    if (errors.length >= LOADS_CSV_MAX_ERRORS) break;
    const rowErrors = new Map<string, LoadsCsvError>();
    if (cells.slice(headerResult.columns.length).some((cell) => cell !== '')) {
      rowErrors.set('row', {
        row: line,
        field: 'row',
        message: `This row has more cells than the header's ${headerResult.columns.length} columns`,
      });
    }
    const row = {} as Row;
    headerResult.columns.forEach((column, index) => {
      if (column) row[column] = cells[index] ?? '';
    });
    const result = schema.safeParse(toLoadBody(row, geocode));
    if (result.success) loads.push(result.data);
    else {
      for (const issue of result.error.issues) {
        const field = columnOf(issue.path);
        rowErrors.set(`${field}\n${issue.message}`, { row: line, field, message: issue.message });
      }
    }
    errors.push(...rowErrors.values());
  }
  if (errors.length > 0)
    return failure(LOADS_CSV_INVALID_MESSAGE, errors.slice(0, LOADS_CSV_MAX_ERRORS));
  return { ok: true, loads };
};

// The template

const cell = (value: string): string =>
  /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
const toCsvLine = (values: readonly string[]): string => values.map(cell).join(',');

/** The header and one example row that is valid at `nowIso`: a load from Chicago to Indianapolis a few days ahead. */
export const loadsCsvTemplate = (nowIso: string): string => {
  const now = DateTime.fromISO(nowIso, { setZone: true });
  const local = (zoneId: TimeZoneId, days: number, hour: number) =>
    now
      .setZone(zoneId)
      .plus({ days })
      .set({ hour, minute: 0, second: 0, millisecond: 0 })
      .toFormat('MM/dd/yyyy hh:mm a', { locale: 'en-US' });
  const example: Row = {
    pickupStart: local('America/Chicago', 3, 8),
    pickupEnd: local('America/Chicago', 3, 10),
    pickupTimezone: 'America/Chicago',
    pickupFacility: 'Acme Distribution Center',
    pickupAddress: 'Chicago, IL',
    pickupContactName: 'Ann Lee',
    pickupContactPhone: '(312) 555-0100',
    pickupNumber: 'PU-1001',
    dropoffStart: local('America/New_York', 4, 9),
    dropoffEnd: local('America/New_York', 4, 13),
    dropoffTimezone: 'America/New_York',
    dropoffFacility: 'Beta Foods Warehouse',
    dropoffAddress: 'Indianapolis, IN',
    dropoffContactName: 'Sam Ortiz',
    dropoffContactPhone: '317-555-0199',
    dropoffNumber: 'DO-2002',
    expiration: local('America/Chicago', 2, 17),
    expirationTimezone: 'America/Chicago',
    loadType: 'FTL',
    equipment: '53 ft Reefer',
    accessories: 'Liftgate;Driver Assist',
    weight: '42000',
    commodity: 'Frozen food',
    refNumber: 'PO-10045',
    description: 'Call 30 minutes before arrival, dock 4',
  };
  return `${toCsvLine(LOADS_CSV_COLUMNS)}\r\n${toCsvLine(LOADS_CSV_COLUMNS.map((column) => example[column]))}\r\n`;
};
