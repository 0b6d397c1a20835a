import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../storage/schema.ts';
import type { LogPosition } from '../storage/eventStore.ts';
import type { Projection } from './projection.ts';

/**
 * The tables of a rebuild beside the live read model: a schema `rebuild_<name>` holding an empty copy
 * of each of the projection's tables, and its own `projection_checkpoints` and
 * `projection_parked_events`. A rebuild's transactions put that schema first on their search path
 * (projections name their tables without a schema), so the same code fills the copies. Once caught
 * up, one transaction moves the copies into `public` in place of the live tables.
 */
export const rebuildSchemaOf = (name: string) => `rebuild_${name.toLowerCase()}`;
const retiredSchemaOf = (name: string) => `retired_${name.toLowerCase()}`;

const qualified = (schema: string, table: string) => sql`${sql.id(schema)}.${sql.id(table)}`;

/** Puts the rebuild's schema first for the rest of the caller's transaction. */
export async function useRebuildSchema(trx: Transaction<DB>, schema: string) {
  await sql`SET LOCAL search_path TO ${sql.id(schema)}, public`.execute(trx);
}

/** A fresh, empty rebuild schema (a leftover of an interrupted rebuild is dropped first). */
export async function createRebuildSchema(db: Kysely<DB>, projection: Projection) {
  const schema = rebuildSchemaOf(projection.name);
  await db.transaction().execute(async (trx) => {
    await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(trx);
    await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(trx);
    for (const table of [
      ...projection.tables,
      'projection_checkpoints',
      'projection_parked_events',
    ]) {
      await sql`CREATE TABLE ${qualified(schema, table)} (LIKE ${qualified('public', table)} INCLUDING ALL)`.execute(
        trx,
      );
    }
    await sql`INSERT INTO ${qualified(schema, 'projection_checkpoints')} (name, version) VALUES (${projection.name}, ${projection.version})`.execute(
      trx,
    );
  });
}

export async function dropRebuildSchema(db: Kysely<DB>, name: string) {
  await sql`DROP SCHEMA IF EXISTS ${sql.id(rebuildSchemaOf(name))} CASCADE`.execute(db);
}

/** Where a rebuild (of this process or another) has got to; null when none is under way. */
export async function rebuildCheckpoint(db: Kysely<DB>, name: string): Promise<LogPosition | null> {
  const schema = rebuildSchemaOf(name);
  const { rows: exists } = await sql<{
    found: boolean;
  }>`SELECT to_regclass(${`${schema}.projection_checkpoints`}) IS NOT NULL AS found`.execute(db);
  if (!exists[0]?.found) return null;
  try {
    const { rows } = await sql<{
      transaction_id: string;
      global_position: string;
    }>`SELECT transaction_id::text AS transaction_id, global_position::text AS global_position
      FROM ${qualified(schema, 'projection_checkpoints')} WHERE name = ${name}`.execute(db);
    return rows[0]
      ? {
          transactionId: String(rows[0].transaction_id),
          globalPosition: String(rows[0].global_position),
        }
      : null;
  } catch {
    return null; // swapped in (and dropped) between the two reads
  }
}

type IndexRow = { name: string; def: string };

const indexesOf = async (trx: Transaction<DB>, schema: string, table: string) =>
  (
    await sql<IndexRow>`
  SELECT c.relname AS name, pg_get_indexdef(c.oid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
  WHERE i.indrelid = format('%I.%I', ${schema}::text, ${table}::text)::regclass ORDER BY c.relname`.execute(
      trx,
    )
  ).rows;

/** The index's definition without its name and its table's: what makes two indexes the same. */
const shape = (def: string) =>
  def.replace(/^CREATE (UNIQUE )?INDEX \S+ ON (ONLY )?\S+ /, 'CREATE $1INDEX ON ');

/** Sequences owned by the table's columns (a `serial` column's): the new table takes them over. */
const ownedSequences = async (trx: Transaction<DB>, schema: string, table: string) =>
  (
    await sql<{ sequence: string; column: string }>`
  SELECT s.relname AS sequence, a.attname AS column FROM pg_depend d
  JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
  JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
  WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass AND d.deptype = 'a'
    AND d.refobjid = format('%I.%I', ${schema}::text, ${table}::text)::regclass`.execute(trx)
  ).rows;

