import { sql, type Transaction } from 'kysely';
import type { DB } from '../storage/schema.ts';
import type { Projection } from './projection.ts';

/** Empties a read model's tables and sets its checkpoint back to the start, in the caller's transaction. */
export async function resetProjection(trx: Transaction<DB>, projection: Projection) {
  for (const table of projection.tables) await sql`TRUNCATE TABLE ${sql.table(table)}`.execute(trx);
  await sql`UPDATE projection_checkpoints SET version = ${projection.version}, transaction_id = 0, global_position = 0, updated_at = now()
    WHERE name = ${projection.name}`.execute(trx);
}
