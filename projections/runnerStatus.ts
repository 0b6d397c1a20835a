import type { EventEmitter } from 'node:events';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../storage/connection.ts';
import {
  START,
  comparePositions,
  type EventStore,
  type LogPosition,
} from '../storage/eventStore.ts';
import { leadHeld } from '../storage/leadership.ts';
import type { DB } from '../storage/schema.ts';
import { countParked } from './parking.ts';
import type { Projection } from './projection.ts';
import { rebuildCheckpoint } from './rebuildTables.ts';

/** Behind for this long without moving: stalled. */
const STALL_MS = 10_000;
/** The events of a read model's lag counted on EventStoreDB (beyond it, "at least"). */
const LAG_COUNTED = 10_000;

export type ProjectionStatus = {
  projection: string;
  version: number;
  position: LogPosition;
  running: boolean;
};

/** What the status of the runner is read from: its state, not to be changed here. */
export type RunnerView = {
  database: Database;
  store: EventStore;
  projections: readonly Projection[];
  pageSize: number;
  /** Where each target stands in this process (a projection's name, or `<name>#rebuild`). */
  positions: ReadonlyMap<string, LogPosition>;
  /** The projections this process runs. */
  running: ReadonlyMap<string, unknown>;
  rebuilds: ReadonlyMap<string, { key: string }>;
  advancedAt: ReadonlyMap<string, number>;
  /** Emits 'advanced' whenever a target moves on. */
  emitter: EventEmitter;
};

/** A read model as `GET admin/projections` shows it. */
export type AdminStatus = {
  projection: string;
  version: number;
  /** stalled: behind and not moving, or run by no process; catching-up: behind by more than a page. */
  status: 'running' | 'catching-up' | 'stalled' | 'rebuilding';
  position: LogPosition;
  /** Events between its position and the head of the log. */
  lag: number;
  parked: number;
  rebuild: { progress: number; position: LogPosition } | null;
};

/** The events after `after` up to `upTo` in the SQL log: how many, and when the first of them was appended. */
export async function countEvents(
  db: Kysely<DB>,
  after: LogPosition,
  upTo: LogPosition,
): Promise<{ count: number; oldest: Date | null }> {
  if (comparePositions(after, upTo) >= 0) return { count: 0, oldest: null };
  const { rows } = await sql<{
    count: string | number;
    oldest: Date | string | null;
  }>`SELECT count(*) AS count, min(created_at) AS oldest FROM events
    WHERE (transaction_id, global_position) > (${after.transactionId}::text::xid8, ${after.globalPosition}::bigint)
      AND (transaction_id, global_position) <= (${upTo.transactionId}::text::xid8, ${upTo.globalPosition}::bigint)`.execute(
    db,
  );
  return {
    count: Number(rows[0]?.count ?? 0),
    oldest: rows[0]?.oldest ? new Date(rows[0].oldest) : null,
  };
}

/** Whether some session holds the projection's advisory lock (`projection:<name>`, storage/leadership.ts). */
export function lockHeld(db: Kysely<DB>, name: string): Promise<boolean> {
  return leadHeld(db, `projection:${name}`);
}

/**
 * Each read model for the Superadmin: where it stands, how many events it is behind (counted), how
 * many it parked, and a rebuild under way in any process with its progress.
 */
