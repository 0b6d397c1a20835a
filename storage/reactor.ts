import { EventEmitter } from 'node:events';
import type { Transaction } from 'kysely';
import { readReactorCheckpoint, writeReactorCheckpoint } from './checkpoints.ts';
import type { Database } from './connection.ts';
import {
  comparePositions,
  type EventStore,
  type LogPosition,
  type RecordedEvent,
  type Subscription,
} from './eventStore.ts';
import { createLeadership, type Leadership } from './leadership.ts';
import type { DB } from './schema.ts';

/** A page handed to a reactor: where it ends, and how to write with the checkpoint in one transaction. */
export type ReactorPage = {
  /** The position of the page's last event (handled or not): where the checkpoint moves. */
  last: LogPosition;
  /**
   * Runs `work` and moves the checkpoint past the page in one transaction: a crash re-reads the page
   * only if `work` was not committed. A handler that does not call it has the checkpoint written
   * after it returns.
   */
  commit(work: (trx: Transaction<DB>) => Promise<void>): Promise<void>;
};

/**
 * A reactor on the event log: a name (its checkpoint's, and its lock `reactor:<name>` unless `job`
 * says otherwise), the events it handles, and what it does with them. The primitive runs it in one
 * process at a time, from its checkpoint (the head of the log the first time), page by page.
 */
export type ReactorDefinition = {
  name: string;
  job?: string;
  /** The event types it handles, or a test of each event. */
  handles: readonly string[] | ((event: RecordedEvent) => boolean);
  /**
   * Handles the page's events it handles (never an empty list). 'idle' says nothing was done: the
   * checkpoint then moves at most once a second, like on pages with none of its events (and about a
   * second after the last such page, or at `stop`, when no other page follows). A throw has the page
   * delivered again.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing handled the page
  handle(events: RecordedEvent[], page: ReactorPage): Promise<void | 'idle'>;
  pageSize?: number;
  /** Once this process leads, before it follows the log (listen for notices, start timers). */
  onLead?(): Promise<void>;
  /** After starting to lead failed: undo what `onLead` did. */
  onLeadFailed?(): Promise<void>;
  /** After the reactor stopped following the log. */
  onStop?(): Promise<void>;
};

export type Reactor = {
  readonly name: string;
  /** Where this process has handled the log up to; null while it does not lead. */
  position(): LogPosition | null;
  /** Resolves true once this process has handled the log up to `position`, false after `timeoutMs`. */
  waitFor(position: LogPosition, timeoutMs?: number): Promise<boolean>;
  /** Resolves once the first attempt to lead is over (led or not). */
  readonly started: Promise<void>;
  stop(): Promise<void>;
};

export type ReactorDeps = {
  database: Database;
  store: EventStore;
  logger: { warn(obj: object, msg?: string): void };
  /** Shared with the other jobs of a module (one session); else the reactor has its own. */
  leadership?: Leadership;
  /** How often a process that does not lead asks again. */
  claimRetryMs?: number;
};

/** Pages with nothing done move the checkpoint at most this often: re-reading them costs nothing. */
const IDLE_CHECKPOINT_MS = 1000;

