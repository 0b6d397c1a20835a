/**
 * The pickup truck check, the marketplace's answer to double brokering: when a tour's truck
 * arrives at the first pickup (a `TourEventAdded` of type 'arrived' for that stop, whether the
 * geofence, the driver or the carrier recorded it), the booked carrier's own ELD is asked where
 * the truck named in the accepted offer is. If it is within the pickup's geofence (500 m), the
 * truck at the dock is the booked carrier's; otherwise the shipper is told so. The result is a
 * note in the tour's timeline, which the shipper sees.
 *
 * A reactor on the event log (storage/reactor.ts), checkpointed, run by one process at a time. Each tour is checked at most once: the check is claimed in `eld_pickup_checks` before the
 * provider is asked. It starts, the first time, at the head of the log: arrivals from before the
 * integration existed are not checked.
 */
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { LocationType } from '../../domain/catalog.ts';
import { distanceMeters, GEOFENCE_METERS, METERS_PER_MILE } from '../../domain/tours/geo.ts';
import type { OpenedTour, TourEventAdded, TourStop } from '../../domain/tours/tour.types.ts';
import type { MarketplaceCommands } from '../commands/marketplace.ts';
import type { Database } from '../db/database.ts';
import type { EventStore, RecordedEvent } from '../eventstore/eventStore.ts';
import type { Leadership } from '../../storage/leadership.ts';
import { startReactor, type Reactor } from '../../storage/reactor.ts';
import type { OrganizationServices } from '../commands/services.ts';
import { sameTruckName, type EldTruck } from '../integrations/eld/provider.ts';

/** Its checkpoint's name, and its lock (older than the reactors' `reactor:<name>` rule). */
export const PICKUP_CHECK_REACTOR = { name: 'pickupCheck', job: 'reactor:eldPickupCheck' };
/** An ELD position older than this says nothing about where the truck is now. */
export const STALE_POSITION_MS = 30 * 60_000;
export type PickupVerdict = { verified: boolean; message: string };

export type PickupCheck = {
  /** Checks the tour's truck at its first pickup, once per tour; null when there is nothing to check (or it was checked). */
  check(
    arrival: { tourId: string; stopId: string; eventId: string },
    now?: Date,
  ): Promise<PickupVerdict | null>;
  /** The reactor that checks each arrival; null where background work is off. */
  reactor: Reactor | null;
  stop(): Promise<void>;
};

const distanceText = (meters: number) =>
  meters < METERS_PER_MILE
    ? `${Math.round(meters)} m`
    : `${(meters / METERS_PER_MILE).toFixed(1)} miles`;

export function startPickupCheck(options: {
  database: Database;
  store: EventStore;
  marketplace: MarketplaceCommands;
  services: OrganizationServices;
  logger: Logger;
  leadership: Leadership;
  claimRetryMs?: number;
  background?: boolean;
}): PickupCheck {
  const { database, store, marketplace, services, logger, leadership } = options;
  const { db } = database;
  const background = options.background !== false;

  /** Where the booked truck is, as the carrier's installed services report it. */
  const locate = async (tour: OpenedTour, pickup: TourStop, now: Date): Promise<PickupVerdict> => {
    const truckName = tour.eldTruckName!.trim();
    const installed = await services.installedOf(tour.carrierOrganizationId);
    if (installed.length === 0) {
      return {
        verified: false,
        message: `Truck not verified at pickup: the booked carrier has no ELD service installed to locate truck ${truckName}`,
      };
    }
    const names = installed.map((row) => services.nameOf(row.service_id));
    const failures: string[] = [];
    let found: { truck: EldTruck; provider: string } | null = null;
    for (const row of installed) {
      try {
        const truck = (await services.fleetOf(row, now)).find((candidate) =>
          sameTruckName(candidate.name, truckName),
        );
        if (truck) {
          found = { truck, provider: services.nameOf(row.service_id) };
          break;
        }
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    if (!found) {
      if (failures.length === installed.length) {
        return {
          verified: false,
          message: `Truck not verified at pickup: the booked carrier's ELD (${names.join(', ')}) could not be asked where truck ${truckName} is (${failures[0]})`,
        };
      }
      return {
        verified: false,
        message: `Truck not verified at pickup: the booked carrier's ELD (${names.join(', ')}) reports no truck named ${truckName}`,
      };
    }
    const { truck, provider } = found;
    const meters = distanceMeters(truck, pickup);
    const ageMs = now.getTime() - Date.parse(truck.updatedAt);
    if (meters > GEOFENCE_METERS) {
      return {
        verified: false,
        message: `Truck not verified at pickup: the booked carrier's ELD truck ${truck.name} is ${distanceText(meters)} from ${pickup.name} (${provider})`,
      };
    }
    if (ageMs > STALE_POSITION_MS) {
      return {
        verified: false,
        message: `Truck not verified at pickup: the last ELD position of the booked carrier's truck ${truck.name} is ${Math.round(ageMs / 60_000)} minutes old (${provider})`,
      };
    }
    return {
      verified: true,
      message: `Truck verified at pickup: the booked carrier's ELD truck ${truck.name} is at the pickup, ${distanceText(meters)} from ${pickup.name} (${provider})`,
    };
  };

  const check: PickupCheck['check'] = async ({ tourId, stopId, eventId }, now = new Date()) => {
    const tour = await marketplace.loadTour(tourId);
    if (!tour?.eldTruckName?.trim()) return null;
    const pickup =
      tour.stops.find((stop) => stop.locationType === LocationType.Pickup) ?? tour.stops[0];
    if (!pickup || pickup.id !== stopId) return null;
    const claimed = await sql<{
      tour_id: string;
    }>`INSERT INTO eld_pickup_checks (tour_id, stop_id, arrival_event_id, claimed_at)
      VALUES (${tourId}, ${stopId}, ${eventId}, ${now.toISOString()}) ON CONFLICT (tour_id) DO NOTHING RETURNING tour_id`.execute(
      db,
    );
    if (claimed.rows.length === 0) return null;
    const verdict = await locate(tour, pickup, now);
    try {
      await marketplace.addSystemTourEvent(
        tourId,
        { type: 'note', message: verdict.message, stopId: pickup.id },
        eventId,
        now.toISOString(),
      );
    } catch (error) {
      logger.warn({ err: error, tourId }, 'could not record the pickup truck check');
    }
    await sql`UPDATE eld_pickup_checks SET verified = ${verdict.verified}, message = ${verdict.message}, checked_at = ${new Date().toISOString()}
      WHERE tour_id = ${tourId}`.execute(db);
    logger.info({ tourId, verified: verdict.verified }, 'pickup truck checked');
    return verdict;
  };

  const reactor = background
    ? startReactor(
        {
          ...PICKUP_CHECK_REACTOR,
          handles: ['TourEventAdded'],
          async handle(events) {
            let checked = false;
            for (const event of events) {
              const { data } = event as unknown as RecordedEvent<TourEventAdded>;
              if (data.type !== 'arrived' || !data.stopId) continue;
              checked = true;
              try {
                await check({ tourId: data.tourId, stopId: data.stopId, eventId: event.id });
              } catch (error) {
                logger.warn({ err: error, tourId: data.tourId }, 'pickup truck check failed');
              }
            }
            // Pages with no arrival move the checkpoint at most once a second.
            return checked ? undefined : 'idle';
          },
        },
        { database, store, logger, leadership, claimRetryMs: options.claimRetryMs },
      )
    : null;

  return {
    check,
    reactor,
    async stop() {
      await reactor?.stop();
    },
  };
}