/**
 * In the caller's transaction: the rebuilt tables take the live ones' place in `public` (with the
 * live indexes' names and sequences), the old tables are dropped, the rebuild's parked events replace
 * the old version's, and the checkpoint moves to where the rebuild stands. Readers blocked on the
 * tables meanwhile read the new ones once it commits.
 */
export async function swapInRebuilt(
  trx: Transaction<DB>,
  projection: Projection,
  position: LogPosition,
) {
  const schema = rebuildSchemaOf(projection.name);
  const retired = retiredSchemaOf(projection.name);
  await sql`DROP SCHEMA IF EXISTS ${sql.id(retired)} CASCADE`.execute(trx);
  await sql`CREATE SCHEMA ${sql.id(retired)}`.execute(trx);
  for (const table of projection.tables) {
    const liveIndexes = await indexesOf(trx, 'public', table);
    const rebuiltIndexes = await indexesOf(trx, schema, table);
    const sequences = await ownedSequences(trx, 'public', table);
    // Sequences stay in public when their table leaves; the rebuilt table's defaults already use them.
    for (const { sequence } of sequences)
      await sql`ALTER SEQUENCE ${qualified('public', sequence)} OWNED BY NONE`.execute(trx);
    await sql`ALTER TABLE ${qualified('public', table)} SET SCHEMA ${sql.id(retired)}`.execute(trx);
    await sql`ALTER TABLE ${qualified(schema, table)} SET SCHEMA public`.execute(trx);
    for (const { sequence, column } of sequences)
      await sql`ALTER SEQUENCE ${qualified('public', sequence)} OWNED BY ${sql.id('public', table, column)}`.execute(
        trx,
      );
    // LIKE named the copies' indexes itself: give them the names the migrations gave (later migrations use them).
    const renames: { from: string; to: string }[] = [];
    const unmatched = [...rebuiltIndexes];
    for (const live of liveIndexes) {
      const match = unmatched.findIndex((rebuilt) => shape(rebuilt.def) === shape(live.def));
      if (match < 0) continue;
      const [rebuilt] = unmatched.splice(match, 1);
      if (rebuilt.name !== live.name) renames.push({ from: rebuilt.name, to: live.name });
    }
    for (const [i, { from }] of renames.entries())
      await sql`ALTER INDEX ${qualified('public', from)} RENAME TO ${sql.id(`${table}__swap_${i}`)}`.execute(
        trx,
      );
    for (const [i, { to }] of renames.entries())
      await sql`ALTER INDEX ${qualified('public', `${table}__swap_${i}`)} RENAME TO ${sql.id(to)}`.execute(
        trx,
      );
  }
  await sql`DELETE FROM public.projection_parked_events WHERE projection = ${projection.name}`.execute(
    trx,
  );
  await sql`INSERT INTO public.projection_parked_events SELECT * FROM ${qualified(schema, 'projection_parked_events')} WHERE projection = ${projection.name}`.execute(
    trx,
  );
  await sql`UPDATE public.projection_checkpoints
    SET version = ${projection.version}, transaction_id = ${position.transactionId}, global_position = ${position.globalPosition}, updated_at = now()
    WHERE name = ${projection.name}`.execute(trx);
  await sql`DELETE FROM public.projection_rebuild_requests WHERE projection = ${projection.name}`.execute(
    trx,
  );
  await sql`DROP SCHEMA ${sql.id(retired)} CASCADE`.execute(trx);
  await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(trx);
}

/** Whether any of the read model's tables holds a row. */
export async function hasRows(
  db: Kysely<DB> | Transaction<DB>,
  projection: Projection,
): Promise<boolean> {
  for (const table of projection.tables) {
    const { rows } = await sql<{
      found: boolean;
    }>`SELECT EXISTS (SELECT 1 FROM ${qualified('public', table)}) AS found`.execute(db);
    if (rows[0]?.found) return true;
  }
  return false;
}
