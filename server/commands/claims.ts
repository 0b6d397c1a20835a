/**
 * The commands of a tour's accessorial claims (stream `accessorials-<tourId>`, docs/domain.md
 * "Accessorial terms and claims"): the claims the platform produces from the recorded evidence (a
 * stop's departure, a cancellation), the driver's lumper receipt, and each side's answer: the
 * shipper approves or disputes, the carrier answers or adds a note, the Superadmin settles, and the
 * scheduler approves by silence. This module is the only writer of the stream.
 */
import type { Kysely } from 'kysely';
import { LocationType, Role, TourStatus, type TourStatusId } from '../../domain/catalog.ts';
import { claimDecider } from '../../domain/claims/claim.decide.ts';
import {
  claimsStream,
  type ClaimCommand,
  type ClaimContext,
  type ClaimEvent,
  type ClaimEvidence,
  type InsidePosition,
  type TourClaims,
} from '../../domain/claims/claim.types.ts';
import type { PostedLoad } from '../../domain/loads/load.types.ts';
import { agreedTerms } from '../../domain/loads/terms.ts';
import { uuidV5 } from '../../domain/offers/offer.decide.ts';
import { ForbiddenError, NotFoundError } from '../../domain/shared/errors.ts';
import { distanceMeters, GEOFENCE_METERS } from '../../domain/tours/geo.ts';
import {
  positionsIn,
  tourPositionsStream,
  tourStream,
  type OpenedTour,
  type TourEventAdded,
} from '../../domain/tours/tour.types.ts';
import type { DB } from '../../storage/schema.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { EventStore } from '../eventstore/eventStore.ts';
import { createFileStore } from '../integrations/files/files.ts';
import { isSuperadmin, metadataOf, type Actor, type Caller } from './caller.ts';
import { isTourParty } from './streams.ts';

const CLAIM_NAMESPACE = '0b6f5c2e-8a41-4e7d-9c3b-2f1a7d5e9c40';
/** The evidence keeps at most this many positions inside the geofence (evenly spread). */
const MAX_POSITIONS = 24;

/** One claim of a kind per stop (per tour for TONU): the same facts always give the same id. */
export const claimIdFor = (tourId: string, kind: string, stopIndex: number | null) =>
  uuidV5(`${tourId}:${kind}:${stopIndex ?? 'tour'}`, CLAIM_NAMESPACE);

const spread = <T>(list: T[], max: number): T[] =>
  list.length <= max
    ? list
    : Array.from(
        { length: max },
        (_, index) => list[Math.round((index * (list.length - 1)) / (max - 1))]!,
      );

