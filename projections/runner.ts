import { EventEmitter } from 'node:events';
import { sql, type Transaction } from 'kysely';
import type { Database, SessionConnection } from '../storage/connection.ts';
import type { DB } from '../storage/schema.ts';
import { START, comparePositions, type EventStore, type LogPosition, type RecordedEvent, type Subscription } from '../storage/eventStore.ts';
import type { Projection } from './projection.ts';

type Logger = { info: (obj: object, msg?: string) => void; warn: (obj: object, msg?: string) => void; error: (obj: object, msg?: string) => void };
const silent: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export type ProjectionStatus = { projection: string; version: number; position: LogPosition; running: boolean };

/** Another process (or `npm run reproject`) moved the checkpoint under us. */
class CheckpointMovedError extends Error {}

/**
 * Runs each projection in exactly one process: the holder of its advisory lock. Each page of events
 * is applied and checkpointed in one transaction, so a crash never applies an event twice or skips one.
 */
/** How long a projection may run ahead of its stored checkpoint on pages it ignores. */
const CHECKPOINT_IDLE_MS = 1000;

export class ProjectionRunner {
  private readonly emitter = new EventEmitter();
  private readonly positions = new Map<string, LogPosition>();
  /** The checkpoint last written for each projection, and when. */
  private readonly stored = new Map<string, { position: LogPosition; at: number }>();
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly flushTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly running = new Map<string, Subscription>();
  private session: SessionConnection | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly committedListeners = new Set<(projection: string, events: RecordedEvent[]) => void>();
  /** Test hook: called inside the transaction after `apply`, before the checkpoint is written. */
  beforeCheckpoint: ((projection: string, events: RecordedEvent[]) => Promise<void>) | null = null;

  constructor(
    private readonly database: Database,
    private readonly store: EventStore,
    readonly projections: readonly Projection[],
    private readonly options: { pageSize?: number; logger?: Logger; lockRetryMs?: number } = {},
  ) {
    this.emitter.setMaxListeners(0);
  }

  private get logger() { return this.options.logger ?? silent; }

  async start(): Promise<void> {
    this.stopped = false;
    this.session = await this.database.session();
    await this.ensureCheckpoints();
    await this.claimFreeProjections();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    for (const timer of this.flushTimers.values()) clearTimeout(timer);
    await Promise.all([...this.running.values()].map((subscription) => subscription.close()));
    await Promise.all([...this.chains.values()]);
    this.running.clear();
    await this.session?.release();
    this.session = null;
  }

  private async ensureCheckpoints() {
    for (const projection of this.projections) {
      await sql`INSERT INTO projection_checkpoints (name, version) VALUES (${projection.name}, ${projection.version})
        ON CONFLICT (name) DO NOTHING`.execute(this.database.background);
    }
  }

