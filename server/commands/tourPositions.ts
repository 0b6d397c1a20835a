/**
 * The truck's positions on a tour (stream `tourpositions-<id>`): recorded from the assigned driver or
 * the ELD poller, then the geofence rule on the tour's stream.
 */
import { TourStatus } from '../../domain/catalog.ts';
import { ForbiddenError, IllegalStateError, NotFoundError } from '../../domain/shared/errors.ts';
import { tourDecider, tourStatusName } from '../../domain/tours/tour.decide.ts';
import {
  tourPositionsStream,
  tourStream,
  type OpenedTour,
  type PositionsRecorded,
  type Tour,
  type TourEvent,
  type TourPosition,
} from '../../domain/tours/tour.types.ts';
import {
  latest,
  StreamChangedError,
  WrongExpectedRevisionError,
  type AppendResult,
  type LogPosition,
} from '../eventstore/eventStore.ts';
import { isSuperadmin, metadataOf, type Caller } from './caller.ts';
import { isTourParty } from './streams.ts';
import type { TourCommandDeps } from './tourAccess.ts';

/** How many tours' folds the positions path keeps (a few KB each). */
const FOLDED_TOURS_KEPT = 5_000;

export function createTourPositionCommands(deps: TourCommandDeps) {
  const { store } = deps;

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
  };
}
