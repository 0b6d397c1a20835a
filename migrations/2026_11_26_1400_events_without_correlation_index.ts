import { sql, type Kysely } from 'kysely';

/**
 * The log's index on `metadata->>'correlationId'` served no query: a load's history is read by its
 * streams, and projections read the log in order. Every append paid for it (the expression evaluated,
 * one more index entry), so it goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS events_correlation`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX events_correlation ON events ((metadata->>'correlationId'))`.execute(db);
}
