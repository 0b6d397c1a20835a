/**
 * The notifier: tells the browsers that care what changed (docs/api.md "Realtime").
 *
 * | event | from | to |
 * |---|---|---|
 * | `proposal:new` | ProposalSubmitted, committed to the offers' read model | the load's shipper organization, members holding 407 |
 * | `proposal:updated` | every other proposal event, committed | both organizations, members holding 404 |
 * | `load:posted`, `load:updated` | load events of a load on (or just off) the marketplace, committed | `marketplace` |
 * | `tour:status` | TourOpened, CarrierConfirmed, TourStatusChanged, TourCanceled, committed | `tour:<id>`, both organizations (503), the driver |
 * | `tour:event` | TourAssigned, TourEventAdded, TourRated, committed | the same |
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
import { GenericStatus } from '../../domain/catalog.ts';
import type { LoadEvent } from '../../domain/loads/load.types.ts';
import { PROPOSAL_NEW_NOTIFICATION, PROPOSAL_VIEW, TOURS_ALL } from '../../domain/permissions.ts';
import { publicEvent } from '../../domain/shared/publicEvent.ts';
import type { OfferEvent } from '../../domain/offers/offer.types.ts';
import {
  POSITION_EVENT_TYPES,
  positionsIn,
  type MessagePosted,
  type TourEvent,
} from '../../domain/tours/tour.types.ts';
import { offerPushRows, tourPushRows } from '../../projections/marketplace/pushRows.queries.ts';
import type { DB } from '../../storage/schema.ts';
import type { EventStore, RecordedEvent, Subscription } from '../eventstore/eventStore.ts';
import { readMarketplaceRows } from './marketplaceRow.ts';
import { MARKETPLACE_ROOM, organizationPermissionRoom, tourRoom, userRoom } from './rooms.ts';

export type Emit = (rooms: string[], event: string, payload: unknown) => void;
/** One message to the sockets of some rooms. */
export type Push = { rooms: string[]; event: string; payload: unknown };

const OFFER_EVENTS = new Set([
  'ProposalSubmitted',
  'ProposalRevised',
  'ProposalCountered',
  'CounterAccepted',
  'ProposalAccepted',
  'ProposalDeclined',
  'ProposalCanceled',
  'ContractUploaded',
]);
const TOUR_STATUS_EVENTS = new Set([
  'TourOpened',
  'CarrierConfirmed',
  'TourStatusChanged',
  'TourCanceled',
]);
const TOUR_TIMELINE_EVENTS = new Set(['TourAssigned', 'TourEventAdded', 'TourRated']);
/** Load events that can change what the marketplace shows (not the contract or the completion). */
const LOAD_EVENTS = new Set([
  'LoadPosted',
  'LoadUpdated',
  'LoadExpirationExtended',
  'LoadExpired',
  'LoadCanceled',
  'LoadProposalAccepted',
]);
/** Load events that take a listed load off the marketplace: carriers hear of them, once. */
const LEAVING_EVENTS = new Set(['LoadCanceled', 'LoadProposalAccepted']);
/** The read model whose commits carry rows to push. */
export const PUSHED_PROJECTION = 'marketplace';

/** How often the work of committed pages is sent to the other processes, at most. */
const SHARE_EVERY_MS = 20;

/** Adds `more` to `into`, in commit order: the later flags and timeline entries after the earlier. */
function mergeInto(into: RowWork, more: RowWork) {
  const offers = new Map(into.proposals);
  for (const [id, submitted] of more.proposals)
    offers.set(id, (offers.get(id) ?? false) || submitted);
  const tours = new Map(into.tours);
  for (const [id, entries] of more.tours) tours.set(id, [...(tours.get(id) ?? []), ...entries]);
  const loads = new Map(into.loads);
  for (const [id, flags] of more.loads) {
    const seen = loads.get(id);
    loads.set(
      id,
      seen
        ? { posted: seen.posted || flags.posted, leaving: seen.leaving || flags.leaving }
        : flags,
    );
  }
  into.proposals = [...offers];
  into.tours = [...tours];
  into.loads = [...loads];
}

export type CommittedListener = (projection: string, events: RecordedEvent[]) => void;

/** A timeline entry of a tour as `tour:status` and `tour:event` carry it. */
type TourEntry = { id: string; type: string; data: unknown; at: string };

/**
 * The data of a tour event as its entry carries it: without secrets (`publicEvent`) and without the
 * agreed price (TourOpened), since the tour's room and the assigned driver's hear the same message
 * and a driver is not told the price. The parties read it from the tour itself.
 */
function entryData(event: RecordedEvent): Record<string, unknown> {
  const { price: _price, ...data } = publicEvent(event).data;
  return data;
}

/** What a committed page changed, as ids: small enough to send to the other processes once a page. */
export type RowWork = {
  proposals: [offerId: string, submitted: boolean][];
  tours: [tourId: string, entries: TourEntry[]][];
  loads: [loadId: string, flags: { posted: boolean; leaving: boolean }][];
};

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

