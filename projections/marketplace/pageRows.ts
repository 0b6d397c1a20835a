import { sql, type Transaction } from 'kysely';
import type { DB } from '../../storage/schema.ts';

/**
 * How the marketplace read model reads and writes a page's rows: as JSON, what `to_jsonb` reads and
 * `jsonb_populate_recordset` writes, so every column keeps its type in one statement per table.
 */

/** Every column of a table, checked against its row type: a column added to the type and not here fails to compile. */
export const columnsOf =
  <T>() =>
  <const C extends readonly (keyof T & string)[]>(
    columns: C & ([Exclude<keyof T, C[number]>] extends [never] ? unknown : 'missing columns'),
  ) =>
    columns;

export const jsonList = (values: Iterable<unknown>) => JSON.stringify([...values]);

/** The rows of `table` whose `column` is one of `ids` (uuids), as JSON. */
export async function readRows<Row>(
  trx: Transaction<DB>,
  table: keyof DB & string,
  where: { column: string; ids: Set<string> }[],
): Promise<Row[]> {
  const conditions = where
    .filter((condition) => condition.ids.size > 0)
    .map(
      ({ column, ids }) =>
        sql`t.${sql.ref(column)} = ANY(ARRAY(SELECT jsonb_array_elements_text(${jsonList(ids)}::jsonb))::uuid[])`,
    );
  if (conditions.length === 0) return [];
  const { rows } = await sql<{
    row: Row | string;
  }>`SELECT to_jsonb(t) AS row FROM ${sql.table(table)} t WHERE ${sql.join(conditions, sql` OR `)}`.execute(
    trx,
  );
  return rows.map(({ row }) => (typeof row === 'string' ? (JSON.parse(row) as Row) : row));
}

/**
 * Writes the final state of `rows` in one statement. `update` lists the columns an existing row takes
 * from the new one (all but the key for a row folded from its stored state); none: an existing row stays.
 */
export async function writeRows<Row>(
  trx: Transaction<DB>,
  table: keyof DB & string,
  key: readonly (keyof Row & string)[],
  rows: Row[],
  update: readonly (keyof Row & string)[],
) {
  if (rows.length === 0) return;
  const set = update.filter((column) => !key.includes(column));
  const conflict =
    set.length === 0
      ? sql`DO NOTHING`
      : sql`DO UPDATE SET (${sql.join(set.map((column) => sql.ref(column)))}) = ROW(${sql.join(set.map((column) => sql.ref(`excluded.${column}`)))})`;
  for (let start = 0; start < rows.length; start += 1000) {
    await sql`INSERT INTO ${sql.table(table)} SELECT * FROM jsonb_populate_recordset(NULL::${sql.table(table)}, ${JSON.stringify(rows.slice(start, start + 1000))}::jsonb)
      ON CONFLICT (${sql.join(key.map((column) => sql.ref(column)))}) ${conflict}`.execute(trx);
  }
}

/** Rows of one table by id, folded in memory: `null` for an id known to have no row; `changed` the ids to write. */
export class Rows<Row extends { id: string }> {
  readonly byId = new Map<string, Row | null>();
  readonly changed = new Set<string>();
  load(rows: Row[], wanted: Iterable<string>) {
    for (const row of rows) this.byId.set(row.id, row);
    for (const id of wanted) if (!this.byId.has(id)) this.byId.set(id, null);
  }
  get(id: string): Row | null {
    return this.byId.get(id) ?? null;
  }
  /** Changes an existing row (an UPDATE ... WHERE id: nothing when there is none). */
  update(id: string, change: Partial<Row>): Row | null {
    const row = this.get(id);
    if (!row) return null;
    Object.assign(row, change);
    this.changed.add(id);
    return row;
  }
  /** Adds a row unless one exists (INSERT ... ON CONFLICT DO NOTHING). */
  insert(row: Row) {
    if (this.get(row.id)) return;
    this.byId.set(row.id, row);
    this.changed.add(row.id);
  }
  written(): Row[] {
    return [...this.changed].map((id) => this.byId.get(id)).filter((row): row is Row => !!row);
  }
}
