/**
 * The notifier: tells the browsers that care what changed (docs/api.md "Realtime").
 *
 * | event | from | to |
 * |---|---|---|
 * | `proposal:new` | ProposalSubmitted, committed to the offers' read model | the load's shipper organization, members holding 407 |
 * | `proposal:updated` | every other offer event, committed | both organizations, members holding 404 |
 * | `load:posted`, `load:updated` | load events of a load on (or just off) the marketplace, committed | `marketplace` |
 * | `tour:status` | TourOpened, CarrierConfirmed, TourStatusChanged, TourCanceled, committed | `tour:<id>`, both organizations (503), the driver |
 * | `tour:event` | TourAssigned, TourEventAdded, TourRated, PickupReleased, PickupHeld, committed | the same |
 * | `tour:position` | PositionsRecorded (one per position), PositionRecorded | `tour:<id>` |
 * | `chat:message` | MessagePosted | `tour:<id>` |
 *
 * Rows come from the read side: the projection runner tells the notifier which events a page of
 * the marketplace read model held once that page is committed, and the notifier pushes the rows
 * those events changed, read once per page (a load, an offer, a tour), as the read model has them.
 * A client can put the pushed row in its table as it is; nothing is re-folded from the streams. The
 * process that runs the marketplace projection shares the page's work list (ids, one message a page
 * through the socket.io adapter's server-side emit) with the other processes, and each reads the
 * rows and pushes them to its own sockets: no row crosses the adapter one NOTIFY at a time.
 *
 * Positions and chat messages are their events' own data: every process follows the log from the
 * moment its first socket connects and pushes them to its own sockets (`emitLocal`), so a watcher
 * hears each position exactly once, also while another process takes the projections over.
 * A user blocked or deleted has its sockets here closed at once (UserBlocked, UserDeleted). When a
 * tour is assigned to another driver (TourAssigned), the sockets in its room whose user no longer
 * sees it leave the room before the room hears anything more: as the log brings the event (before
 * the positions and messages after it), and again before the page's rows are pushed, whichever
 * comes first.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DB } from '../../storage/schema.ts';
import type { EventStore, RecordedEvent, Subscription } from '../eventstore/eventStore.ts';
import { livePushes } from './livePushes.ts';
import type { Emit } from './push.ts';
import { mergeInto, PUSHED_PROJECTION, rowPushes, workOf, type RowWork } from './rowPushes.ts';

export { livePushes } from './livePushes.ts';
export type { Emit, Push } from './push.ts';
export { PUSHED_PROJECTION, rowPushes, workOf, type RowWork } from './rowPushes.ts';

/** How often the work of committed pages is sent to the other processes, at most. */
const SHARE_EVERY_MS = 20;

export type CommittedListener = (projection: string, events: RecordedEvent[]) => void;

export type NotifierDeps = {
  store: EventStore;
  db: Kysely<DB>;
  /** The projection runner of this process: `listener` hears each committed page of the live read models. */
  onCommitted(listener: CommittedListener): () => void;
  /** Sends a page's work list to the notifiers of the other server processes (nothing when alone). */
  share(work: RowWork): void;
  /** Hears the work lists the other processes share. */
  onShared(handler: (work: RowWork) => void): () => void;
  /** Whether this process has sockets (false: no row is read for them). */
  hasSockets(): boolean;
  /** Sends to the rooms' sockets of this process only. */
  emitLocal: Emit;
  /** Closes every socket of the user in this process. */
  endUser: (userId: string) => void;
  /** Takes the sockets of this process whose user no longer sees the tour out of its room (never rejects). */
  recheckTour: (tourId: string) => Promise<void>;
  logger: Pick<Logger, 'warn'>;
};

export type Notifier = { start(): Promise<void>; close(): Promise<void> };

export function createNotifier(deps: NotifierDeps): Notifier {
  const { store, db, logger } = deps;
  let starting: Promise<void> | null = null;
  let subscription: Subscription | null = null;
  let closed = false;
  // Committed pages are pushed in commit order, off the path of positions and chat.
  let rows: Promise<void> = Promise.resolve();

  const only =
    (emit: Emit): Emit =>
    (rooms, event, payload, except) => {
      // An empty room list would mean everyone.
      if (rooms.length > 0 && !closed) emit(rooms, event, payload, except);
    };
  const emitLocal = only(deps.emitLocal);

  /** Reads the rows a page changed, one query per kind, and pushes them to this process's sockets. */
  async function pushRows(work: RowWork) {
    const pushes = await rowPushes(db, work);
    // A tour's new driver: whoever lost the tour is out of its room before the room hears of it.
    const reassigned = work.tours
      .filter(([, entries]) => entries.some((entry) => entry.type === 'TourAssigned'))
      .map(([tourId]) => tourId);
    await Promise.all(reassigned.map((tourId) => deps.recheckTour(tourId)));
    for (const push of pushes) emitLocal(push.rooms, push.event, push.payload, push.except);
  }

  /**
   * Pushes in the order the pages were committed, off the path of positions and chat. Pages that
   * arrive while a push runs are merged into the next one, so a burst costs a few reads, not one per page.
   */
  let pending: RowWork | null = null;
  const queue = (work: RowWork) => {
    if (closed || !deps.hasSockets()) return;
    if (pending) {
      mergeInto(pending, work);
      return;
    }
    pending = work;
    rows = rows
      .then(() => {
        const next = pending!;
        pending = null;
        return pushRows(next);
      })
      .catch((err: unknown) =>
        logger.warn({ err }, 'notifier could not push the rows of a committed page'),
      );
  };

  // Other processes read and push the same rows to their own sockets: one message every few
  // milliseconds at most, carrying every page committed meanwhile, not one per row or per page.
  let sharing: RowWork | null = null;
  const share = (work: RowWork) => {
    if (sharing) {
      mergeInto(sharing, work);
      return;
    }
    sharing = work;
    setTimeout(() => {
      const next = sharing!;
      sharing = null;
      if (!closed) deps.share(next);
    }, SHARE_EVERY_MS).unref();
  };

  const stopListening = deps.onCommitted((projection, events) => {
    if (projection !== PUSHED_PROJECTION || closed) return;
    const work = workOf(events);
    if (!work) return;
    // Two lists, since each is merged with later pages on its own schedule.
    share({ ...work });
    queue(work);
  });
  const stopHearing = deps.onShared(queue);

  /** Events that are their own payload, told by every process to its own sockets. */
  async function handlePage(page: RecordedEvent[]) {
    for (const event of page) {
      if (closed) return;
      const pushes = livePushes(event);
      if (pushes.length > 0) {
        for (const push of pushes) emitLocal(push.rooms, push.event, push.payload);
      } else if (event.type === 'UserBlocked' || event.type === 'UserDeleted') {
        deps.endUser(String((event.data as { userId: string }).userId));
      } else if (event.type === 'TourAssigned') {
        // Awaited: the positions and messages after it in the log go only to who still sees the tour.
        if (deps.hasSockets())
          await deps.recheckTour(String((event.data as { tourId: string }).tourId));
      }
    }
  }

  return {
    /** Idempotent; resolves once the notifier reads from the head of the log as it was at the first call. */
    start() {
      starting ??= (async () => {
        const from = await store.head();
        if (closed) return;
        subscription = store.subscribe({ from, pageSize: 500 }, handlePage);
      })().catch((error: unknown) => {
        starting = null;
        throw error;
      });
      return starting;
    },
    async close() {
      closed = true;
      stopListening();
      stopHearing();
      await starting?.catch(() => undefined);
      await subscription?.close();
      await rows;
    },
  };
}
