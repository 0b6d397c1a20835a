import type { TableRow } from '../../api/table.ts';
import type { RowAction } from './tableTypes.ts';

const isCanceled = (row: TableRow): boolean =>
  (typeof row.statusName === 'string' && row.statusName.toLowerCase() === 'canceled') ||
  row.status === 'Canceled';

/**
 * The actions a row shows: those the server lists for it (all when it lists none), and a Canceled
 * row hides the table's first two actions.
 */
export function visibleActions<Row extends TableRow>(
  actions: RowAction<Row>[],
  row: Row,
): RowAction<Row>[] {
  const firstTwo = new Set(actions.slice(0, 2).map((action) => action.id));
  return actions.filter(
    (action) =>
      (!row.actions || row.actions.includes(action.id)) &&
      !(isCanceled(row) && firstTwo.has(action.id)),
  );
}
