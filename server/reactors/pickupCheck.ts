/**
 * The pickup truck check, the marketplace's answer to double brokering: when a tour's truck
 * arrives at the first pickup (a `TourEventAdded` of type 'arrived' for that stop, whether the
 * geofence, the driver or the carrier recorded it), the booked carrier's own ELD is asked where
 * the truck named in the accepted offer is. If it is within the pickup's geofence (500 m), the
 * truck at the dock is the booked carrier's; otherwise the shipper is told so. The result is a
 * note in the tour's timeline, which the shipper sees.
 *
 * A reactor on the event log, with its own checkpoint, run by one process at a time (advisory
 * lock). Each tour is checked at most once: the check is claimed in `eld_pickup_checks` before the
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
import type {
  EventStore,
  LogPosition,
  RecordedEvent,
  Subscription,
} from '../eventstore/eventStore.ts';
import type { Leadership } from '../integrations/eld/leadership.ts';
import type { OrganizationServices } from '../commands/services.ts';
import { sameTruckName, type EldTruck } from '../integrations/eld/provider.ts';

const CHECKPOINT = 'pickupCheck';
const JOB = 'reactor:eldPickupCheck';
/** An ELD position older than this says nothing about where the truck is now. */
export const STALE_POSITION_MS = 30 * 60_000;
export type PickupVerdict = { verified: boolean; message: string };

export type PickupCheck = {
  /** Checks the tour's truck at its first pickup, once per tour; null when there is nothing to check (or it was checked). */
  check(
    arrival: { tourId: string; stopId: string; eventId: string },
    now?: Date,
  ): Promise<PickupVerdict | null>;
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
  let subscription: Subscription | null = null;
  let retry: NodeJS.Timeout | null = null;
  let stopped = false;

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
    if (!tour || !tour.eldTruckName?.trim()) return null;
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

  const readCheckpoint = async (): Promise<LogPosition> => {
    const row = await db
      .selectFrom('eld_checkpoints')
      .select(['transaction_id', 'global_position'])
      .where('name', '=', CHECKPOINT)
      .executeTakeFirst();
    if (row)
      return {
        transactionId: String(row.transaction_id),
        globalPosition: String(row.global_position),
      };
    const head = await store.head();
    await sql`INSERT INTO eld_checkpoints (name, transaction_id, global_position) VALUES (${CHECKPOINT}, ${head.transactionId}, ${head.globalPosition})
      ON CONFLICT (name) DO NOTHING`.execute(db);
    return readCheckpoint();
  };

  let checkpointWrittenAt = 0;
  const handlePage = async (page: RecordedEvent[]) => {
    let checked = false;
    for (const event of page) {
      if (event.type !== 'TourEventAdded') continue;
      const { data } = event as unknown as RecordedEvent<TourEventAdded>;
      if (data.type !== 'arrived' || !data.stopId) continue;
      checked = true;
      try {
        await check({ tourId: data.tourId, stopId: data.stopId, eventId: event.id });
      } catch (error) {
        logger.warn({ err: error, tourId: data.tourId }, 'pickup truck check failed');
      }
    }
    // Pages with no arrival move the checkpoint at most once a second: after a restart, re-reading
    // a second of events this job ignores costs nothing, and it saves a write per append.
    if (!checked && Date.now() - checkpointWrittenAt < 1000) return;
    checkpointWrittenAt = Date.now();
    const last = page[page.length - 1]!.position;
    await sql`UPDATE eld_checkpoints SET transaction_id = ${last.transactionId}, global_position = ${last.globalPosition}, updated_at = now()
      WHERE name = ${CHECKPOINT}`.execute(db);
  };

  const claim = async () => {
    retry = null;
    if (stopped) return;
    try {
      if (await leadership.holds(JOB)) {
        const from = await readCheckpoint();
        if (stopped) return;
        subscription = store.subscribe({ from, pageSize: 200 }, handlePage);
        return;
      }
    } catch (error) {
      if (stopped) return;
      logger.warn({ err: error }, 'pickup truck check could not start');
      await leadership.reset();
    }
    if (stopped) return;
    retry = setTimeout(() => void claim(), options.claimRetryMs ?? 2000);
    retry.unref();
  };

  if (options.background !== false) void claim();

  return {
    check,
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      await subscription?.close();
      subscription = null;
    },
  };
}
