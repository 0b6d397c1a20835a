/**
 * POST loads/batchImport and GET loads/batchImport/template: one load per CSV row, a pickup
 * and a dropoff each. Every row is checked with the same rules as the load form (`loadBodySchema`);
 * the import is all or nothing, and each error names the file's line and the CSV column.
 */
import { parse } from 'csv-parse/sync';
import { loadBodySchema, type LoadBody } from '../../../domain/schemas/load.schema.ts';
import {
  type GeocodedPlace,
  LOADS_CSV_COLUMNS,
  LOADS_CSV_DEFAULT_MAX_ROWS,
  LOADS_CSV_EMPTY_MESSAGE,
  LOADS_CSV_INVALID_MESSAGE,
  LOADS_CSV_MAX_ERRORS,
  type LoadsCsvColumn,
  type LoadsCsvError,
  type LoadsCsvOptions,
  type LoadsCsvResult,
  loadsCsvTooManyRowsMessage,
  type Row,
} from './loadsCsv.columns.ts';
import { columnOf, toLoadBody } from './loadsCsv.rows.ts';

export {
  type GeocodedPlace,
  LOADS_CSV_COLUMNS,
  LOADS_CSV_DEFAULT_MAX_ROWS,
  LOADS_CSV_EMPTY_MESSAGE,
  LOADS_CSV_INVALID_MESSAGE,
  LOADS_CSV_LIST_SEPARATOR,
  LOADS_CSV_MAX_ERRORS,
  type LoadsCsvColumn,
  type LoadsCsvError,
  type LoadsCsvOptions,
  type LoadsCsvResult,
  loadsCsvTooManyRowsMessage,
} from './loadsCsv.columns.ts';
export { loadsCsvTemplate } from './loadsCsv.template.ts';

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