export function startReactor(definition: ReactorDefinition, deps: ReactorDeps): Reactor {
  const { database, store, logger } = deps;
  const { name } = definition;
  const job = definition.job ?? `reactor:${name}`;
  const leadership = deps.leadership ?? createLeadership(database);
  const handles =
    typeof definition.handles === 'function'
      ? definition.handles
      : (
          (types: ReadonlySet<string>) => (event: RecordedEvent) =>
            types.has(event.type)
        )(new Set(definition.handles));
  const advanced = new EventEmitter().setMaxListeners(0);
  let handled: LogPosition | null = null;
  let subscription: Subscription | null = null;
  let retry: NodeJS.Timeout | null = null;
  let stopped = false;
  let checkpointWrittenAt = 0;
  /** The end of the last page handled when its checkpoint was left for later, and the timer that writes it. */
  let unsaved: LogPosition | null = null;
  let saveLater: NodeJS.Timeout | null = null;
  let saving: Promise<void> = Promise.resolve();
  /** A page is being handled: it writes the checkpoint itself (or leaves it for later again). */
  let busy = false;

  const moved = (position: LogPosition) => {
    handled = position;
    advanced.emit('advanced');
  };

  const saveUnsaved = () => {
    const at = unsaved;
    if (!at) return;
    unsaved = null;
    checkpointWrittenAt = Date.now();
    saving = writeReactorCheckpoint(database.db, name, at).catch((error: unknown) => {
      logger.warn({ err: error, reactor: name }, 'reactor checkpoint not written');
    });
  };
  // A quiet log after pages left unsaved: write the checkpoint a second after the last write, so
  // it does not stay behind (and its lag show) until the next event.
  const leaveForLater = (at: LogPosition) => {
    unsaved = at;
    if (saveLater) return;
    saveLater = setTimeout(
      () => {
        saveLater = null;
        // A page being handled writes it, or leaves it for later again.
        if (!busy && !stopped) saveUnsaved();
      },
      Math.max(0, checkpointWrittenAt + IDLE_CHECKPOINT_MS - Date.now()),
    );
    saveLater.unref();
  };

  const handlePage = async (all: RecordedEvent[]) => {
    busy = true;
    try {
      // A late write of an older checkpoint must not land after this page's.
      await saving;
      await handleEvents(all);
    } finally {
      busy = false;
    }
  };

  const handleEvents = async (all: RecordedEvent[]) => {
    const last = all[all.length - 1]!.position;
    const events = all.filter(handles);
    let committed = false;
    const page: ReactorPage = {
      last,
      async commit(work) {
        await database.db.transaction().execute(async (trx) => {
          await work(trx);
          await writeReactorCheckpoint(trx, name, last);
        });
        committed = true;
        unsaved = null;
        checkpointWrittenAt = Date.now();
      },
    };
    const outcome = events.length > 0 ? await definition.handle(events, page) : 'idle';
    if (!committed) {
      if (outcome !== 'idle' || Date.now() - checkpointWrittenAt >= IDLE_CHECKPOINT_MS) {
        checkpointWrittenAt = Date.now();
        unsaved = null;
        await writeReactorCheckpoint(database.db, name, last);
      } else leaveForLater(last);
    }
    moved(last);
  };

  const claim = async (): Promise<void> => {
    retry = null;
    if (stopped) return;
    try {
      if (await leadership.holds(job)) {
        const from = await readReactorCheckpoint(database.db, name, () => store.head());
        if (stopped) return;
        await definition.onLead?.();
        moved(from);
        subscription = store.subscribe({ from, pageSize: definition.pageSize ?? 200 }, handlePage);
        return;
      }
    } catch (error) {
      if (stopped) return;
      logger.warn({ err: error, reactor: name }, 'reactor could not start');
      await definition.onLeadFailed?.().catch(() => undefined);
      handled = null;
      await leadership.reset();
    }
    if (stopped) return;
    retry = setTimeout(() => void claim(), deps.claimRetryMs ?? 2000);
    retry.unref();
  };
  const started = claim();

  return {
    name,
    started,
    position: () => handled,
    async waitFor(position, timeoutMs = 5_000) {
      await started;
      const deadline = Date.now() + timeoutMs;
      while (!handled || comparePositions(handled, position) < 0) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) return false;
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(wait);
            advanced.off('advanced', done);
            resolve();
          };
          const wait = setTimeout(done, Math.min(remaining, 50));
          advanced.on('advanced', done);
        });
      }
      return true;
    },
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      await started.catch(() => undefined);
      await subscription?.close();
      subscription = null;
      if (saveLater) clearTimeout(saveLater);
      saveLater = null;
      await saving;
      // Every page up to it was handled: the next start goes on from there.
      if (unsaved) {
        saveUnsaved();
        await saving;
      }
      await definition.onStop?.();
      if (deps.leadership) await leadership.resign(job);
      else await leadership.release();
    },
  };
}
