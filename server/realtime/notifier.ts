/**
 * The notifier: follows the event log and tells the browsers that care (API.md "Realtime").
 *
 * | event | from | to |
 * |---|---|---|
 * | `proposal:new` | ProposalSubmitted | the load's shipper organization, members holding 407 |
 * | `proposal:updated` | every other proposal event | both organizations, members holding 404 |
 * | `load:posted`, `load:updated` | load events of a load that is or was on the marketplace | `marketplace` |
 * | `tour:status` | TourOpened, CarrierConfirmed, TourStatusChanged, TourCanceled | `tour:<id>`, both organizations (503), the driver |
 * | `tour:event` | TourAssigned, TourEventAdded, TourRated | the same |
 * | `tour:position` | PositionRecorded | `tour:<id>` |
 * | `chat:message` | MessagePosted | `tour:<id>` |
 *
 * Every server process runs its own notifier and emits only to its own sockets (`emitLocal`): each
 * process reads the whole log anyway, so no emit needs to cross processes, none is sent twice, and
 * none waits for a NOTIFY round trip. It starts from the head of the log when the first socket of
 * the process connects: before that nobody here could hear anything.
 *
 * A user blocked or deleted has its sockets closed here at once (UserBlocked, UserDeleted).
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { GenericStatus } from '../../domain/catalog.ts';
import { loadDecider } from '../../domain/loads/load.decide.ts';
import type { Load } from '../../domain/loads/load.types.ts';
import { PROPOSAL_NEW_NOTIFICATION, PROPOSAL_VIEW, TOURS_ALL } from '../../domain/permissions.ts';
import { proposalDecider } from '../../domain/proposals/proposal.decide.ts';
import type { Proposal } from '../../domain/proposals/proposal.types.ts';
import type { Decider } from '../../domain/shared/event.ts';
import { tourDecider } from '../../domain/tours/tour.decide.ts';
import type { MessagePosted, PositionRecorded, Tour } from '../../domain/tours/tour.types.ts';
import type { EventStore, LogPosition, RecordedEvent, Subscription } from '../eventstore/eventStore.ts';
import { readMarketplaceRow } from './marketplaceRow.ts';
import { MARKETPLACE_ROOM, organizationPermissionRoom, tourRoom, userRoom } from './rooms.ts';

export type Emit = (rooms: string[], event: string, payload: unknown) => void;

const PROPOSAL_EVENTS = new Set(['ProposalSubmitted', 'ProposalRevised', 'ProposalCountered', 'CounterAccepted', 'ProposalAccepted', 'ProposalDeclined', 'ProposalCanceled', 'ContractUploaded']);
const TOUR_STATUS_EVENTS = new Set(['TourOpened', 'CarrierConfirmed', 'TourStatusChanged', 'TourCanceled']);
const TOUR_TIMELINE_EVENTS = new Set(['TourAssigned', 'TourEventAdded', 'TourRated']);
/** Load events that can change what the marketplace shows (not the contract or the completion). */
const LOAD_EVENTS = new Set(['LoadPosted', 'LoadUpdated', 'LoadExpirationExtended', 'LoadExpired', 'LoadCanceled', 'LoadProposalAccepted']);
/** The read models the marketplace row is read from. */
const MARKETPLACE_VIEWS = ['marketplace', 'organizations'];

export type NotifierDeps = {
  store: EventStore;
  db: Kysely<any>;
  runner: { waitFor(names: readonly string[], position: LogPosition | null, timeoutMs?: number): Promise<boolean> };
  /** The name of a carrier organization, for `proposal:new`. */
  organizationName: (organizationId: string) => Promise<string | null>;
  emitLocal: Emit;
  /** Closes every socket of the user in this process. */
  endUser: (userId: string) => void;
  logger: Pick<Logger, 'warn'>;
};

export type Notifier = { start(): Promise<void>; close(): Promise<void> };

/** The aggregate's state just after the event of that revision. */
const stateAt = <S>(decider: Pick<Decider<S, any, any>, 'initialState' | 'evolve'>, events: RecordedEvent[], revision: number): S =>
  events.filter((event) => event.streamRevision <= revision).reduce<S>((state, event) => decider.evolve(state, event as never), decider.initialState());

const isOpen = (load: Load, at: string): boolean => load.posted && load.status === GenericStatus.Created && load.details.expiration > at;

