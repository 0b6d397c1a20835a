/**
 * A tour's course (stream `tour-<id>`): open it for an accepted offer, confirm the carrier, assign a
 * driver, move it along or cancel it, note events on its timeline.
 */
import { randomUUID } from 'node:crypto';
import { GenericStatus, Role, TourStatus } from '../../domain/catalog.ts';
import type { TourStatusId } from '../../domain/catalog.ts';
import type { PostedLoad } from '../../domain/loads/load.types.ts';
import type { SubmittedOffer } from '../../domain/offers/offer.types.ts';
import { IllegalStateError, NotFoundError } from '../../domain/shared/errors.ts';
import { tourDecider } from '../../domain/tours/tour.decide.ts';
import {
  tourStream,
  type OpenedTour,
  type Tour,
  type TourActor,
  type TourCommand,
  type TourEvent,
  type TourEventType,
  type TourStop,
} from '../../domain/tours/tour.types.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { isSuperadmin, type Caller } from './caller.ts';
import { isTourParty, tourActorOf } from './streams.ts';
import { tourAccess, type TourCommandDeps } from './tourAccess.ts';
import { sealNewReleaseSecret } from './releaseCode.ts';

export function createTourCourseCommands(deps: TourCommandDeps) {
  const { store, readers } = deps;
  const { loadTour, requireActiveOrganization, identity } = readers;
  const { runTour } = tourAccess(deps);

  return {
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

    /** `truck`: the tractor (and trailer) the carrier sends; older callers name none. */
    async assignTour(
      caller: Caller,
      tourId: string,
      assigneeId: string,
      now: string,
      truck?: { tractorNumber: string; trailerNumber: string | null },
    ) {
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
            data: {
              tourId,
              actor: tourActorOf(actor),
              assigneeId,
              assigneeName: driver.name,
              ...(truck ?? {}),
              ...(deps.secrets
                ? { sealedReleaseSecret: sealNewReleaseSecret(deps.secrets, tourId) }
                : {}),
              now,
            },
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
  };
}
