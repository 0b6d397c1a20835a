import { sql, type Kysely } from 'kysely';

/**
 * Every stored file names what it belongs to, so that a download can be decided by its owner and
 * the caller's role: a load's signed contract belongs to the load (both parties' dispatchers read
 * it), a file of a tour (proof of delivery) to the tour (its parties and its driver), and the rest
 * (carrier documents, a shipper's signature) to the organization that uploaded them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE files ADD COLUMN load_id uuid`.execute(db);
  await sql`ALTER TABLE files ADD COLUMN tour_id uuid`.execute(db);
  await sql`CREATE INDEX files_load ON files (load_id) WHERE load_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX files_tour ON files (tour_id) WHERE tour_id IS NOT NULL`.execute(db);
  await backfillContractLoads(db);
}

/**
 * Contracts stored before: their load is the one whose contract they are, in the event log (the
 * source of truth) or, when the log lives in EventStoreDB, in the loads read model.
 */
export async function backfillContractLoads<T>(db: Kysely<T>): Promise<void> {
  await sql`
    UPDATE files SET load_id = (events.data->>'loadId')::uuid
    FROM events
    WHERE files.kind = 'contract' AND files.load_id IS NULL
      AND events.type = 'LoadContractSigned' AND events.data->>'contractFileId' = files.id::text`.execute(
    db,
  );
  await sql`
    UPDATE files SET load_id = loads_view.id
    FROM loads_view
    WHERE files.kind = 'contract' AND files.load_id IS NULL AND loads_view.contract_file_id = files.id`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX files_tour`.execute(db);
  await sql`DROP INDEX files_load`.execute(db);
  await sql`ALTER TABLE files DROP COLUMN tour_id`.execute(db);
  await sql`ALTER TABLE files DROP COLUMN load_id`.execute(db);
}