export async function adminStatus(view: RunnerView): Promise<AdminStatus[]> {
  const db = view.database.background;
  const [rows, head, parked, requested] = await Promise.all([
    db.selectFrom('projection_checkpoints').selectAll().execute(),
    view.store.head(),
    countParked(db),
    sql<{ projection: string }>`SELECT projection FROM projection_rebuild_requests`
      .execute(db)
      .then(({ rows }) => new Set(rows.map((row) => row.projection))),
  ]);
  const sqlLog = view.store.kind !== 'esdb';
  const total = sqlLog ? (await countEvents(db, START, head)).count : Number(head.globalPosition);
  const now = Date.now();
  const answer: AdminStatus[] = [];
  for (const projection of view.projections) {
    const { name } = projection;
    const row = rows.find((candidate) => candidate.name === name);
    const runningHere = view.running.has(name);
    const stored = row
      ? { transactionId: String(row.transaction_id), globalPosition: String(row.global_position) }
      : START;
    const position = (runningHere ? view.positions.get(name) : undefined) ?? stored;
    // EventStoreDB's positions are offsets in its log: count the events after the checkpoint instead.
    const behind = sqlLog
      ? await countEvents(db, position, head)
      : {
          count: (await view.store.readAll({ from: position, limit: LAG_COUNTED })).length,
          oldest: null,
        };
    const local = view.rebuilds.get(name);
    const rebuildAt = local
      ? (view.positions.get(local.key) ?? START)
      : await rebuildCheckpoint(db, name);
    let rebuild: AdminStatus['rebuild'] = null;
    if (local || rebuildAt || requested.has(name)) {
      const at = rebuildAt ?? START;
      const done = sqlLog ? (await countEvents(db, START, at)).count : Number(at.globalPosition);
      rebuild = { progress: total > 0 ? Math.min(1, done / total) : 0, position: at };
    }
    const claimed = runningHere || (await lockHeld(db, name));
    const lastProgress = runningHere
      ? (view.advancedAt.get(name) ?? 0)
      : row
        ? new Date(row.updated_at as unknown as string).getTime()
        : 0;
    const stuck =
      behind.count > 0 &&
      now - lastProgress > STALL_MS &&
      (!behind.oldest || now - behind.oldest.getTime() > STALL_MS);
    answer.push({
      projection: name,
      version: row?.version ?? projection.version,
      status: rebuild
        ? 'rebuilding'
        : !claimed || stuck
          ? 'stalled'
          : behind.count > view.pageSize
            ? 'catching-up'
            : 'running',
      position,
      lag: behind.count,
      parked: parked.get(name) ?? 0,
      rebuild,
    });
  }
  return answer;
}

/** Read-your-writes: resolves true once every named projection has passed `position`, false after `timeoutMs`. */
export async function waitFor(
  view: RunnerView,
  names: readonly string[],
  position: LogPosition | null,
  timeoutMs = 2000,
): Promise<boolean> {
  if (!position) return true;
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(names);
  for (;;) {
    for (const name of [...pending]) {
      const local = view.positions.get(name);
      if (local && comparePositions(local, position) >= 0) pending.delete(name);
    }
    if (pending.size > 0 && [...pending].some((name) => !view.running.has(name))) {
      // Projections run by another process: read their stored checkpoints.
      const rows = await view.database.background
        .selectFrom('projection_checkpoints')
        .select(['name', 'transaction_id', 'global_position'])
        .where('name', 'in', [...pending])
        .execute();
      for (const row of rows) {
        if (
          comparePositions(
            {
              transactionId: String(row.transaction_id),
              globalPosition: String(row.global_position),
            },
            position,
          ) >= 0
        )
          pending.delete(row.name);
      }
    }
    if (pending.size === 0) return true;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return false;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        view.emitter.off('advanced', done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(remaining, 25));
      view.emitter.on('advanced', done);
    });
  }
}

export async function status(view: RunnerView): Promise<ProjectionStatus[]> {
  const rows = await view.database.background
    .selectFrom('projection_checkpoints')
    .selectAll()
    .execute();
  return view.projections.map((projection) => {
    const row = rows.find((candidate) => candidate.name === projection.name);
    // A projection run here may be ahead of its stored checkpoint (pages it ignores are written
    // at most once a second): report where it really is.
    const local = view.running.has(projection.name)
      ? view.positions.get(projection.name)
      : undefined;
    return {
      projection: projection.name,
      version: projection.version,
      position:
        local ??
        (row
          ? {
              transactionId: String(row.transaction_id),
              globalPosition: String(row.global_position),
            }
          : START),
      running: view.running.has(projection.name),
    };
  });
}
