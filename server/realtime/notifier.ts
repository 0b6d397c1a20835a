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
 * | `tour:position` | PositionRecorded | `tour:<id>` |
 * | `chat:message` | MessagePosted | `tour:<id>` |
 *
 * Rows come from the read side: the projection runner tells the notifier which events a page of
 * the marketplace read model held once that page is committed, and the notifier pushes the rows
 * those events changed, read once per page (a load, an offer, a tour), as the read model has them.
 * A client can put the pushed row in its table as it is; nothing is re-folded from the streams. The
 * process that runs the marketplace projection pushes, through the socket.io adapter to the sockets
 * of every process (`emit`).
 *
 * Positions and chat messages are their events' own data: every process follows the log from the
 * moment its first socket connects and pushes them to its own sockets (`emitLocal`), so a watcher
 * hears each position exactly once, also while another process takes the projections over.
 * A user blocked or deleted has its sockets here closed at once (UserBlocked, UserDeleted).
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { GenericStatus } from '../../domain/catalog.ts';
import type { LoadEvent } from '../../domain/loads/load.types.ts';
import { PROPOSAL_NEW_NOTIFICATION, PROPOSAL_VIEW, TOURS_ALL } from '../../domain/permissions.ts';
import type { ProposalEvent } from '../../domain/proposals/proposal.types.ts';
import type { MessagePosted, PositionRecorded, TourEvent } from '../../domain/tours/tour.types.ts';
import { proposalPushRows, tourPushRows } from '../../projections/marketplace/pushRows.queries.ts';
import type { DB } from '../../storage/schema.ts';
import type { EventStore, RecordedEvent, Subscription } from '../eventstore/eventStore.ts';
import { readMarketplaceRows } from './marketplaceRow.ts';
import { MARKETPLACE_ROOM, organizationPermissionRoom, tourRoom, userRoom } from './rooms.ts';

export type Emit = (rooms: string[], event: string, payload: unknown) => void;

const PROPOSAL_EVENTS = new Set(['ProposalSubmitted', 'ProposalRevised', 'ProposalCountered', 'CounterAccepted', 'ProposalAccepted', 'ProposalDeclined', 'ProposalCanceled', 'ContractUploaded']);
const TOUR_STATUS_EVENTS = new Set(['TourOpened', 'CarrierConfirmed', 'TourStatusChanged', 'TourCanceled']);
const TOUR_TIMELINE_EVENTS = new Set(['TourAssigned', 'TourEventAdded', 'TourRated']);
/** Load events that can change what the marketplace shows (not the contract or the completion). */
const LOAD_EVENTS = new Set(['LoadPosted', 'LoadUpdated', 'LoadExpirationExtended', 'LoadExpired', 'LoadCanceled', 'LoadProposalAccepted']);
/** Load events that take a listed load off the marketplace: carriers hear of them, once. */
const LEAVING_EVENTS = new Set(['LoadCanceled', 'LoadProposalAccepted']);
/** The read model whose commits carry rows to push. */
export const PUSHED_PROJECTION = 'marketplace';

export type CommittedListener = (projection: string, events: RecordedEvent[]) => void;