/** What a committed page of the marketplace read model changed: the rows to read and push. */
export function workOf(events: RecordedEvent[]): RowWork | null {
  const offers = new Map<string, boolean>(); // id -> submitted in this page
  const tours = new Map<string, TourEntry[]>();
  const loads = new Map<string, { posted: boolean; leaving: boolean }>();
  for (const event of events) {
    if (OFFER_EVENTS.has(event.type)) {
      const { proposalId: offerId } = (event as unknown as OfferEvent).data;
      offers.set(offerId, (offers.get(offerId) ?? false) || event.type === 'ProposalSubmitted');
    } else if (TOUR_STATUS_EVENTS.has(event.type) || TOUR_TIMELINE_EVENTS.has(event.type)) {
      const { tourId } = (event as unknown as TourEvent).data;
      tours.set(tourId, [
        ...(tours.get(tourId) ?? []),
        { id: event.id, type: event.type, data: entryData(event), at: event.metadata.at },
      ]);
    } else if (LOAD_EVENTS.has(event.type)) {
      const { loadId } = (event as unknown as LoadEvent).data as { loadId: string };
      const seen = loads.get(loadId) ?? { posted: false, leaving: false };
      loads.set(loadId, {
        posted: seen.posted || event.type === 'LoadPosted',
        leaving: seen.leaving || LEAVING_EVENTS.has(event.type),
      });
    }
  }
  if (offers.size === 0 && tours.size === 0 && loads.size === 0) return null;
  return { proposals: [...offers], tours: [...tours], loads: [...loads] };
}

/**
 * What the sockets hear of a committed page's work: the rows it changed, read once per kind, each with
 * its rooms. The webhooks decide who hears of an event by the same rooms (server/webhooks/audience.ts).
 */
export async function rowPushes(db: Kysely<DB>, work: RowWork): Promise<Push[]> {
  const pushes: Push[] = [];
  const emitLocal: Emit = (rooms, event, payload) => {
    pushes.push({ rooms, event, payload });
  };
  const offers = new Map(work.proposals);
  const tours = new Map(work.tours);
  for (const row of await offerPushRows(db, [...offers.keys()])) {
    if (offers.get(row.id)) {
      emitLocal(
        [organizationPermissionRoom(row.shipperOrganizationId, PROPOSAL_NEW_NOTIFICATION)],
        'proposal:new',
        {
          loadId: row.loadId,
          loadGuid: row.loadGuid,
          proposalId: row.id,
          carrier: { id: row.carrierOrganizationId, name: row.carrierName },
          price: row.price,
          at: row.submittedAt,
        },
      );
      // The offer may have changed again in the same page: the shipper's table hears where it stands.
      if (row.status === GenericStatus.SubmittedProposal) continue;
    }
    emitLocal(
      [
        organizationPermissionRoom(row.carrierOrganizationId, PROPOSAL_VIEW),
        organizationPermissionRoom(row.shipperOrganizationId, PROPOSAL_VIEW),
      ],
      'proposal:updated',
      {
        loadId: row.loadId,
        proposalId: row.id,
        status: row.status,
        price: row.price,
        counterPrice: row.counterPrice,
      },
    );
  }
  for (const row of await tourPushRows(db, [...tours.keys()])) {
    const rooms = [
      tourRoom(row.id),
      organizationPermissionRoom(row.shipperOrganizationId, TOURS_ALL),
      organizationPermissionRoom(row.carrierOrganizationId, TOURS_ALL),
    ];
    if (row.assigneeId) rooms.push(userRoom(row.assigneeId));
    // Each event is an entry of the tour's timeline; the status is the tour's row as committed.
    for (const event of tours.get(row.id) ?? []) {
      emitLocal(rooms, TOUR_STATUS_EVENTS.has(event.type) ? 'tour:status' : 'tour:event', {
        tourId: row.id,
        loadId: row.loadId,
        status: row.status,
        event,
      });
    }
  }
  const loadRows = await readMarketplaceRows(
    db,
    work.loads.map(([loadId]) => loadId),
  );
  for (const [loadId, { posted, leaving }] of work.loads) {
    const row = loadRows.get(loadId);
    // Carriers hear of a load that is on the marketplace (or paused there), or has just left it; of no other.
    if (!row || (row.status !== GenericStatus.Created && !leaving)) continue;
    emitLocal([MARKETPLACE_ROOM], posted ? 'load:posted' : 'load:updated', row);
  }
  return pushes;
}

/**
 * Events that are their own payload (positions, a chat message): what the tour's room hears, one
 * push per position of a batch, oldest first; none for any other event.
 */
export function livePushes(event: RecordedEvent): Push[] {
  if (POSITION_EVENT_TYPES.has(event.type)) {
    return positionsIn(event).map(
      ({ tourId, latitude, longitude, speed, heading, recordedAt }) => ({
        rooms: [tourRoom(tourId)],
        event: 'tour:position',
        payload: { tourId, latitude, longitude, speed, heading, recordedAt },
      }),
    );
  }
  if (event.type === 'MessagePosted') {
    const { tourId, messageId, userId, userName, organizationId, text, postedAt } = (
      event as unknown as MessagePosted
    ).data;
    return [
      {
        rooms: [tourRoom(tourId)],
        event: 'chat:message',
        payload: {
          tourId,
          message: {
            id: messageId,
            user: { id: userId, name: userName },
            organizationId,
            text,
            at: postedAt,
          },
        },
      },
    ];
  }
  return [];
}

export function createNotifier(deps: NotifierDeps): Notifier {
  const { store, db, logger } = deps;
  let starting: Promise<void> | null = null;
  let subscription: Subscription | null = null;
  let closed = false;
  // Committed pages are pushed in commit order, off the path of positions and chat.
  let rows: Promise<void> = Promise.resolve();

  const only =
    (emit: Emit): Emit =>
    (rooms, event, payload) => {
      // An empty room list would mean everyone.
      if (rooms.length > 0 && !closed) emit(rooms, event, payload);
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
    for (const push of pushes) emitLocal(push.rooms, push.event, push.payload);
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
