import { EventEmitter } from 'node:events';
import { sql, type Transaction } from 'kysely';
import type { Database, SessionConnection } from '../storage/connection.ts';
import type { DB } from '../storage/schema.ts';
import {
  START,
  comparePositions,
  type EventStore,
  type LogPosition,
  type RecordedEvent,
  type Subscription,
} from '../storage/eventStore.ts';
import {
  countParked,
  errorText,
  findParked,
  isTransient,
  listParked,
  parkEvent,
  unparkEvent,
  type ParkedEvent,
} from './parking.ts';
import type { Projection } from './projection.ts';
import {
  createRebuildSchema,
  dropRebuildSchema,
  hasRows,
  rebuildCheckpoint,
  rebuildSchemaOf,
  swapInRebuilt,
  useRebuildSchema,
} from './rebuildTables.ts';
import { countEvents, lockHeld, type AdminStatus } from './runnerStatus.ts';

export type { AdminStatus } from './runnerStatus.ts';
export type { ParkedEvent } from './parking.ts';

type Logger = {
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
  error: (obj: object, msg?: string) => void;
};
const silent: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export type ProjectionStatus = {
  projection: string;
  version: number;
  position: LogPosition;
  running: boolean;
};

/** Another process (or `npm run reproject`) moved the checkpoint under us. */
class CheckpointMovedError extends Error {}

/** The tables a page goes into: the live ones (schema null) or a rebuild's copies beside them. */
type Target = { projection: Projection; key: string; schema: string | null };

type Rebuild = {
  key: string;
  subscription: Subscription | null;
  failed: unknown;
  done: Promise<void>;
};

/** How long a projection may run ahead of its stored checkpoint on pages it ignores. */
const CHECKPOINT_IDLE_MS = 1000;
/** How often the holder of projections looks for rebuilds asked for through the database. */
const REQUEST_POLL_MS = 1000;
/** Behind for this long without moving: stalled. */
const STALL_MS = 10_000;
/** The events of a read model's lag counted on EventStoreDB (beyond it, "at least"). */
const LAG_COUNTED = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs each projection in exactly one process: the holder of its advisory lock. Each page of events
 * is applied and checkpointed in one transaction, so a crash never applies an event twice or skips one.
 * A page that fails is applied again event by event: an event that still fails after a few tries
 * (while the database answers) is parked, in the transaction that moves the checkpoint past it, and
 * the events after it flow on. A rebuild fills copies of the tables beside the live ones and swaps
 * them in once caught up, so readers never see a half-built read model.
 */
export class ProjectionRunner {
  private readonly emitter = new EventEmitter();
  /** Where each target (a projection's name, or `<name>#rebuild`) stands, and its checkpoint last written. */
  private readonly positions = new Map<string, LogPosition>();
  private readonly stored = new Map<string, { position: LogPosition; at: number }>();
  private readonly advancedAt = new Map<string, number>();
  /** The version the live tables were built by (differs from the code's while they are rebuilt beside). */
  private readonly liveVersions = new Map<string, number>();
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly flushTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly running = new Map<string, Subscription>();
  private readonly rebuilds = new Map<string, Rebuild>();
  private session: SessionConnection | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private requestTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly committedListeners = new Set<
    (projection: string, events: RecordedEvent[]) => void
  >();
  /** Test hook: called inside the transaction after `apply`, before the checkpoint is written. */
  beforeCheckpoint: ((projection: string, events: RecordedEvent[]) => Promise<void>) | null = null;

  constructor(
    private readonly database: Database,
    private readonly store: EventStore,
    readonly projections: readonly Projection[],
    private readonly options: {
      pageSize?: number;
      logger?: Logger;
      lockRetryMs?: number;
      /** Tries of a failing event before it is parked, the first pause between them (doubling). */
      attempts?: number;
      retryDelayMs?: number;
      requestPollMs?: number;
    } = {},
  ) {
    this.emitter.setMaxListeners(0);
  }