export function createNotifier(deps: NotifierDeps): Notifier {
  const { store, db, runner, emitLocal, logger } = deps;
  let starting: Promise<void> | null = null;
  let subscription: Subscription | null = null;
  let closed = false;
  // Load rows wait for the read model; they are sent in order, off the path of positions and chat.
  let loadRows: Promise<void> = Promise.resolve();

  const emit: Emit = (rooms, event, payload) => {
    // An empty room list would mean everyone.
    if (rooms.length > 0) emitLocal(rooms, event, payload);
  };

  async function handlePage(page: RecordedEvent[]) {
    // Each stream a page needs is read once; its state at each event is folded from it.
    const streams = new Map<string, Promise<RecordedEvent[]>>();
    const streamOf = (streamId: string) => {
      let events = streams.get(streamId);
      if (!events) streams.set(streamId, events = store.readStream(streamId).then((result) => result.events));
      return events;
    };
    for (const event of page) {
      if (closed) return;
      try {
        await notify(event, streamOf);
      } catch (err) {
        // One event that cannot be told must not hold back (or repeat) the others.
        logger.warn({ err, type: event.type, streamId: event.streamId }, 'notifier could not tell an event');
      }
    }
  }

  async function notify(event: RecordedEvent, streamOf: (streamId: string) => Promise<RecordedEvent[]>) {
    if (event.type === 'PositionRecorded') {
      const { tourId, latitude, longitude, speed, heading, recordedAt } = (event as unknown as PositionRecorded).data;
      emit([tourRoom(tourId)], 'tour:position', { tourId, latitude, longitude, speed, heading, recordedAt });
      return;
    }
    if (event.type === 'MessagePosted') {
      const { tourId, messageId, userId, userName, organizationId, text, postedAt } = (event as unknown as MessagePosted).data;
      emit([tourRoom(tourId)], 'chat:message', { tourId, message: { id: messageId, user: { id: userId, name: userName }, organizationId, text, at: postedAt } });
      return;
    }
    if (PROPOSAL_EVENTS.has(event.type)) {
      const proposal = stateAt<Proposal>(proposalDecider, await streamOf(event.streamId), event.streamRevision);
      if (!proposal.exists) return;
      if (event.type === 'ProposalSubmitted') {
        const carrier = { id: proposal.carrierOrganizationId, name: await deps.organizationName(proposal.carrierOrganizationId) };
        emit([organizationPermissionRoom(proposal.shipperOrganizationId, PROPOSAL_NEW_NOTIFICATION)], 'proposal:new', {
          loadId: proposal.loadId, loadGuid: proposal.loadGuid, proposalId: proposal.proposalId, carrier, price: proposal.price, at: proposal.submittedAt,
        });
        return;
      }
      emit([organizationPermissionRoom(proposal.carrierOrganizationId, PROPOSAL_VIEW), organizationPermissionRoom(proposal.shipperOrganizationId, PROPOSAL_VIEW)], 'proposal:updated', {
        loadId: proposal.loadId, proposalId: proposal.proposalId, status: proposal.status, price: proposal.price, counterPrice: proposal.counterPrice,
      });
      return;
    }
    if (TOUR_STATUS_EVENTS.has(event.type) || TOUR_TIMELINE_EVENTS.has(event.type)) {
      const tour = stateAt<Tour>(tourDecider, await streamOf(event.streamId), event.streamRevision);
      if (!tour.exists) return;
      const rooms = [tourRoom(tour.tourId), organizationPermissionRoom(tour.shipperOrganizationId, TOURS_ALL), organizationPermissionRoom(tour.carrierOrganizationId, TOURS_ALL)];
      if (tour.assigneeId) rooms.push(userRoom(tour.assigneeId));
      emit(rooms, TOUR_STATUS_EVENTS.has(event.type) ? 'tour:status' : 'tour:event', {
        tourId: tour.tourId, loadId: tour.loadId, status: tour.status,
        event: { id: event.id, type: event.type, data: event.data, at: event.metadata.at },
      });
      return;
    }
    if (LOAD_EVENTS.has(event.type)) {
      const events = await streamOf(event.streamId);
      const before = stateAt<Load>(loadDecider, events, event.streamRevision - 1);
      const after = stateAt<Load>(loadDecider, events, event.streamRevision);
      if (!after.posted) return;
      // Carriers hear of a load that is on the marketplace, or has just left it (even by expiring,
      // which the scheduler records after the fact); of no other.
      const wasListed = before.posted && before.status === GenericStatus.Created;
      if (!wasListed && !isOpen(after, event.metadata.at)) return;
      const name = event.type === 'LoadPosted' ? 'load:posted' : 'load:updated';
      loadRows = loadRows.then(async () => {
        if (closed) return;
        // Up to 10 s: when the process that ran the projection died, another takes it over in a few seconds.
        for (let attempt = 0; attempt < 5 && !closed; attempt += 1) {
          if (await runner.waitFor(MARKETPLACE_VIEWS, event.position, 2000)) break;
        }
        const row = await readMarketplaceRow(db, after.loadId);
        if (row && !closed) emit([MARKETPLACE_ROOM], name, row);
      }).catch((err) => logger.warn({ err, loadId: after.loadId }, 'notifier could not send a load row'));
      return;
    }
    if (event.type === 'UserBlocked' || event.type === 'UserDeleted') {
      deps.endUser(String((event.data as { userId: string }).userId));
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
      await starting?.catch(() => undefined);
      await subscription?.close();
      await loadRows;
    },
  };
}