  /** Takes every projection whose lock is free; retries the others, so one takes over when its holder dies. */
  private async claimFreeProjections() {
    if (this.stopped || !this.session) return;
    for (const projection of this.projections) {
      if (this.running.has(projection.name)) continue;
      try {
        const [row] = await this.session.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(hashtext($1)) AS locked`, [`projection:${projection.name}`]);
        if (row?.locked) await this.run(projection);
      } catch (error) {
        this.logger.warn({ err: error, projection: projection.name }, 'could not claim projection');
      }
    }
    if (this.running.size < this.projections.length && !this.stopped) {
      this.retryTimer = setTimeout(() => void this.claimFreeProjections(), this.options.lockRetryMs ?? 2000);
      this.retryTimer.unref();
    }
  }

  private async run(projection: Projection) {
    const from = await this.prepare(projection);
    this.positions.set(projection.name, from);
    this.stored.set(projection.name, { position: from, at: Date.now() });
    this.logger.info({ projection: projection.name, from }, 'projection running');
    const subscription = this.store.subscribe({ from, pageSize: this.options.pageSize ?? 1000 }, (events) => this.applyPage(projection, events));
    this.running.set(projection.name, subscription);
  }

  /** Reads the checkpoint; a changed version empties the read model and starts again from the beginning. */
  private async prepare(projection: Projection): Promise<LogPosition> {
    return this.database.background.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('projection_checkpoints').selectAll().where('name', '=', projection.name).forUpdate().executeTakeFirstOrThrow();
      if (row.version !== projection.version) {
        this.logger.info({ projection: projection.name, from: row.version, to: projection.version }, 'projection version changed: rebuilding');
        await resetProjection(trx, projection);
        return START;
      }
      return { transactionId: String(row.transaction_id), globalPosition: String(row.global_position) };
    });
  }

  /** Runs one projection's checkpoint work one at a time: pages and deferred checkpoint writes. */
  private serial(name: string, work: () => Promise<void>): Promise<void> {
    const run = (this.chains.get(name) ?? Promise.resolve()).then(work, work);
    this.chains.set(name, run.catch(() => undefined));
    return run;
  }

  private applyPage(projection: Projection, page: RecordedEvent[]): Promise<void> {
    clearTimeout(this.flushTimers.get(projection.name));
    return this.serial(projection.name, () => this.applyPageNow(projection, page));
  }

  /** Writes the checkpoint of a projection that moved on over pages it ignores, so other processes see it. */
  private async flushCheckpoint(projection: Projection) {
    const target = this.positions.get(projection.name);
    const stored = this.stored.get(projection.name);
    if (this.stopped || !this.running.has(projection.name) || !target || !stored || comparePositions(target, stored.position) === 0) return;
    const result = await sql`UPDATE projection_checkpoints
      SET transaction_id = ${target.transactionId}, global_position = ${target.globalPosition}, updated_at = now()
      WHERE name = ${projection.name} AND version = ${projection.version}
        AND transaction_id = ${stored.position.transactionId} AND global_position = ${stored.position.globalPosition}`.execute(this.database.background);
    if (Number(result.numAffectedRows ?? 0) !== 1) {
      this.logger.warn({ projection: projection.name }, 'checkpoint moved: restarting projection');
      void this.restart(projection);
      return;
    }
    this.stored.set(projection.name, { position: target, at: Date.now() });
  }

  private async applyPageNow(projection: Projection, page: RecordedEvent[]) {
    const last = page[page.length - 1].position;
    const handled = page.filter((event) => projection.handles.includes(event.type));
    const stored = this.stored.get(projection.name) ?? { position: START, at: 0 };
    // A page with nothing for this projection moves it on in memory; its checkpoint is written at
    // most once a second (a restart then re-reads a few events it ignores anyway).
    if (handled.length === 0 && !this.beforeCheckpoint && Date.now() - stored.at < CHECKPOINT_IDLE_MS) {
      this.positions.set(projection.name, last);
      this.emitter.emit('advanced', projection.name, last);
      // If no page follows soon, write the checkpoint anyway.
      const timer = setTimeout(() => {
        this.serial(projection.name, () => this.flushCheckpoint(projection))
          .catch((error: unknown) => this.logger.warn({ err: error, projection: projection.name }, 'checkpoint write failed'));
      }, CHECKPOINT_IDLE_MS);
      timer.unref();
      this.flushTimers.set(projection.name, timer);
      return;
    }
    const previous = stored.position;
    try {
      await this.database.background.transaction().execute(async (trx) => {
        if (handled.length > 0) await projection.apply(trx, handled);
        if (this.beforeCheckpoint) await this.beforeCheckpoint(projection.name, page);
        const result = await sql`UPDATE projection_checkpoints
          SET transaction_id = ${last.transactionId}, global_position = ${last.globalPosition}, updated_at = now()
          WHERE name = ${projection.name} AND version = ${projection.version}
            AND transaction_id = ${previous.transactionId} AND global_position = ${previous.globalPosition}`.execute(trx);
        if (Number(result.numAffectedRows ?? 0) !== 1) throw new CheckpointMovedError(projection.name);
      });
    } catch (error) {
      if (error instanceof CheckpointMovedError) {
        // A reproject reset the checkpoint (or another process wrote it): start again from what is stored.
        this.logger.warn({ projection: projection.name }, 'checkpoint moved: restarting projection');
        void this.restart(projection);
        return;
      }
      this.logger.error({ err: error, projection: projection.name }, 'projection failed on a page; retrying');
      throw error;
    }
    this.positions.set(projection.name, last);
    this.stored.set(projection.name, { position: last, at: Date.now() });
    if (handled.length > 0) this.tellCommitted(projection.name, handled);
    this.emitter.emit('advanced', projection.name, last);
  }

  /**
   * `listener` hears each page of events a live read model of this process has just committed (only
   * the events it handles), for pushing the rows they changed. Returns the function that stops it.
   */
  onCommitted(listener: (projection: string, events: RecordedEvent[]) => void): () => void {
    this.committedListeners.add(listener);
    return () => { this.committedListeners.delete(listener); };
  }

  private tellCommitted(projection: string, events: RecordedEvent[]) {
    for (const listener of this.committedListeners) {
      try {
        listener(projection, events);
      } catch (err) {
        this.logger.warn({ err, projection }, 'a listener of committed pages failed');
      }
    }
  }

  private async restart(projection: Projection) {
    const subscription = this.running.get(projection.name);
    this.running.delete(projection.name);
    await subscription?.close();
    if (!this.stopped) await this.run(projection);
  }

  /** Read-your-writes: resolves true once every named projection has passed `position`, false after `timeoutMs`. */
  async waitFor(names: readonly string[], position: LogPosition | null, timeoutMs = 2000): Promise<boolean> {
    if (!position) return true;
    const deadline = Date.now() + timeoutMs;
    const pending = new Set(names);
    for (;;) {
      for (const name of [...pending]) {
        const local = this.positions.get(name);
        if (local && comparePositions(local, position) >= 0) pending.delete(name);
      }
      if (pending.size > 0 && [...pending].some((name) => !this.running.has(name))) {
        // Projections run by another process: read their stored checkpoints.
        const rows = await this.database.background.selectFrom('projection_checkpoints').select(['name', 'transaction_id', 'global_position'])
          .where('name', 'in', [...pending]).execute();
        for (const row of rows) {
          if (comparePositions({ transactionId: String(row.transaction_id), globalPosition: String(row.global_position) }, position) >= 0) pending.delete(row.name);
        }
      }
      if (pending.size === 0) return true;
      const remaining = deadline - Date.now();
      if (remaining <= 0) return false;
      await new Promise<void>((resolve) => {
        const done = () => { clearTimeout(timer); this.emitter.off('advanced', done); resolve(); };
        const timer = setTimeout(done, Math.min(remaining, 25));
        this.emitter.on('advanced', done);
      });
    }
  }

  async status(): Promise<ProjectionStatus[]> {
    const rows = await this.database.background.selectFrom('projection_checkpoints').selectAll().execute();
    return this.projections.map((projection) => {
      const row = rows.find((candidate) => candidate.name === projection.name);
      // A projection run here may be ahead of its stored checkpoint (pages it ignores are written
      // at most once a second): report where it really is.
      const local = this.running.has(projection.name) ? this.positions.get(projection.name) : undefined;
      return {
        projection: projection.name,
        version: projection.version,
        position: local ?? (row ? { transactionId: String(row.transaction_id), globalPosition: String(row.global_position) } : START),
        running: this.running.has(projection.name),
      };
    });
  }
}

/** Empties a read model's tables and sets its checkpoint back to the start, in the caller's transaction. */
export async function resetProjection(trx: Transaction<DB>, projection: Projection) {
  for (const table of projection.tables) await sql`TRUNCATE TABLE ${sql.table(table)}`.execute(trx);
  await sql`UPDATE projection_checkpoints SET version = ${projection.version}, transaction_id = 0, global_position = 0, updated_at = now()
    WHERE name = ${projection.name}`.execute(trx);
}
