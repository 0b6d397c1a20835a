import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { AnyEvent } from '../domain/shared/event.ts';
import type { Database } from '../storage/connection.ts';
import type { RecordedEvent } from '../storage/eventStore.ts';
import type { Projection } from './projection.ts';

/** An event as a spec writes it: the domain's event and the stream it goes to. */
export type SpecEvent = AnyEvent & { streamId: string };

/** A row as a spec compares it: timestamps as ISO strings, everything else as the driver reads it. */
export type SpecRow = Record<string, unknown>;

/** A migrated database a spec may empty and fill (a test database: `openTestDatabase`). */
export type SpecDatabase = Database & { drop(): Promise<void> };

/** What a spec expects to read once the events are applied. */
export type Given = {
  /**
   * The rows of `table`, in any order, each compared on the columns the expected rows name (every
   * expected row names the same ones); no more rows, no fewer.
   */
  expectRows(table: string, expected: readonly SpecRow[]): Promise<void>;
  /** Every row of `table`, every column, in no particular order. */
  rows(table: string): Promise<SpecRow[]>;
};

const normalize = (row: SpecRow): SpecRow =>
  Object.fromEntries(
    Object.entries(row).map(([column, value]) => [
      column,
      value instanceof Date ? value.toISOString() : value,
    ]),
  );

const sorted = (rows: readonly SpecRow[]) =>
  [...rows].sort((a, b) => {
    const left = JSON.stringify(a);
    const right = JSON.stringify(b);
    return left < right ? -1 : left > right ? 1 : 0;
  });

/** The events as the log hands them over: ids, 0-based revisions per stream, ascending positions. */
export function recorded(events: readonly SpecEvent[]): RecordedEvent[] {
  const revisions = new Map<string, number>();
  return events.map(({ streamId, ...event }, index) => {
    const streamRevision = revisions.get(streamId) ?? 0;
    revisions.set(streamId, streamRevision + 1);
    return {
      ...event,
      id: `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
      streamId,
      streamRevision,
      position: { transactionId: '1', globalPosition: String(index + 1) },
      metadata: {
        userId: null,
        organizationId: null,
        correlationId: null,
        causationId: null,
        at: '2026-12-01T00:00:00.000Z',
      },
    };
  });
}

/**
 * given(...events).expectRows(table, rows) for one read model, on a database of its own for the
 * spec file. Each `given` empties the read model's tables and feeds the events to its `apply` as the
 * runner does: only the types it handles, in log order, in one transaction. It does so twice, once
 * as one page and once an event a page (as the runner retries a page that failed), and first checks
 * that both leave the same rows; the expected rows are then compared with those.
 */
export function readModelSpec(projection: Projection, open: () => Promise<SpecDatabase>) {
  let database: Promise<SpecDatabase> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const opened = () => (database ??= open());

  const empty = async (db: SpecDatabase) => {
    for (const table of projection.tables)
      await sql`TRUNCATE TABLE ${sql.table(table)} RESTART IDENTITY`.execute(db.background);
  };
  const applyPages = async (db: SpecDatabase, pages: RecordedEvent[][]) => {
    for (const page of pages) {
      const handled = page.filter((event) => projection.handles.includes(event.type));
      if (handled.length === 0) continue;
      await db.background.transaction().execute((trx) => projection.apply(trx, handled));
    }
  };
  const readTable = async (db: SpecDatabase, table: string) => {
    const { rows } = await sql<SpecRow>`SELECT * FROM ${sql.table(table)}`.execute(db.background);
    return sorted(rows.map(normalize));
  };
  const snapshot = async (db: SpecDatabase) => {
    const tables = new Map<string, SpecRow[]>();
    for (const table of projection.tables) tables.set(table, await readTable(db, table));
    return tables;
  };

  const run = async (events: readonly SpecEvent[]) => {
    const db = await opened();
    const log = recorded(events);
    await empty(db);
    await applyPages(
      db,
      log.map((event) => [event]),
    );
    const oneByOne = await snapshot(db);
    await empty(db);
    await applyPages(db, [log]);
    const onePage = await snapshot(db);
    assert.deepEqual(onePage, oneByOne, 'the same rows whether applied as one page or one by one');
    return onePage;
  };

  return {
    given(...events: SpecEvent[]): Given {
      // Givens run one after the other: each empties the tables the one before filled.
      const tables = queue.then(() => run(events));
      queue = tables.catch(() => undefined);
      const rowsOf = async (table: string) => {
        const found = (await tables).get(table);
        if (!found) throw new Error(`${table} is not a table of the ${projection.name} read model`);
        return found;
      };
      return {
        rows: rowsOf,
        async expectRows(table, expected) {
          const columns = Object.keys(expected[0] ?? {});
          const actual = (await rowsOf(table)).map((row) =>
            Object.fromEntries(columns.map((column) => [column, row[column]])),
          );
          assert.deepEqual(sorted(actual), sorted(expected.map(normalize)), `rows of ${table}`);
        },
      };
    },
    /** Closes the spec's database. */
    async close() {
      await queue;
      if (database) await (await database).drop();
    },
  };
}
