import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Database } from '../storage/connection.ts';
import {
  START,
  comparePositions,
  type EventStore,
  type LogPosition,
  type RecordedEvent,
  type Subscription,
} from '../storage/eventStore.ts';
import { createLeadership, type Leadership } from '../storage/leadership.ts';
import { isTransient, parkEvent } from './parking.ts';
import type { Projection } from './projection.ts';
import { useRebuildSchema } from './rebuildTables.ts';

export type Logger = {
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
  error: (obj: object, msg?: string) => void;
};
const silent: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export type RunnerOptions = {
  pageSize?: number;
  logger?: Logger;
  lockRetryMs?: number;
  /** Tries of a failing event before it is parked, the first pause between them (doubling). */
  attempts?: number;
  retryDelayMs?: number;
  requestPollMs?: number;
};

/** Another process (or `npm run reproject`) moved the checkpoint under us. */
export class CheckpointMovedError extends Error {}

/** The tables a page goes into: the live ones (schema null) or a rebuild's copies beside them. */
export type Target = { projection: Projection; key: string; schema: string | null };

export type Rebuild = {
  key: string;
  subscription: Subscription | null;
  failed: unknown;
  done: Promise<void>;
};

/** How long a projection may run ahead of its stored checkpoint on pages it ignores. */
const CHECKPOINT_IDLE_MS = 1000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Following the log, for the projections this process runs: each page of events is applied and
 * checkpointed in one transaction, so a crash never applies an event twice or skips one. A page
 * that fails goes to `applyOneByOne` (runnerParking.ts). The state here is shared by the rebuilds
 * (runnerRebuild.ts) and the status (runnerStatus.ts).
 */
export abstract class PagingRunner {
  protected readonly emitter = new EventEmitter();
  /** Where each target (a projection's name, or `<name>#rebuild`) stands, and its checkpoint last written. */
  protected readonly positions = new Map<string, LogPosition>();
  protected readonly stored = new Map<string, { position: LogPosition; at: number }>();
  protected readonly advancedAt = new Map<string, number>();
  /** The version the live tables were built by (differs from the code's while they are rebuilt beside). */
  protected readonly liveVersions = new Map<string, number>();
  protected readonly chains = new Map<string, Promise<unknown>>();
  protected readonly flushTimers = new Map<string, ReturnType<typeof setTimeout>>();
  protected readonly running = new Map<string, Subscription>();
  protected readonly rebuilds = new Map<string, Rebuild>();
  /** The projections' locks (`projection:<name>`), on one session of this process. */
  protected readonly leadership: Leadership;
  protected stopped = false;
  private readonly committedListeners = new Set<
    (projection: string, events: RecordedEvent[]) => void
  >();
  /** Test hook: called inside the transaction after `apply`, before the checkpoint is written. */
  beforeCheckpoint: ((projection: string, events: RecordedEvent[]) => Promise<void>) | null = null;

  protected readonly database: Database;
  protected readonly store: EventStore;
  readonly projections: readonly Projection[];
  protected readonly options: RunnerOptions;

  constructor(
    database: Database,
    store: EventStore,
    projections: readonly Projection[],
    options: RunnerOptions = {},
  ) {
    this.database = database;
    this.store = store;
    this.projections = projections;
    this.options = options;
    this.emitter.setMaxListeners(0);
    this.leadership = createLeadership(database);
  }

  protected get logger() {
    return this.options.logger ?? silent;
  }
  protected get pageSize() {
    return this.options.pageSize ?? 1000;
  }

  /** Starts the projection again from its stored checkpoint (after the checkpoint moved under it). */
  protected abstract restart(projection: Projection): Promise<void>;
  /** Applies a failed page's events one at a time, parking those that keep failing. */
  protected abstract applyOneByOne(
    target: Target,
    handled: RecordedEvent[],
    from: LogPosition,
    last: LogPosition,
  ): Promise<void>;

  /** Runs one target's checkpoint work one at a time: pages, deferred checkpoint writes, retries of parked events. */
  protected serial<T>(key: string, work: () => Promise<T>): Promise<T> {
    const run = (this.chains.get(key) ?? Promise.resolve()).then(work, work);
    this.chains.set(
      key,
      run.catch(() => undefined),
    );
    return run;
  }

  protected applyPage(target: Target, page: RecordedEvent[]): Promise<void> {
    clearTimeout(this.flushTimers.get(target.key));
    // Live or rebuilding, the subscription lets the requests in between pages (pollingSubscription).
    return this.serial(target.key, () => this.applyPageNow(target, page));
  }

  protected versionOf(target: Target) {
    return target.schema
      ? target.projection.version
      : (this.liveVersions.get(target.key) ?? target.projection.version);
  }

  /** Writes the checkpoint of a projection that moved on over pages it ignores, so other processes see it. */
  protected async flushCheckpoint(target: Target) {
    const target_ = this.positions.get(target.key);
    const stored = this.stored.get(target.key);
    if (
      this.stopped ||
      !this.running.has(target.key) ||
      !target_ ||
      !stored ||
      comparePositions(target_, stored.position) === 0
    )
      return;
    const result = await sql`UPDATE projection_checkpoints
      SET transaction_id = ${target_.transactionId}, global_position = ${target_.globalPosition}, updated_at = now()
      WHERE name = ${target.key} AND version = ${this.versionOf(target)}
        AND transaction_id = ${stored.position.transactionId} AND global_position = ${stored.position.globalPosition}`.execute(
      this.database.background,
    );
    if (Number(result.numAffectedRows ?? 0) !== 1) {
      this.logger.warn({ projection: target.key }, 'checkpoint moved: restarting projection');
      void this.restart(target.projection);
      return;
    }
    this.stored.set(target.key, { position: target_, at: Date.now() });
  }