export function createClaimCommands(deps: {
  store: EventStore;
  db: Kysely<DB>;
  loadTour: (tourId: string) => Promise<OpenedTour | null>;
  loadLoad: (loadId: string) => Promise<PostedLoad | null>;
}) {
  const { store, loadTour, loadLoad } = deps;
  const files = createFileStore(deps.db);

  const run = (
    tourId: string,
    loadId: string,
    command: ClaimCommand,
    caller: Caller | null,
    now: string,
  ) =>
    handleCommand<TourClaims, ClaimCommand, ClaimEvent>(
      store,
      claimsStream(tourId),
      claimDecider,
      command,
      metadataOf(caller, now, loadId),
    );

  const contextOf = (tour: OpenedTour, load: PostedLoad): ClaimContext => ({
    tourId: tour.tourId,
    loadId: tour.loadId,
    shipperOrganizationId: tour.shipperOrganizationId,
    carrierOrganizationId: tour.carrierOrganizationId,
    terms: load.agreedTerms ?? agreedTerms(load.details, null),
  });

  /** A tour the caller may see (its parties, its driver, a Superadmin); else not found. */
  const visibleTour = async (actor: Actor, tourId: string): Promise<OpenedTour> => {
    const tour = await loadTour(tourId);
    if (!tour || !isTourParty(actor, tour)) throw new NotFoundError('Tour not found');
    return tour;
  };

  const loadOf = async (tour: OpenedTour): Promise<PostedLoad> => {
    const load = await loadLoad(tour.loadId);
    if (!load) throw new NotFoundError('Load not found');
    return load;
  };

  /** The stop's recorded arrival and departure, its appointment and the positions inside it. */
  const evidenceAt = async (
    tour: OpenedTour,
    load: PostedLoad,
    stopIndex: number,
  ): Promise<ClaimEvidence | null> => {
    const stop = tour.stops[stopIndex];
    if (!stop) return null;
    const { events } = await store.readStream(tourStream(tour.tourId));
    const entries = events
      .filter((event) => event.type === 'TourEventAdded')
      .map((event) => (event as unknown as TourEventAdded).data)
      .filter((entry) => entry.stopId === stop.id);
    const arrivedAt = entries.find((entry) => entry.type === 'arrived')?.at ?? null;
    const leftAt = entries.find((entry) => entry.type === 'departed')?.at ?? null;
    const last = stopIndex === tour.stops.length - 1;
    const appointmentAt =
      stopIndex === 0 ? load.details.pickupStart : last ? load.details.dropoffStart : null;
    let positionsInside: InsidePosition[] = [];
    if (arrivedAt && leftAt) {
      const from = Date.parse(arrivedAt);
      const to = Date.parse(leftAt);
      const recorded = (await store.readStream(tourPositionsStream(tour.tourId))).events.flatMap(
        (event) => positionsIn(event),
      );
      positionsInside = spread(
        recorded
          .filter((position) => {
            const at = Date.parse(position.recordedAt);
            return at >= from && at <= to && distanceMeters(position, stop) <= GEOFENCE_METERS;
          })
          .map((position) => ({
            latitude: position.latitude,
            longitude: position.longitude,
            at: position.recordedAt,
          })),
        MAX_POSITIONS,
      );
    }
    return { arrivedAt, leftAt, appointmentAt, positionsInside };
  };

  const claimAs = async (actor: Actor, tourId: string, claimId: string) => {
    const tour = await visibleTour(actor, tourId);
    const { events } = await store.readStream<ClaimEvent>(claimsStream(tourId));
    const state = events.reduce(claimDecider.evolve, claimDecider.initialState());
    if (!state.claims.some((claim) => claim.claimId === claimId))
      throw new NotFoundError('Claim not found');
    return tour;
  };

  /** The role a step needs, checked before the tour is looked up: the same answer for any tour. */
  const needRole = (actor: Actor, roleId: number, message: string) => {
    if (actor.roleId !== roleId) throw new ForbiddenError(message);
  };

  const side = (actor: Actor, tour: OpenedTour) => ({
    shipper: actor.organizationId === tour.shipperOrganizationId && actor.roleId === Role.Shipper,
    carrier: actor.organizationId === tour.carrierOrganizationId && actor.roleId === Role.Carrier,
  });

  return {
    visibleTour,
    /** POST tours/{id}/lumper is the driver's: refused before the tour is looked up or the upload read. */
    requireDriver: (actor: Actor) =>
      needRole(actor, Role.Driver, 'Only the assigned driver sends a lumper receipt'),

    /**
     * At a stop's recorded departure: a layover when the truck was held overnight, else detention
     * when its time on site passed the free time. Nothing without agreed terms; once per stop.
     */
    async claimAtDeparture(tourId: string, stopId: string, now: string) {
      const tour = await loadTour(tourId);
      if (!tour) return [];
      const stopIndex = tour.stops.findIndex((stop) => stop.id === stopId);
      if (stopIndex < 0) return [];
      const load = await loadOf(tour);
      const context = contextOf(tour, load);
      if (!context.terms) return [];
      const evidence = await evidenceAt(tour, load, stopIndex);
      if (!evidence?.arrivedAt || !evidence.leftAt) return [];
      const stop = tour.stops[stopIndex]!;
      const pickupSide =
        stop.locationType === LocationType.Pickup ||
        stop.locationType === LocationType.ExtraPickupStop;
      const layover = await run(
        tourId,
        tour.loadId,
        {
          type: 'ClaimLayover',
          data: {
            ...context,
            claimId: claimIdFor(tourId, 'layover', stopIndex),
            stopIndex,
            evidence,
            timezone: pickupSide ? load.details.pickupTimezone : load.details.dropoffTimezone,
            now,
          },
        },
        null,
        now,
      );
      if (layover.events.length > 0) return layover.events;
      const detention = await run(
        tourId,
        tour.loadId,
        {
          type: 'ClaimDetention',
          data: {
            ...context,
            claimId: claimIdFor(tourId, 'detention', stopIndex),
            stopIndex,
            stopKind: pickupSide ? 'pickup' : 'delivery',
            evidence,
            now,
          },
        },
        null,
        now,
      );
      return detention.events;
    },

    /**
     * Detention on evidence recorded before this server kept it (the demo's shipments, whose log
     * cannot be back-dated): the same rules, terms and once-per-stop as at a departure.
     */
    async claimDetentionOn(
      tourId: string,
      stopIndex: number,
      evidence: ClaimEvidence,
      now: string,
    ) {
      const tour = await loadTour(tourId);
      if (!tour?.stops[stopIndex]) return [];
      const load = await loadOf(tour);
      const stop = tour.stops[stopIndex]!;
      const pickupSide =
        stop.locationType === LocationType.Pickup ||
        stop.locationType === LocationType.ExtraPickupStop;
      const result = await run(
        tourId,
        tour.loadId,
        {
          type: 'ClaimDetention',
          data: {
            ...contextOf(tour, load),
            claimId: claimIdFor(tourId, 'detention', stopIndex),
            stopIndex,
            stopKind: pickupSide ? 'pickup' : 'delivery',
            evidence,
            now,
          },
        },
        null,
        now,
      );
      return result.events;
    },

    /** At a cancellation by the shipper: TONU once the carrier had confirmed or was dispatched. */
    async claimAtCancellation(
      tourId: string,
      from: TourStatusId,
      party: string,
      canceledAt: string,
    ) {
      if (party !== 'shipper' && party !== 'admin')
        return { events: [] as ClaimEvent[], position: null };
      const committed =
        from === TourStatus.Dispatched
          ? 'dispatched'
          : from === TourStatus.CarrierConfirmed || from === TourStatus.ReadyForPickup
            ? 'confirmed'
            : null;
      if (!committed) return { events: [] as ClaimEvent[], position: null };
      const tour = await loadTour(tourId);
      if (!tour) return { events: [] as ClaimEvent[], position: null };
      const load = await loadOf(tour);
      const result = await run(
        tourId,
        tour.loadId,
        {
          type: 'ClaimTonu',
          data: {
            ...contextOf(tour, load),
            claimId: claimIdFor(tourId, 'tonu', null),
            committed,
            canceledAt,
            now: canceledAt,
          },
        },
        null,
        canceledAt,
      );
      return { events: result.events, position: result.position };
    },

    /** POST tours/{id}/lumper: the assigned driver's receipt, at the stop the truck is at (else the last). */
    async lumper(
      caller: Caller,
      tourId: string,
      amount: number,
      receipt: { buffer: Buffer; mime: string },
      now: string,
    ) {
      const tour = await visibleTour(caller.actor, tourId);
      if (caller.actor.roleId !== Role.Driver || tour.assigneeId !== caller.actor.userId)
        throw new ForbiddenError('Only the assigned driver sends a lumper receipt');
      const load = await loadOf(tour);
      const lastArrived = [...tour.stops]
        .map((stop, index) => ({ stop, index }))
        .reverse()
        .find(({ stop }) => tour.arrivedStopIds.includes(stop.id));
      const stopIndex =
        tour.insideStopId !== null
          ? tour.stops.findIndex((stop) => stop.id === tour.insideStopId)
          : (lastArrived?.index ?? tour.stops.length - 1);
      const claimId = uuidV5(`${tourId}:lumper:${caller.requestId}:${now}`, CLAIM_NAMESPACE);
      const context = contextOf(tour, load);
      // The rules first, so a refused claim stores no receipt.
      claimDecider.decide(
        {
          type: 'ClaimLumper',
          data: {
            ...context,
            claimId,
            stopIndex,
            amount,
            receiptFileId: 'check',
            userId: caller.actor.userId,
            now,
          },
        },
        claimDecider.initialState(),
      );
      const receiptFileId = await files.save({
        organizationId: tour.carrierOrganizationId,
        kind: 'lumper-receipt',
        mime: receipt.mime,
        data: receipt.buffer,
        tourId,
      });
      const result = await run(
        tourId,
        tour.loadId,
        {
          type: 'ClaimLumper',
          data: {
            ...context,
            claimId,
            stopIndex,
            amount,
            receiptFileId,
            userId: caller.actor.userId,
            now,
          },
        },
        caller,
        now,
      );
      return { claimId, position: result.position };
    },

    async approve(caller: Caller, tourId: string, claimId: string, now: string) {
      needRole(caller.actor, Role.Shipper, "Only the shipper's dispatcher approves a claim");
      const tour = await claimAs(caller.actor, tourId, claimId);
      if (!side(caller.actor, tour).shipper)
        throw new ForbiddenError("Only the shipper's dispatcher approves a claim");
      const result = await run(
        tourId,
        tour.loadId,
        {
          type: 'ApproveClaim',
          data: { tourId, claimId, userId: caller.actor.userId, bySilence: false, now },
        },
        caller,
        now,
      );
      return result.position;
    },

    async dispute(caller: Caller, tourId: string, claimId: string, reason: string, now: string) {
      needRole(caller.actor, Role.Shipper, "Only the shipper's dispatcher disputes a claim");
      const tour = await claimAs(caller.actor, tourId, claimId);
      if (!side(caller.actor, tour).shipper)
        throw new ForbiddenError("Only the shipper's dispatcher disputes a claim");
      const result = await run(
        tourId,
        tour.loadId,
        {
          type: 'DisputeClaim',
          data: { tourId, claimId, userId: caller.actor.userId, reason, now },
        },
        caller,
        now,
      );
      return result.position;
    },

    async answer(caller: Caller, tourId: string, claimId: string, text: string, now: string) {
      needRole(caller.actor, Role.Carrier, 'Only the carrier answers a dispute');
      const tour = await claimAs(caller.actor, tourId, claimId);
      if (!side(caller.actor, tour).carrier)
        throw new ForbiddenError('Only the carrier answers a dispute');
      const result = await run(
        tourId,
        tour.loadId,
        { type: 'AnswerClaim', data: { tourId, claimId, userId: caller.actor.userId, text, now } },
        caller,
        now,
      );
      return result.position;
    },

    async note(caller: Caller, tourId: string, claimId: string, note: string, now: string) {
      needRole(caller.actor, Role.Carrier, 'Only the carrier adds a note');
      const tour = await claimAs(caller.actor, tourId, claimId);
      if (!side(caller.actor, tour).carrier)
        throw new ForbiddenError('Only the carrier adds a note');
      const result = await run(
        tourId,
        tour.loadId,
        { type: 'NoteClaim', data: { tourId, claimId, userId: caller.actor.userId, note, now } },
        caller,
        now,
      );
      return result.position;
    },

    async settle(
      caller: Caller,
      tourId: string,
      claimId: string,
      settlement: { amount: number; note: string },
      now: string,
    ) {
      if (!isSuperadmin(caller.actor))
        throw new ForbiddenError('Only a Superadmin settles a dispute');
      const tour = await claimAs(caller.actor, tourId, claimId);
      const result = await run(
        tourId,
        tour.loadId,
        {
          type: 'SettleClaim',
          data: { tourId, claimId, userId: caller.actor.userId, ...settlement, now },
        },
        caller,
        now,
      );
      return result.position;
    },

    /** Run by the scheduler: approves a claim still unanswered once its window closed. */
    async approveBySilence(tourId: string, claimId: string, now: string) {
      const tour = await loadTour(tourId);
      const result = await run(
        tourId,
        tour?.loadId ?? tourId,
        { type: 'ApproveClaim', data: { tourId, claimId, userId: null, bySilence: true, now } },
        null,
        now,
      );
      return result.events.length > 0 ? result.position : null;
    },
  };
}
export type ClaimCommands = ReturnType<typeof createClaimCommands>;
