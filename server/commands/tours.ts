/**
 * The commands of a tour (stream `tour-<id>`) and of its positions (`tourpositions-<id>`): open it
 * for an accepted offer, confirm the carrier, assign a driver, move it along, note events, record
 * positions with the geofence rule, rate and cancel. This module is the only writer of both streams.
 */
import { randomUUID } from 'node:crypto';
import { GenericStatus, Role, TourStatus } from '../../domain/catalog.ts';
import type { TourStatusId } from '../../domain/catalog.ts';
import type { PostedLoad } from '../../domain/loads/load.types.ts';
import type { SubmittedOffer } from '../../domain/offers/offer.types.ts';
import { ForbiddenError, IllegalStateError, NotFoundError } from '../../domain/shared/errors.ts';
import { tourDecider, tourStatusName } from '../../domain/tours/tour.decide.ts';
import {
  tourPositionsStream,
  tourStream,
  type OpenedTour,
  type PositionsRecorded,
  type RatingEntry,
  type TourPosition,
  type Tour,
  type TourActor,
  type TourCommand,
  type TourEvent,
  type TourEventType,
  type TourStop,
} from '../../domain/tours/tour.types.ts';
import { hashShareToken, newShareToken } from '../auth/shareTokens.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import {
  StreamChangedError,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type LogPosition,
} from '../eventstore/eventStore.ts';
import { latest } from '../eventstore/eventStore.ts';
import { isSuperadmin, metadataOf, type Actor, type Caller } from './caller.ts';
import { isTourParty, tourActorOf, type StreamReaders } from './streams.ts';

/** How many tours' folds the positions path keeps (a few KB each). */
const FOLDED_TOURS_KEPT = 5_000;

