import { sql } from 'kysely';
import { START, comparePositions, type LogPosition } from '../storage/eventStore.ts';
import { isTransient } from './parking.ts';
import type { Projection } from './projection.ts';
import {
  createRebuildSchema,
  dropRebuildSchema,
  hasRows,
  rebuildSchemaOf,
  swapInRebuilt,
} from './rebuildTables.ts';
import { resetProjection } from './resetProjection.ts';
import { sleep, type Rebuild, type Target } from './runnerPaging.ts';
import { ParkingRunner } from './runnerParking.ts';

/** How often the holder of projections looks for rebuilds asked for through the database. */
const REQUEST_POLL_MS = 1000;

/**
 * Running a projection from its checkpoint, and rebuilding one: a rebuild fills copies of the
 * tables beside the live ones and swaps them in once caught up, so readers never see a half-built
 * read model. A changed version on tables that hold rows is rebuilt that way too.
 */
export abstract class RebuildingRunner extends ParkingRunner {
  protected requestTimer: NodeJS.Timeout | null = null;

  /** Asks for the projections whose lock is free again, later. */
  protected abstract claimLater(): void;

  protected async run(projection: Projection) {
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
  protected async prepare(
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

  protected async restart(projection: Projection) {
    const subscription = this.running.get(projection.name);
    this.running.delete(projection.name);
    await subscription?.close();
    if (!this.stopped) await this.run(projection);
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

  protected startRebuild(name: string) {
    this.rebuild(name).catch((error: unknown) =>
      this.logger.error(
        { err: error, projection: name },
        'rebuilding the read model failed; the live tables stay',
      ),
    );
  }

  protected scheduleRequestPoll() {
    if (this.stopped) return;
    this.requestTimer = setTimeout(
      () => void this.pollRequests().finally(() => this.scheduleRequestPoll()),
      this.options.requestPollMs ?? REQUEST_POLL_MS,
    );
    this.requestTimer.unref();
  }

  protected async pollRequests() {
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

  protected async runRebuild(projection: Projection, rebuild: Rebuild) {
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
  protected async swap(target: Target, rebuild: Rebuild) {
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
          this.claimLater();
        });
      }
    }
  }
}
