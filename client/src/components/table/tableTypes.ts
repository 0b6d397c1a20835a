import type { ReactNode } from 'react';
import type { TableAnswer, TableQueryState, TableRow } from '../../api/table.ts';
import type { FilterOption } from '../FilterDropdown.tsx';

export interface TableColumn<Row extends TableRow> {
  field: string;
  header: string;
  sortable?: boolean;
  body?: (row: Row) => ReactNode;
  /** Numbers, prices and times line up with tabular figures. */
  numeric?: boolean;
}

export interface TableFilter {
  name: string;
  label: string;
  allLabel?: string;
  options: FilterOption[];
}

export interface RowAction<Row extends TableRow> {
  id: number;
  icon: string;
  label: string;
  onClick: (row: Row) => void;
  severity?: 'secondary' | 'success' | 'info' | 'warning' | 'danger' | 'help' | 'contrast';
}

/**
 * What a screen may do to the rows it shows without reading them again: apply a row the realtime
 * channel pushed. `update` gets the current page and the query it answers (search, filters, page)
 * and returns the page to show.
 */
export interface TableHandle<Row extends TableRow> {
  update(change: (answer: TableAnswer<Row>, query: TableQueryState) => TableAnswer<Row>): void;
  /** The rows shown now (null before the first answer). */
  rows(): Row[] | null;
}
