import { z } from 'zod';
import { pageSizes, tableActions } from '../../domain/catalog.ts';
import { saneInstantOf, saneTimeMessage } from '../../domain/schemas/saneTime.ts';
import { ValidationError } from '../../domain/shared/errors.ts';
import type { TablePage } from '../../projections/tablePage.ts';
import type { TableAnswer } from '../../domain/contracts/common.ts';

/**
 * The one query protocol every list screen uses (docs/api.md "Table protocol"):
 * `?page=1&pageSize=10&search=…&order={"column","direction"}&filters=[{"name","value":[…]}]&columns=[…]`.
 */
const json = <T extends z.ZodType>(schema: T, label: string) =>
  z
    .string()
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: `${label} must be JSON` });
        return z.NEVER;
      }
    })
    .pipe(schema);

const Filter = z.object({ name: z.string().min(1).max(50), value: z.array(z.unknown()).max(100) });

/** A whole number in a query string: digits only ('1.5', '1e3', '0x10' are refused), from `min` to `max`. */
export const queryWholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, `${name} must be a whole number from ${min} to ${max}`)
        .max(max, `${name} must be a whole number from ${min} to ${max}`),
    );

export const TableQuery = z.object({
  page: queryWholeNumber('page', 1, 100_000).default(1),
  pageSize: queryWholeNumber('pageSize', 1, 100).default(pageSizes[1] ?? 10),
  search: z.string().trim().max(200, 'search is at most 200 characters').optional(),
  order: json(
    z.object({
      column: z.string().min(1).max(50),
      direction: z
        .enum(['ASC', 'DESC', 'asc', 'desc'])
        .transform((d) => d.toUpperCase() as 'ASC' | 'DESC'),
    }),
    'order',
  ).optional(),
  filters: json(z.array(Filter).max(20), 'filters').optional(),
  columns: json(z.array(z.string().max(50)).max(50), 'columns').optional(),
});
export type TableQuery = z.infer<typeof TableQuery>;

/** A filter whose value is empty or 0 is ignored, as the client also drops it. */
export function activeFilters(query: TableQuery): Map<string, unknown[]> {
  const result = new Map<string, unknown[]>();
  for (const filter of query.filters ?? []) {
    const values = filter.value.filter(
      (value) =>
        value !== 0 && value !== '0' && value !== '' && value !== null && value !== undefined,
    );
    if (values.length > 0) result.set(filter.name, values);
  }
  return result;
}

export type { TableAnswer };

export function tableAnswer<Row extends Record<string, unknown>>(
  query: TableQuery,
  total: number,
  rows: Row[],
  actions: { id: number; name: string }[],
): TableAnswer<Row> {
  const data = query.columns?.length
    ? rows.map(
        (row) =>
          Object.fromEntries(
            Object.entries(row).filter(([key]) =>
              ['id', 'status', 'statusName', 'actions', ...query.columns!].includes(key),
            ),
          ) as Row,
      )
    : rows;
  return {
    page: query.page,
    pageSize: query.pageSize,
    total,
    totalPages: Math.ceil(total / query.pageSize),
    data,
    actions,
  };
}

export const TableAnswerSchema = z.object({
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
  totalPages: z.number(),
  data: z.array(z.record(z.string(), z.unknown())),
  actions: z.array(z.object({ id: z.number(), name: z.string() })),
});

/** Escapes LIKE wildcards so a search for "50%" finds "50%", not everything. */
export const likePattern = (search: string) =>
  `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** The largest value of a PostgreSQL integer: a filter beyond it fails in SQL. */
const INT_MAX = 2_147_483_647;

/** A JSON number or a text of digits that is a whole number within a PostgreSQL integer; null otherwise. */
const wholeNumberOf = (value: unknown): number | null => {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^-?\d{1,10}$/.test(value.trim())
        ? Number(value.trim())
        : Number.NaN;
  return Number.isSafeInteger(number) && Math.abs(number) <= INT_MAX ? number : null;
};

/**
 * The ids of a filter as whole numbers among `allowed` (null: any integer a PostgreSQL column holds);
 * anything else ('1.5', 2147483648, 1e308, true, [2]) is a 400 naming `filters` and the filter.
 */
export function numbersOf(
  values: unknown[] | undefined,
  allowed: readonly number[] | null,
  name: string,
): number[] | null {
  if (!values) return null;
  const numbers = values.map(wholeNumberOf);
  if (numbers.some((value) => value === null || (allowed !== null && !allowed.includes(value)))) {
    throw ValidationError.field('filters', `Unknown ${name} in the ${name} filter`);
  }
  return numbers as number[];
}

/** A filter's first value as a date and time in 1970..2100 (ISO instant in UTC); anything else is a 400 naming `filters` and the filter. */
export function instantOf(values: unknown[] | undefined, name: string): string | null {
  if (!values) return null;
  const instant = saneInstantOf(values[0]);
  if (instant === null) throw ValidationError.field('filters', saneTimeMessage(name));
  return instant;
}

/** A filter's first value as a JSON number (or a decimal text) from `min` to `max`; anything else is a 400 naming `filters` and the filter. */
export function numberOf(
  values: unknown[] | undefined,
  name: string,
  min: number,
  max: number,
): number | null {
  if (!values) return null;
  const value = values[0];
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,12}(\.\d{1,6})?$/.test(value.trim())
        ? Number(value.trim())
        : Number.NaN;
  if (!(Number.isFinite(number) && number >= min && number <= max))
    throw ValidationError.field(
      'filters',
      `${name} must be a number from ${min} to ${max.toLocaleString('en-US')}`,
    );
  return number;
}

/** The SQL column of the requested order among the documented ones; anything else is a 400 naming `order`. */
export function orderOf(
  query: TableQuery,
  columns: Record<string, string>,
  fallback: string,
  direction: 'ASC' | 'DESC' = 'DESC',
): { column: string; direction: 'ASC' | 'DESC' } {
  if (!query.order) return { column: fallback, direction };
  const column = Object.hasOwn(columns, query.order.column)
    ? columns[query.order.column]
    : undefined;
  if (!column)
    throw ValidationError.field(
      'order',
      `Cannot order by ${query.order.column}; one of ${Object.keys(columns).join(', ')}`,
    );
  return { column, direction: query.order.direction };
}

/** The page a table query asks for, in the order `orderOf` checked: what a read model's page query takes. */
export const pageOf = (
  query: TableQuery,
  order: { column: string; direction: 'ASC' | 'DESC' },
): TablePage => ({
  column: order.column,
  direction: order.direction,
  limit: query.pageSize,
  offset: (query.page - 1) * query.pageSize,
  pattern: query.search ? likePattern(query.search) : null,
});

/** The action list of a table answer: every action id the rows may carry, with its name. */
export const actionsNamed = (ids: readonly number[]) =>
  ids.map((id) => ({
    id,
    name: tableActions.find((action) => action.id === id)?.name ?? String(id),
  }));