export function createTourCommands(deps: { store: EventStore; readers: StreamReaders }) {
  const { store, readers } = deps;
  const { loadTour, requireActiveOrganization, identity } = readers;

  const runTour = (command: TourCommand, loadId: string, caller: Caller | null, now: string) =>
    handleCommand<Tour, TourCommand, TourEvent>(
      store,
      tourStream(command.data.tourId),
      tourDecider,
      command,
      metadataOf(caller, now, loadId),
    );

  /** A tour the caller is a party of (shipper, carrier, the assigned driver, a Superadmin); else not found. */
  const visibleTour = async (actor: Actor, tourId: string): Promise<OpenedTour> => {
    const tour = await loadTour(tourId);
    if (!tour || !isTourParty(actor, tour)) throw new NotFoundError('Tour not found');
    return tour;
  };

  /**
   * Tours as last folded by this process, for the positions path (every few seconds per truck):
   * used only under an append condition on the tour's revision, so a stale fold is never acted on.
   */
  type Folded = { state: Tour; revision: number };
  const foldedTours = new Map<string, Folded>();
  const rememberTour = (tourId: string, folded: Folded) => {
    foldedTours.delete(tourId);
    foldedTours.set(tourId, folded);
    // The oldest entry goes first (a Map keeps insertion order): a bound, not a policy.
    if (foldedTours.size > FOLDED_TOURS_KEPT) foldedTours.delete(foldedTours.keys().next().value!);
  };

  /** The tour, if positions may be recorded on it now by this caller; else the 404/403/409 that says why. */
  const checkPositionsAllowed = (caller: Caller | null, state: Tour): OpenedTour => {
    const tour = state.exists ? state : null;
    if (!tour || (caller && !isTourParty(caller.actor, tour)))
      throw new NotFoundError('Tour not found');
    if (caller && caller.actor.userId !== tour.assigneeId && !isSuperadmin(caller.actor)) {
      throw new ForbiddenError('Only the assigned driver sends positions');
    }
    if (
      ![
        TourStatus.ReadyForPickup,
        TourStatus.Dispatched,
        TourStatus.InTransit,
        TourStatus.PendingDeliveryConfirmation,
      ].includes(tour.status as never)
    ) {
      throw new IllegalStateError(
        `Positions are recorded while the tour is on the road, not while it is ${tourStatusName(tour.status)}`,
      );
    }
    return tour;
  };

  return {
    visibleTour,

    /** The tour of an accepted offer, opened once (nothing when it exists already). */
    async openForAcceptance(
      load: PostedLoad,
      offer: SubmittedOffer,
      tourId: string,
      caller: Caller | null,
      now: string,
    ): Promise<LogPosition | null> {
      if (await loadTour(tourId)) return null;
      const stops: TourStop[] = load.details.stops.map((stop) => ({
        id: stop.id,
        locationType: stop.locationType,
        name: stop.name,
        address: stop.address,
        city: stop.city,
        state: stop.state,
        latitude: stop.latitude,
        longitude: stop.longitude,
      }));
      const opened = await runTour(
        {
          type: 'OpenTour',
          data: {
            tourId,
            loadId: load.loadId,
            loadGuid: load.guid,
            proposalId: offer.proposalId,
            shipperOrganizationId: load.shipperOrganizationId,
            carrierOrganizationId: offer.carrierOrganizationId,
            price: load.price ?? offer.price,
            eldTruckName: offer.eldTruckName,
            stops,
            now,
          },
        },
        load.loadId,
        caller,
        now,
      );
      return opened.position;
    },

    /** The carrier's signed contract confirms it on the tour (while the tour waits for it). */
    async confirmCarrier(
      tourId: string | null,
      loadId: string,
      contractFileId: string,
      caller: Caller,
      now: string,
    ): Promise<LogPosition | null> {
      const tour = tourId ? await loadTour(tourId) : null;
      if (
        !tour ||
        (tour.status !== TourStatus.BidAccepted && tour.status !== TourStatus.CarrierConfirmed)
      )
        return null;
      return (
        await runTour(
          { type: 'ConfirmCarrier', data: { tourId: tour.tourId, contractFileId, now } },
          loadId,
          caller,
          now,
        )
      ).position;
    },

    /** The tour's side of a load's cancellation, by its shipper or a Superadmin. */
    async cancelForLoad(
      tour: OpenedTour,
      caller: Caller,
      message: string,
      now: string,
    ): Promise<LogPosition | null> {
      if (tour.status === TourStatus.Canceled) return null;
      const actor = {
        ...tourActorOf(caller.actor),
        party: isSuperadmin(caller.actor) ? 'admin' : 'shipper',
      } as TourActor;
      return (
        await runTour(
          { type: 'CancelTour', data: { tourId: tour.tourId, actor, message, now } },
          tour.loadId,
          caller,
          now,
        )
      ).position;
    },

    async assignTour(caller: Caller, tourId: string, assigneeId: string, now: string) {
      const { actor } = caller;
      const tour = await loadTour(tourId);
      if (!tour || !isTourParty(actor, tour)) throw new NotFoundError('Tour not found');
      const driver = await identity.loadUser(assigneeId);
      if (
        !driver ||
        driver.roleId !== Role.Driver ||
        driver.organizationId !== tour.carrierOrganizationId
      )
        throw new NotFoundError('Driver not found');
      if (driver.status !== GenericStatus.Active)
        throw new IllegalStateError('This driver is not active');
      await requireActiveOrganization(actor);
      return (
        await runTour(
          {
            type: 'AssignTour',
            data: { tourId, actor: tourActorOf(actor), assigneeId, assigneeName: driver.name, now },
          },
          tour.loadId,
          caller,
          now,
        )
      ).position;
    },

    /** The tour's side of a status change (the load's completion on delivery is `shipments.ts`'s). */
    async changeStatus(
      caller: Caller,
      tourId: string,
      to: TourStatusId,
      message: string,
      now: string,
    ) {
      const { actor } = caller;
      const tour = await loadTour(tourId);
      if (!tour || !isTourParty(actor, tour)) throw new NotFoundError('Tour not found');
      if (to === TourStatus.Canceled) {
        return {
          tour,
          position: (
            await runTour(
              { type: 'CancelTour', data: { tourId, actor: tourActorOf(actor), message, now } },
              tour.loadId,
              caller,
              now,
            )
          ).position,
        };
      }
      return {
        tour,
        position: (
          await runTour(
            {
              type: 'ChangeTourStatus',
              data: { tourId, actor: tourActorOf(actor), to, message, now },
            },
            tour.loadId,
            caller,
            now,
          )
        ).position,
      };
    },

    async addTourEvent(
      caller: Caller,
      tourId: string,
      entry: { type: TourEventType; message: string; stopId: string | null },
      now: string,
    ) {
      const tour = await loadTour(tourId);
      if (!tour || !isTourParty(caller.actor, tour)) throw new NotFoundError('Tour not found');
      const eventId = randomUUID();
      const result = await runTour(
        {
          type: 'AddTourEvent',
          data: { tourId, actor: tourActorOf(caller.actor), eventId, ...entry, now },
        },
        tour.loadId,
        caller,
        now,
      );
      return { id: eventId, position: result.position };
    },

    /** A note the system adds to a tour's timeline (no author), caused by the event `causationId`. */
    async addSystemTourEvent(
      tourId: string,
      entry: { type: TourEventType; message: string; stopId: string | null },
      causationId: string,
      now: string,
    ) {
      const tour = await loadTour(tourId);
      if (!tour) throw new NotFoundError('Tour not found');
      const eventId = randomUUID();
      const result = await handleCommand<Tour, TourCommand, TourEvent>(
        store,
        tourStream(tourId),
        tourDecider,
        {
          type: 'AddTourEvent',
          data: { tourId, actor: tourActorOf(null), eventId, ...entry, now },
        },
        { userId: null, organizationId: null, correlationId: tour.loadId, causationId, at: now },
      );
      return { id: eventId, position: result.position };
    },

    /** Positions from the assigned driver (or, with no caller, the ELD poller), then the geofence rule. */
    async recordPositions(
      caller: Caller | null,
      tourId: string,
      positions: TourPosition[],
      now: string,
    ) {
      // The tour as last folded here serves the checks and the geofence with no read: the batch is
      // appended only while the tour's stream still stands at that revision (one statement). When
      // the tour moved on (a status change, another process), or the remembered fold refuses the
      // caller, it is read and folded afresh and decided again.
      const fold = async (): Promise<Folded> => {
        const { events: history, revision } = await store.readStream<TourEvent>(tourStream(tourId));
        return { state: history.reduce(tourDecider.evolve, tourDecider.initialState()), revision };
      };
      const sorted = [...positions].sort((a, b) => a.recordedAt.localeCompare(b.recordedAt));
      // The batch is one event: one row in the log, one read and one projection step for every reader.
      const events: PositionsRecorded[] = [
        {
          type: 'PositionsRecorded',
          data: { tourId, source: caller ? 'driver' : 'eld', positions: sorted },
        },
      ];
      const remembered = foldedTours.get(tourId);
      let conditional = remembered !== undefined;
      let current = remembered ?? (await fold());
      let appended: AppendResult;
      let tour: OpenedTour;
      for (;;) {
        try {
          tour = checkPositionsAllowed(caller, current.state);
          appended = await store.append(tourPositionsStream(tourId), events, {
            expectedRevision: 'any',
            metadata: metadataOf(caller, now, tour.loadId),
            ...(conditional
              ? { unchanged: { streamId: tourStream(tourId), revision: current.revision } }
              : {}),
          });
          break;
        } catch (error) {
          // Only a remembered fold is read again (a refusal of a fresh one stands, as does a failed write).
          const stale =
            error instanceof StreamChangedError ||
            error instanceof NotFoundError ||
            error instanceof ForbiddenError ||
            error instanceof IllegalStateError;
          if (!conditional || !stale) throw error;
          foldedTours.delete(tourId);
          current = await fold();
          conditional = false;
        }
      }
      if (!conditional && current.state.exists) rememberTour(tourId, current);
      // The geofence over the whole batch in one decision: fold the tour once, observe each position
      // on the evolving state, append what it caused in one go (retried once on a concurrent change).
      let observedAt: LogPosition | null = null;
      for (let attempt = 0; ; attempt++) {
        let { state } = current;
        const caused: TourEvent[] = [];
        for (const position of sorted) {
          const decided = tourDecider.decide(
            {
              type: 'ObservePosition',
              data: {
                tourId,
                latitude: position.latitude,
                longitude: position.longitude,
                recordedAt: position.recordedAt,
                now,
              },
            },
            state,
          );
          state = decided.reduce(tourDecider.evolve, state);
          caused.push(...decided);
        }
        if (caused.length === 0) break;
        try {
          const result = await store.append(tourStream(tourId), caused, {
            expectedRevision: current.revision,
            metadata: metadataOf(null, now, tour.loadId),
          });
          observedAt = result.position;
          rememberTour(tourId, { state, revision: result.nextExpectedRevision });
          break;
        } catch (error) {
          foldedTours.delete(tourId);
          if (!(error instanceof WrongExpectedRevisionError) || attempt >= 1) throw error;
          current = await fold();
        }
      }
      return { accepted: sorted.length, position: latest(appended.position, observedAt), tour };
    },

    /**
     * A read-only tracking link for the receiver: a random token (256 bits, base64url) shown once;
     * the tour's stream keeps only its hash. The caller must be a party of the tour (else not found).
     */
    async shareTour(caller: Caller, tourId: string, expiresInHours: number, now: string) {
      const { actor } = caller;
      if (isSuperadmin(actor))
        throw new ForbiddenError("Only the tour's shipper or carrier shares its tracking");
      const tour = await visibleTour(actor, tourId);
      const token = newShareToken();
      const shareId = randomUUID();
      const expiresAt = new Date(Date.parse(now) + expiresInHours * 3_600_000).toISOString();
      const result = await runTour(
        {
          type: 'ShareTour',
          data: {
            tourId,
            actor: tourActorOf(actor),
            shareId,
            tokenHash: hashShareToken(token),
            expiresAt,
            now,
          },
        },
        tour.loadId,
        caller,
        now,
      );
      return { token, shareId, expiresAt, position: result.position };
    },

    /** Ends a link of the caller's side at once. */
    async revokeTourShare(caller: Caller, tourId: string, shareId: string, now: string) {
      const { actor } = caller;
      if (isSuperadmin(actor))
        throw new ForbiddenError("Only the tour's shipper or carrier revokes its tracking links");
      const tour = await visibleTour(actor, tourId);
      return (
        await runTour(
          { type: 'RevokeTrackingLink', data: { tourId, actor: tourActorOf(actor), shareId, now } },
          tour.loadId,
          caller,
          now,
        )
      ).position;
    },

    async rateTour(caller: Caller, tourId: string, ratings: RatingEntry[], now: string) {
      const tour = await loadTour(tourId);
      if (!tour || !isTourParty(caller.actor, tour)) throw new NotFoundError('Tour not found');
      return (
        await runTour(
          { type: 'RateTour', data: { tourId, actor: tourActorOf(caller.actor), ratings, now } },
          tour.loadId,
          caller,
          now,
        )
      ).position;
    },
  };
}
export type TourCommands = ReturnType<typeof createTourCommands>;