  /**
   * One transaction: apply `events`, park `parked` if given, move the checkpoint from `from` to `to`
   * (only if it still is at `from`). A rebuild's transaction works in its own schema.
   */
  protected async commit(
    target: Target,
    events: RecordedEvent[],
    from: LogPosition,
    to: LogPosition,
    parked?: { event: RecordedEvent; error: unknown },
  ) {
    const { projection } = target;
    await this.database.background.transaction().execute(async (trx) => {
      if (target.schema) await useRebuildSchema(trx, target.schema);
      if (events.length > 0) await projection.apply(trx, events);
      if (parked) await parkEvent(trx, projection.name, parked.event, parked.error);
      if (this.beforeCheckpoint && !target.schema)
        await this.beforeCheckpoint(projection.name, events);
      const result = await sql`UPDATE projection_checkpoints
        SET transaction_id = ${to.transactionId}, global_position = ${to.globalPosition}, updated_at = now()
        WHERE name = ${projection.name} AND version = ${this.versionOf(target)}
          AND transaction_id = ${from.transactionId} AND global_position = ${from.globalPosition}`.execute(
        trx,
      );
      if (Number(result.numAffectedRows ?? 0) !== 1)
        throw new CheckpointMovedError(projection.name);
    });
  }

  protected advance(target: Target, position: LogPosition, written: boolean) {
    this.positions.set(target.key, position);
    if (written) this.stored.set(target.key, { position, at: Date.now() });
    this.advancedAt.set(target.key, Date.now());
    this.emitter.emit('advanced', target.key, position);
  }

  protected async applyPageNow(target: Target, page: RecordedEvent[]) {
    const { projection } = target;
    const stored = this.stored.get(target.key) ?? { position: START, at: 0 };
    // A page delivered again after failing part-way: what was committed is not applied twice.
    const fresh = page.filter((event) => comparePositions(event.position, stored.position) > 0);
    if (fresh.length === 0) return;
    const last = fresh[fresh.length - 1].position;
    const handled = fresh.filter((event) => projection.handles.includes(event.type));
    // A page with nothing for this projection moves it on in memory; its checkpoint is written at
    // most once a second (a restart then re-reads a few events it ignores anyway).
    if (
      !target.schema &&
      handled.length === 0 &&
      !this.beforeCheckpoint &&
      Date.now() - stored.at < CHECKPOINT_IDLE_MS
    ) {
      this.advance(target, last, false);
      // If no page follows soon, write the checkpoint anyway.
      const timer = setTimeout(() => {
        this.serial(target.key, () => this.flushCheckpoint(target)).catch((error: unknown) =>
          this.logger.warn({ err: error, projection: projection.name }, 'checkpoint write failed'),
        );
      }, CHECKPOINT_IDLE_MS);
      timer.unref();
      this.flushTimers.set(target.key, timer);
      return;
    }
    let applied = handled;
    try {
      try {
        await this.commit(target, handled, stored.position, last);
      } catch (error) {
        if (error instanceof CheckpointMovedError || this.stopped || isTransient(error))
          throw error;
        this.logger.warn(
          { err: error, projection: target.key },
          'projection failed on a page: applying its events one by one',
        );
        await this.applyOneByOne(target, handled, stored.position, last);
        applied = []; // told one by one
      }
    } catch (error) {
      if (error instanceof CheckpointMovedError) {
        const rebuild = this.rebuilds.get(projection.name);
        if (target.schema && rebuild) {
          rebuild.failed = error; // the rebuild's schema was replaced under it
          return;
        }
        // A reproject reset the checkpoint (or another process wrote it): start again from what is stored.
        this.logger.warn(
          { projection: projection.name },
          'checkpoint moved: restarting projection',
        );
        void this.restart(projection);
        return;
      }
      this.logger.error(
        { err: error, projection: target.key },
        'projection failed on a page; retrying',
      );
      throw error;
    }
    this.advance(target, last, true);
    if (!target.schema && applied.length > 0) this.tellCommitted(projection.name, applied);
  }

  /**
   * `listener` hears each page of events a live read model of this process has just committed (only
   * the events it handles), for pushing the rows they changed. Returns the function that stops it.
   */
  onCommitted(listener: (projection: string, events: RecordedEvent[]) => void): () => void {
    this.committedListeners.add(listener);
    return () => {
      this.committedListeners.delete(listener);
    };
  }

  protected tellCommitted(projection: string, events: RecordedEvent[]) {
    for (const listener of this.committedListeners) {
      try {
        listener(projection, events);
      } catch (err) {
        this.logger.warn({ err, projection }, 'a listener of committed pages failed');
      }
    }
  }

  protected nextAdvance(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.emitter.off('advanced', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.emitter.on('advanced', done);
    });
  }
}
