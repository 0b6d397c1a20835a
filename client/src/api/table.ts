import type { TableAnswer as ContractTableAnswer } from '../../../domain/contracts/common.ts';
import { apiGet } from './http.ts';

export type SortDirection = 'ASC' | 'DESC';

/** What a table screen holds: the page is 0-based here and sent 1-based (docs/api.md "Table protocol"). */
export interface TableQueryState {
  page: number;
  pageSize: number;
  search?: string;
  order?: { column: string; direction: SortDirection } | null;
  /** Filter name to its value or values; empty values and 0 are dropped before the request. */
  filters?: Record<string, unknown>;
  columns?: string[];
}

export interface TableRow {
  id: string | number;
  status?: number | string | null;
  statusName?: string | null;
  actions?: number[];
  [column: string]: unknown;
}

/** A page of a table (the contract's type) with rows of `Row`. */
export type TableAnswer<Row extends TableRow = TableRow> = ContractTableAnswer<Row>;

const isEmptyValue = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  value === 0 ||
  value === '0' ||
  (Array.isArray(value) && value.length === 0);

/** The filters to send: each value as a list, empty and 0 values dropped, then filters left with nothing dropped. */
export function activeFilters(
  filters: Record<string, unknown> = {},
): { name: string; value: unknown[] }[] {
  return Object.entries(filters)
    .map(([name, value]) => ({
      name,
      value: (Array.isArray(value) ? value : [value]).filter((item) => !isEmptyValue(item)),
    }))
    .filter((filter) => filter.value.length > 0);
}

/** `page=1&pageSize=10&search=…&order=…&filters=…&columns=…` for a table URL. */
export function tableQueryString(state: TableQueryState): string {
  const params = new URLSearchParams();
  params.set('page', String(Math.max(0, state.page) + 1));
  params.set('pageSize', String(state.pageSize));
  const search = state.search?.trim();
  if (search) params.set('search', search);
  if (state.order) params.set('order', JSON.stringify(state.order));
  const filters = activeFilters(state.filters);
  if (filters.length > 0) params.set('filters', JSON.stringify(filters));
  if (state.columns?.length) params.set('columns', JSON.stringify(state.columns));
  return params.toString();
}

export function fetchTable<Row extends TableRow = TableRow>(
  url: string,
  state: TableQueryState,
  signal?: AbortSignal,
): Promise<TableAnswer<Row>> {
  const separator = url.includes('?') ? '&' : '?';
  return apiGet<TableAnswer<Row>>(`${url}${separator}${tableQueryString(state)}`, { signal });
}
