import { sql } from 'kysely';
import type { LogPosition } from '../storage/eventStore.ts';
import { RebuildingRunner } from './runnerRebuild.ts';
import {
  adminStatus,
  status,
  waitFor,
  type AdminStatus,
  type ProjectionStatus,
  type RunnerView,
} from './runnerStatus.ts';

export type { AdminStatus, ProjectionStatus } from './runnerStatus.ts';
export type { ParkedEvent } from './parking.ts';
export type { RunnerOptions } from './runnerPaging.ts';
export { resetProjection } from './resetProjection.ts';

/**
 * Runs each projection in exactly one process: the holder of its advisory lock
 * (storage/leadership.ts, `projection:<name>`). Its parts, each a layer of this class:
 *
 * - runnerPaging.ts: following the log, each page applied and checkpointed in one transaction, so a
 *   crash never applies an event twice or skips one;
 * - runnerParking.ts: a page that fails is applied again event by event, and an event that still
 *   fails after a few tries is parked, so the events after it flow on;
 * - runnerRebuild.ts: starting a projection from its checkpoint, and rebuilding one beside the live
 *   tables, swapped in once caught up, so readers never see a half-built read model;
 * - runnerStatus.ts: the Superadmin's status of each read model, and read-your-writes (`waitFor`).
 */
export class ProjectionRunner extends RebuildingRunner {
  private retryTimer: NodeJS.Timeout | null = null;

  async start(): Promise<void> {
    this.stopped = false;
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
    this.running.clear();
    // Gives the locks back (PGlite's session is the one connection, which outlives the runner).
    await this.leadership.release();
  }

  private async ensureCheckpoints() {
    for (const projection of this.projections) {
      await sql`INSERT INTO projection_checkpoints (name, version) VALUES (${projection.name}, ${projection.version})
        ON CONFLICT (name) DO NOTHING`.execute(this.database.background);
    }
  }

  /** Takes every projection whose lock is free; retries the others, so one takes over when its holder dies. */
  private async claimFreeProjections() {
    if (this.stopped) return;
    for (const projection of this.projections) {
      if (this.running.has(projection.name)) continue;
      try {
        if (await this.leadership.holds(`projection:${projection.name}`))
          await this.run(projection);
      } catch (error) {
        this.logger.warn({ err: error, projection: projection.name }, 'could not claim projection');
      }
    }
    if (this.running.size < this.projections.length && !this.stopped) this.claimLater();
  }

  protected claimLater() {
    if (this.stopped) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(
      () => void this.claimFreeProjections(),
      this.options.lockRetryMs ?? 2000,
    );
    this.retryTimer.unref();
  }

  private view(): RunnerView {
    return {
      database: this.database,
      store: this.store,
      projections: this.projections,
      pageSize: this.pageSize,
      positions: this.positions,
      running: this.running,
      rebuilds: this.rebuilds,
      advancedAt: this.advancedAt,
      emitter: this.emitter,
    };
  }

  /**
   * Each read model for the Superadmin: where it stands, how many events it is behind (counted), how
   * many it parked, and a rebuild under way in any process with its progress.
   */
  adminStatus(): Promise<AdminStatus[]> {
    return adminStatus(this.view());
  }

  /** Read-your-writes: resolves true once every named projection has passed `position`, false after `timeoutMs`. */
  waitFor(names: readonly string[], position: LogPosition | null, timeoutMs = 2000) {
    return waitFor(this.view(), names, position, timeoutMs);
  }

  status(): Promise<ProjectionStatus[]> {
    return status(this.view());
  }
}