  private get logger() {
    return this.options.logger ?? silent;
  }
  private get pageSize() {
    return this.options.pageSize ?? 1000;
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.session = await this.database.session();
    await this.ensureCheckpoints();
    await this.claimFreeProjections();
    this.scheduleRequestPoll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.requestTimer) clearTimeout(this.requestTimer);
    for (const timer of this.flushTimers.values()) clearTimeout(timer);
    await Promise.all([...this.rebuilds.values()].map((rebuild) => rebuild.subscription?.close()));
    await Promise.all([...this.running.values()].map((subscription) => subscription.close()));
    await Promise.all(
      [...this.rebuilds.values()].map((rebuild) => rebuild.done.catch(() => undefined)),
    );
    await Promise.all([...this.chains.values()]);
    // PGlite's session is the one connection, which outlives the runner: give the locks back.
    for (const name of this.running.keys()) {
      await this.session
        ?.query(`SELECT pg_advisory_unlock(hashtext($1))`, [`projection:${name}`])
        .catch(() => undefined);
    }
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
        const [row] = await this.session.query<{ locked: boolean }>(
          `SELECT pg_try_advisory_lock(hashtext($1)) AS locked`,
          [`projection:${projection.name}`],
        );
        if (row?.locked) await this.run(projection);
      } catch (error) {
        this.logger.warn({ err: error, projection: projection.name }, 'could not claim projection');
      }
    }
    if (this.running.size < this.projections.length && !this.stopped) {
      this.retryTimer = setTimeout(
        () => void this.claimFreeProjections(),
        this.options.lockRetryMs ?? 2000,
      );
      this.retryTimer.unref();
    }
  }

  private async run(projection: Projection) {
    const { from, rebuildBeside } = await this.prepare(projection);
    const target: Target = { projection, key: projection.name, schema: null };
    this.positions.set(projection.name, from);
    this.stored.set(projection.name, { position: from, at: Date.now() });
    this.advancedAt.set(projection.name, Date.now());
    this.logger.info({ projection: projection.name, from }, 'projection running');
    const subscription = this.store.subscribe({ from, pageSize: this.pageSize }, (events) =>
      this.applyPage(target, events),
    );
    this.running.set(projection.name, subscription);
    if (rebuildBeside) this.startRebuild(projection.name);
  }

  /**
   * Reads the checkpoint. A changed version on tables that hold rows keeps serving them and rebuilds
   * beside them; on empty tables the read model simply starts again from the beginning.
   */
  private async prepare(
    projection: Projection,
  ): Promise<{ from: LogPosition; rebuildBeside: boolean }> {
    // This process holds the projection: a rebuild schema it is not filling is a leftover of one interrupted.
    if (!this.rebuilds.has(projection.name))
      await dropRebuildSchema(this.database.background, projection.name);
    return this.database.background.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('projection_checkpoints')
        .selectAll()
        .where('name', '=', projection.name)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const from = {
        transactionId: String(row.transaction_id),
        globalPosition: String(row.global_position),
      };
      this.liveVersions.set(projection.name, row.version);
      if (row.version === projection.version) return { from, rebuildBeside: false };
      if (await hasRows(trx, projection)) {
        this.logger.info(
          { projection: projection.name, from: row.version, to: projection.version },
          'projection version changed: rebuilding beside the live tables',
        );
        return { from, rebuildBeside: true };
      }
      this.logger.info(
        { projection: projection.name, from: row.version, to: projection.version },
        'projection version changed: building from the start',
      );
      await resetProjection(trx, projection);
      this.liveVersions.set(projection.name, projection.version);
      return { from: START, rebuildBeside: false };
    });
  }

  /** Runs one target's checkpoint work one at a time: pages, deferred checkpoint writes, retries of parked events. */
  private serial<T>(key: string, work: () => Promise<T>): Promise<T> {
    const run = (this.chains.get(key) ?? Promise.resolve()).then(work, work);
    this.chains.set(
      key,
      run.catch(() => undefined),
    );
    return run;
  }

  private applyPage(target: Target, page: RecordedEvent[]): Promise<void> {
    clearTimeout(this.flushTimers.get(target.key));
    // Live or rebuilding, the subscription lets the requests in between pages (pollingSubscription).
    return this.serial(target.key, () => this.applyPageNow(target, page));
  }

  private versionOf(target: Target) {
    return target.schema
      ? target.projection.version
      : (this.liveVersions.get(target.key) ?? target.projection.version);
  }

  /** Writes the checkpoint of a projection that moved on over pages it ignores, so other processes see it. */
  private async flushCheckpoint(target: Target) {
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
  private async commit(
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

  private advance(target: Target, position: LogPosition, written: boolean) {
    this.positions.set(target.key, position);
    if (written) this.stored.set(target.key, { position, at: Date.now() });
    this.advancedAt.set(target.key, Date.now());
    this.emitter.emit('advanced', target.key, position);
  }

  private async applyPageNow(target: Target, page: RecordedEvent[]) {
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
   * Applies the events of a page that failed one at a time, each with its checkpoint. An event that
   * fails every try, while the database still answers an empty transaction, is parked; an error that
   * is the database's (the connection, a shutdown) goes up, and the page is tried again later.
   */
  private async applyOneByOne(
    target: Target,
    handled: RecordedEvent[],
    from: LogPosition,
    last: LogPosition,
  ): Promise<void> {
    const { projection } = target;
    let at = from;
    for (const event of handled) {
      const error = await this.tryAlone(target, event, at);
      if (error === null) {
        if (!target.schema) this.tellCommitted(projection.name, [event]);
      } else {
        await this.database.background.transaction().execute((trx) => sql`SELECT 1`.execute(trx));
        if (this.stopped) throw error;
        await this.commit(target, [], at, event.position, { event, error });
        this.logger.error(
          {
            projection: target.key,
            eventId: event.id,
            type: event.type,
            streamId: event.streamId,
            error: errorText(error),
          },
          'projection parked an event it cannot apply',
        );
      }
      at = event.position;
      this.advance(target, at, true);
    }
    if (comparePositions(at, last) < 0) await this.commit(target, [], at, last);
  }

  /** Null once the event is applied and checkpointed; its last error after every try failed. */
  private async tryAlone(target: Target, event: RecordedEvent, at: LogPosition): Promise<unknown> {
    const attempts = this.options.attempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.commit(target, [event], at, event.position);
        return null;
      } catch (error) {
        if (error instanceof CheckpointMovedError || this.stopped || isTransient(error))
          throw error;
        if (attempt >= attempts) return error;
        await sleep((this.options.retryDelayMs ?? 100) * 2 ** (attempt - 1));
      }
    }
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

  private nextAdvance(ms: number): Promise<void> {
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

  /**
   * Asks for a read model to be rebuilt beside the live one: at once when this process runs it, and
   * through the database for whichever process does (it looks every second). False for an unknown name.
   */
  async requestRebuild(name: string): Promise<boolean> {
    if (!this.projections.some((projection) => projection.name === name)) return false;
    await sql`INSERT INTO projection_rebuild_requests (projection) VALUES (${name})
      ON CONFLICT (projection) DO UPDATE SET requested_at = now()`.execute(
      this.database.background,
    );
    if (this.running.has(name)) this.startRebuild(name);
    return true;
  }

  private startRebuild(name: string) {
    this.rebuild(name).catch((error: unknown) =>
      this.logger.error(
        { err: error, projection: name },
        'rebuilding the read model failed; the live tables stay',
      ),
    );
  }

  private scheduleRequestPoll() {
    if (this.stopped) return;
    this.requestTimer = setTimeout(
      () => void this.pollRequests().finally(() => this.scheduleRequestPoll()),
      this.options.requestPollMs ?? REQUEST_POLL_MS,
    );
    this.requestTimer.unref();
  }

  private async pollRequests() {
    const names = [...this.running.keys()].filter((name) => !this.rebuilds.has(name));
    if (this.stopped || names.length === 0) return;
    try {
      const { rows } = await sql<{
        projection: string;
      }>`SELECT projection FROM projection_rebuild_requests WHERE projection = ANY(${names}::text[])`.execute(
        this.database.background,
      );
      for (const { projection } of rows)
        if (!this.stopped && this.running.has(projection)) this.startRebuild(projection);
    } catch (error) {
      if (!this.stopped) this.logger.warn({ err: error }, 'could not read the rebuild requests');
    }
  }

  /**
   * Rebuilds a read model that this process runs beside its live tables, which keep serving (and
   * following the log) until the rebuilt ones are swapped in; resolves then.
   */
  rebuild(name: string): Promise<void> {
    const existing = this.rebuilds.get(name);
    if (existing) return existing.done;
    const projection = this.projections.find((candidate) => candidate.name === name);
    if (!projection) return Promise.reject(new Error(`Unknown projection ${name}`));
    if (!this.running.has(name))
      return Promise.reject(new Error(`The projection ${name} is run by another process`));
    const rebuild: Rebuild = {
      key: `${name}#rebuild`,
      subscription: null,
      failed: null,
      done: Promise.resolve(),
    };
    this.rebuilds.set(name, rebuild);
    rebuild.done = this.runRebuild(projection, rebuild).finally(() => {
      this.rebuilds.delete(name);
      for (const map of [this.positions, this.stored, this.advancedAt, this.chains])
        map.delete(rebuild.key);
    });
    return rebuild.done;
  }

  private async runRebuild(projection: Projection, rebuild: Rebuild) {
    const { name } = projection;
    const target: Target = { projection, key: rebuild.key, schema: rebuildSchemaOf(name) };
    const started = Date.now();
    this.logger.info({ projection: name }, 'rebuilding the read model beside the live one');
    try {
      await createRebuildSchema(this.database.background, projection);
      this.positions.set(rebuild.key, START);
      this.stored.set(rebuild.key, { position: START, at: Date.now() });
      rebuild.subscription = this.store.subscribe(
        { from: START, pageSize: this.pageSize },
        (events) => this.applyPage(target, events),
      );
      // Caught up once the copies stand where the live tables do.
      for (;;) {
        if (rebuild.failed) throw rebuild.failed;
        if (this.stopped || !this.running.has(name))
          throw new Error(`Rebuilding ${name} stopped: this process no longer runs it`);
        if (
          comparePositions(
            this.positions.get(rebuild.key) ?? START,
            this.positions.get(name) ?? START,
          ) >= 0
        )
          break;
        await this.nextAdvance(100);
      }
      await this.swap(target, rebuild);
      this.logger.info(
        { projection: name, seconds: (Date.now() - started) / 1000 },
        'read model rebuilt and swapped in',
      );
    } catch (error) {
      await rebuild.subscription?.close();
      await this.chains.get(rebuild.key);
      // Stopping leaves the request and the schema to the next holder (which starts the rebuild again).
      if (!this.stopped) {
        await dropRebuildSchema(this.database.background, name).catch(() => undefined);
        await sql`DELETE FROM projection_rebuild_requests WHERE projection = ${name}`
          .execute(this.database.background)
          .catch(() => undefined);
      }
      throw error;
    }
  }

  /**
   * Pauses the live projection (its subscription ends after the page in hand), brings the copies to
   * exactly where the live tables stand (or past), swaps them in with the checkpoint in one
   * transaction, and resumes the live projection from there.
   */
  private async swap(target: Target, rebuild: Rebuild) {
    const { projection } = target;
    const { name } = projection;
    clearTimeout(this.flushTimers.get(name));
    await this.running.get(name)?.close();
    await this.chains.get(name);
    await rebuild.subscription?.close();
    rebuild.subscription = null;
    await this.chains.get(rebuild.key);
    try {
      if (rebuild.failed) throw rebuild.failed;
      const live = this.positions.get(name) ?? START;
      while (comparePositions(this.positions.get(rebuild.key) ?? START, live) < 0) {
        const events = (
          await this.store.readAll({
            from: this.positions.get(rebuild.key) ?? START,
            limit: this.pageSize,
          })
        ).filter((event) => comparePositions(event.position, live) <= 0);
        if (events.length === 0) break;
        await this.applyPageNow(target, events);
        if (rebuild.failed) throw rebuild.failed;
      }
      const position = this.positions.get(rebuild.key) ?? START;
      for (let attempt = 1; ; attempt++) {
        try {
          await this.database.background
            .transaction()
            .execute((trx) => swapInRebuilt(trx, projection, position));
          break;
        } catch (error) {
          if (attempt >= 3 || this.stopped || !isTransient(error)) throw error;
          await sleep(100 * attempt);
        }
      }
      this.liveVersions.set(name, projection.version);
    } finally {
      this.running.delete(name);
      if (!this.stopped) {
        await this.run(projection).catch((error: unknown) => {
          this.logger.error(
            { err: error, projection: name },
            'could not resume the projection after its rebuild',
          );
          this.retryTimer = setTimeout(
            () => void this.claimFreeProjections(),
            this.options.lockRetryMs ?? 2000,
          );
          this.retryTimer.unref();
        });
      }
    }
  }

  /** The events a read model set aside, in log order; null for an unknown name. */
  async parked(name: string): Promise<ParkedEvent[] | null> {
    if (!this.projections.some((projection) => projection.name === name)) return null;
    return listParked(this.database.background, name);
  }

  /** How many events each read model set aside (only those with any). */
  parkedCounts(): Promise<Map<string, number>> {
    return countParked(this.database.background);
  }

  /**
   * Applies a parked event again, alone, on the live tables (after the page in hand, when this process
   * runs the projection); on success it leaves the parked list in the same transaction.
   */
  async retryParked(
    name: string,
    eventId: string,
  ): Promise<{ status: 'unknown' } | { status: 'applied' } | { status: 'failed'; error: string }> {
    const projection = this.projections.find((candidate) => candidate.name === name);
    const parked = projection ? await findParked(this.database.background, name, eventId) : null;
    if (!projection || !parked) return { status: 'unknown' };
    const event = await this.readEvent(parked);
    if (!event) return { status: 'failed', error: 'The event is no longer in the log' };
    const work = async (): Promise<{ status: 'applied' } | { status: 'failed'; error: string }> => {
      try {
        await this.database.background.transaction().execute(async (trx) => {
          await projection.apply(trx, [event]);
          await unparkEvent(trx, name, eventId);
        });
      } catch (error) {
        return { status: 'failed', error: errorText(error) };
      }
      this.logger.info({ projection: name, eventId, type: event.type }, 'parked event applied');
      this.tellCommitted(name, [event]);
      return { status: 'applied' };
    };
    return this.running.has(name) ? this.serial(name, work) : work();
  }

  /** One event of the log by its position (its id is checked), else from its stream. */
  private async readEvent(parked: {
    eventId: string;
    streamId: string;
    position: LogPosition;
  }): Promise<RecordedEvent | null> {
    const before = {
      transactionId: parked.position.transactionId,
      globalPosition: String(BigInt(parked.position.globalPosition) - 1n),
    };
    const [candidate] = await this.store.readAll({ from: before, limit: 1 });
    if (candidate?.id === parked.eventId) return candidate;
    const { events } = await this.store.readStream(parked.streamId);
    return events.find((event) => event.id === parked.eventId) ?? null;
  }

  /**
   * Each read model for the Superadmin: where it stands, how many events it is behind (counted), how
   * many it parked, and a rebuild under way in any process with its progress.
   */
  async adminStatus(): Promise<AdminStatus[]> {
    const db = this.database.background;
    const [rows, head, parked, requested] = await Promise.all([
      db.selectFrom('projection_checkpoints').selectAll().execute(),
      this.store.head(),
      countParked(db),
      sql<{ projection: string }>`SELECT projection FROM projection_rebuild_requests`
        .execute(db)
        .then(({ rows }) => new Set(rows.map((row) => row.projection))),
    ]);
    const sqlLog = this.store.kind !== 'esdb';
    const total = sqlLog ? (await countEvents(db, START, head)).count : Number(head.globalPosition);
    const now = Date.now();
    const answer: AdminStatus[] = [];
    for (const projection of this.projections) {
      const { name } = projection;
      const row = rows.find((candidate) => candidate.name === name);
      const runningHere = this.running.has(name);
      const stored = row
        ? { transactionId: String(row.transaction_id), globalPosition: String(row.global_position) }
        : START;
      const position = (runningHere ? this.positions.get(name) : undefined) ?? stored;
      // EventStoreDB's positions are offsets in its log: count the events after the checkpoint instead.
      const behind = sqlLog
        ? await countEvents(db, position, head)
        : {
            count: (await this.store.readAll({ from: position, limit: LAG_COUNTED })).length,
            oldest: null,
          };
      const local = this.rebuilds.get(name);
      const rebuildAt = local
        ? (this.positions.get(local.key) ?? START)
        : await rebuildCheckpoint(db, name);
      let rebuild: AdminStatus['rebuild'] = null;
      if (local || rebuildAt || requested.has(name)) {
        const at = rebuildAt ?? START;
        const done = sqlLog ? (await countEvents(db, START, at)).count : Number(at.globalPosition);
        rebuild = { progress: total > 0 ? Math.min(1, done / total) : 0, position: at };
      }
      const claimed = runningHere || (await lockHeld(db, name));
      const lastProgress = runningHere
        ? (this.advancedAt.get(name) ?? 0)
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
            : behind.count > this.pageSize
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
  async waitFor(
    names: readonly string[],
    position: LogPosition | null,
    timeoutMs = 2000,
  ): Promise<boolean> {
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
        const rows = await this.database.background
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
          this.emitter.off('advanced', done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(remaining, 25));
        this.emitter.on('advanced', done);
      });
    }
  }

  async status(): Promise<ProjectionStatus[]> {
    const rows = await this.database.background
      .selectFrom('projection_checkpoints')
      .selectAll()
      .execute();
    return this.projections.map((projection) => {
      const row = rows.find((candidate) => candidate.name === projection.name);
      // A projection run here may be ahead of its stored checkpoint (pages it ignores are written
      // at most once a second): report where it really is.
      const local = this.running.has(projection.name)
        ? this.positions.get(projection.name)
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
