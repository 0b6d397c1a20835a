/**
 * One page of a table as the table protocol (server/http/table.ts) asks for it, once checked: the
 * SQL column to order by (always one of the read model's own `…_ORDER` columns), the direction, the
 * rows to skip and to take, and the search as an ILIKE pattern (null: no search).
 */
export type TablePage = {
  column: string;
  direction: 'ASC' | 'DESC';
  limit: number;
  offset: number;
  pattern: string | null;
};

export const orderDirection = (page: TablePage) =>
  (page.direction === 'ASC' ? 'asc' : 'desc') as 'asc' | 'desc';