export type NotifierDeps = {
  store: EventStore;
  db: Kysely<DB>;
  /** The projection runner of this process: `listener` hears each committed page of the live read models. */
  onCommitted(listener: CommittedListener): () => void;
  /** Sends to the rooms' sockets of every server process. */
  emit: Emit;
  /** Whether a socket anywhere could hear a push (false: committed pages are not read at all). */
  listening(): boolean;
  /** Sends to the rooms' sockets of this process only. */
  emitLocal: Emit;
  /** Closes every socket of the user in this process. */
  endUser: (userId: string) => void;
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

  const only = (emit: Emit): Emit => (rooms, event, payload) => {
    // An empty room list would mean everyone.
    if (rooms.length > 0 && !closed) emit(rooms, event, payload);
  };
  const emit = only(deps.emit);
  const emitLocal = only(deps.emitLocal);

  /** A committed page of the marketplace read model: the rows it changed, each read once. */
  async function pushRows(events: RecordedEvent[]) {
    const proposals = new Map<string, boolean>(); // id -> submitted in this page
    const tours = new Map<string, RecordedEvent[]>();
    const loads = new Map<string, { posted: boolean; leaving: boolean }>();
    for (const event of events) {
      if (PROPOSAL_EVENTS.has(event.type)) {
        const { proposalId } = (event as unknown as ProposalEvent).data;
        proposals.set(proposalId, (proposals.get(proposalId) ?? false) || event.type === 'ProposalSubmitted');
      } else if (TOUR_STATUS_EVENTS.has(event.type) || TOUR_TIMELINE_EVENTS.has(event.type)) {
        const { tourId } = (event as unknown as TourEvent).data;
        tours.set(tourId, [...(tours.get(tourId) ?? []), event]);
      } else if (LOAD_EVENTS.has(event.type)) {
        const { loadId } = (event as unknown as LoadEvent).data as { loadId: string };
        const seen = loads.get(loadId) ?? { posted: false, leaving: false };
        loads.set(loadId, { posted: seen.posted || event.type === 'LoadPosted', leaving: seen.leaving || LEAVING_EVENTS.has(event.type) });
      }
    }
    for (const row of await proposalPushRows(db, [...proposals.keys()])) {
      if (proposals.get(row.id)) {
        emit([organizationPermissionRoom(row.shipperOrganizationId, PROPOSAL_NEW_NOTIFICATION)], 'proposal:new', {
          loadId: row.loadId, loadGuid: row.loadGuid, proposalId: row.id, carrier: { id: row.carrierOrganizationId, name: row.carrierName }, price: row.price, at: row.submittedAt,
        });
        // The offer may have changed again in the same page: the shipper's table hears where it stands.
        if (row.status === GenericStatus.SubmittedProposal) continue;
      }
      emit([organizationPermissionRoom(row.carrierOrganizationId, PROPOSAL_VIEW), organizationPermissionRoom(row.shipperOrganizationId, PROPOSAL_VIEW)], 'proposal:updated', {
        loadId: row.loadId, proposalId: row.id, status: row.status, price: row.price, counterPrice: row.counterPrice,
      });
    }
    for (const row of await tourPushRows(db, [...tours.keys()])) {
      const rooms = [tourRoom(row.id), organizationPermissionRoom(row.shipperOrganizationId, TOURS_ALL), organizationPermissionRoom(row.carrierOrganizationId, TOURS_ALL)];
      if (row.assigneeId) rooms.push(userRoom(row.assigneeId));
      // Each event is an entry of the tour's timeline; the status is the tour's row as committed.
      for (const event of tours.get(row.id) ?? []) {
        emit(rooms, TOUR_STATUS_EVENTS.has(event.type) ? 'tour:status' : 'tour:event', {
          tourId: row.id, loadId: row.loadId, status: row.status,
          event: { id: event.id, type: event.type, data: event.data, at: event.metadata.at },
        });
      }
    }
    const loadRows = await readMarketplaceRows(db, [...loads.keys()]);
    for (const [loadId, { posted, leaving }] of loads) {
      const row = loadRows.get(loadId);
      // Carriers hear of a load that is on the marketplace (or paused there), or has just left it; of no other.
      if (!row || (row.status !== GenericStatus.Created && !leaving)) continue;
      emit([MARKETPLACE_ROOM], posted ? 'load:posted' : 'load:updated', row);
    }
  }

  const stopListening = deps.onCommitted((projection, events) => {
    if (projection !== PUSHED_PROJECTION || closed || !deps.listening()) return;
    rows = rows.then(() => pushRows(events))
      .catch((err: unknown) => logger.warn({ err, count: events.length }, 'notifier could not push the rows of a committed page'));
  });

  /** Events that are their own payload, told by every process to its own sockets. */
  async function handlePage(page: RecordedEvent[]) {
    for (const event of page) {
      if (closed) return;
      if (event.type === 'PositionRecorded') {
        const { tourId, latitude, longitude, speed, heading, recordedAt } = (event as unknown as PositionRecorded).data;
        emitLocal([tourRoom(tourId)], 'tour:position', { tourId, latitude, longitude, speed, heading, recordedAt });
      } else if (event.type === 'MessagePosted') {
        const { tourId, messageId, userId, userName, organizationId, text, postedAt } = (event as unknown as MessagePosted).data;
        emitLocal([tourRoom(tourId)], 'chat:message', { tourId, message: { id: messageId, user: { id: userId, name: userName }, organizationId, text, at: postedAt } });
      } else if (event.type === 'UserBlocked' || event.type === 'UserDeleted') {
        deps.endUser(String((event.data as { userId: string }).userId));
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
      await starting?.catch(() => undefined);
      await subscription?.close();
      await rows;
    },
  };
}
