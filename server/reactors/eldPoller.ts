/**
 * The ELD poller: every ELD_POLL_MS, for each tour that is Dispatched or In Transit and whose
 * accepted offer names a truck (eldTruckName) or, without one, whose driver was assigned with a
 * tractor number (the fleet names its trucks by that number), asks the carrier's installed ELD service where its
 * trucks are and records the named truck's position exactly as a driver's position is recorded
 * (`recordPositions`, so the geofence applies: arrivals, departures, the move to In Transit).
 *
 * One provider call per installed service per pass, whatever the number of tours; a position that
 * did not change since the last one recorded is skipped. It keeps no state that matters: a restart
 * reads the last recorded position of each tour. With several processes, only the holder of an
 * advisory lock polls. A provider that refuses the credentials or asks to wait is left alone for a
 * while; the other organizations are polled as usual.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { isObservedTimeInWindow } from '../../domain/schemas/observedTime.ts';
import { distanceMeters } from '../../domain/tours/geo.ts';
import { lastPositionOf as readLastPosition } from '../../projections/tourPositions/tourPositions.queries.ts';
import { trackedToursWithServices } from '../../projections/organizationServices/organizationServices.queries.ts';
import type { DB } from '../../storage/schema.ts';
import type { MarketplaceCommands } from '../commands/marketplace.ts';
import type { Leadership } from '../../storage/leadership.ts';
import type { InstalledServiceRow, OrganizationServices } from '../commands/services.ts';
import {
  CredentialsRefusedError,
  ProviderUnavailableError,
  sameTruckName,
  type EldTruck,
} from '../integrations/eld/provider.ts';
import { SealedSecretError } from '../cluster/secretBox.ts';

export const DEFAULT_ELD_POLL_MS = 30_000;
/** How long a service whose credentials were refused (or cannot be opened) is left alone. */
const REFUSED_BACKOFF_MS = 10 * 60_000;
/** Providers called at once: a slow one must not hold up the whole pass. */
const CONCURRENCY = 4;
/** Closer than this to the last recorded position, the truck has not moved. */
const UNCHANGED_METERS = 1;

/** `outOfRange`: reports dated outside the last 7 days and the next 5 minutes (a provider's broken clock), dropped. */
export type PollResult = {
  services: number;
  tours: number;
  recorded: number;
  unchanged: number;
  missing: number;
  failed: number;
  outOfRange: number;
};

export type EldPoller = {
  /** One pass over the tracked tours; `now` is the time the positions are asked for (the simulator's clock). */
  pass(now?: Date): Promise<PollResult>;
  stop(): Promise<void>;
};

type TrackedTour = { tourId: string; truckName: string; organizationId: string };
type LastPosition = { recordedAt: string; latitude: number; longitude: number };

export function startEldPoller(options: {
  db: Kysely<DB>;
  marketplace: MarketplaceCommands;
  services: OrganizationServices;
  logger: Logger;
  leadership: Leadership;
  intervalMs?: number;
  background?: boolean;
}): EldPoller {
  const { db, marketplace, services, logger, leadership } = options;
  const intervalMs = options.intervalMs ?? DEFAULT_ELD_POLL_MS;
  const lastPositions = new Map<string, LastPosition>();
  const backoffUntil = new Map<string, number>();
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();

  const trackedTours = async () => {
    const rows = await trackedToursWithServices(db);
    const byOrganization = new Map<
      string,
      { services: Map<string, InstalledServiceRow>; tours: Map<string, TrackedTour> }
    >();
    for (const row of rows) {
      if (!String(row.eld_truck_name).trim()) continue;
      const entry = byOrganization.get(row.carrier_organization_id) ?? {
        services: new Map(),
        tours: new Map(),
      };
      byOrganization.set(row.carrier_organization_id, entry);
      const {
        tour_id: tourId,
        eld_truck_name: truckName,
        carrier_organization_id: organizationId,
        ...service
      } = row;
      entry.services.set(service.id, service as InstalledServiceRow);
      entry.tours.set(tourId, { tourId, truckName, organizationId });
    }
    return byOrganization;
  };

  const lastPositionOf = async (tourId: string): Promise<LastPosition | null> => {
    const known = lastPositions.get(tourId);
    if (known) return known;
    const row = await readLastPosition(db, tourId);
    if (!row) return null;
    const last = {
      recordedAt: new Date(row.recorded_at).toISOString(),
      latitude: Number(row.latitude),
      longitude: Number(row.longitude),
    };
    lastPositions.set(tourId, last);
    return last;
  };

  /** The fleet of one service, or null when it cannot be had now (logged, and backed off where the provider asks). */
  const fleetOf = async (service: InstalledServiceRow, now: Date): Promise<EldTruck[] | null> => {
    if ((backoffUntil.get(service.id) ?? 0) > now.getTime()) return null;
    try {
      const fleet = await services.fleetOf(service, now);
      backoffUntil.delete(service.id);
      return fleet;
    } catch (error) {
      const context = {
        organizationServiceId: service.id,
        organizationId: service.organization_id,
        provider: service.service_id,
      };
      if (error instanceof CredentialsRefusedError || error instanceof SealedSecretError) {
        backoffUntil.set(service.id, now.getTime() + REFUSED_BACKOFF_MS);
        logger.warn(
          { ...context, reason: error.message },
          'ELD credentials refused: polling paused for this service',
        );
      } else if (error instanceof ProviderUnavailableError) {
        if (error.retryAfterSeconds)
          backoffUntil.set(service.id, now.getTime() + error.retryAfterSeconds * 1000);
        logger.warn({ ...context, reason: error.message }, 'ELD provider unavailable');
      } else {
        logger.warn({ ...context, err: error }, 'ELD poll failed');
      }
      return null;
    }
  };

  const pollOrganization = async (
    entry: { services: Map<string, InstalledServiceRow>; tours: Map<string, TrackedTour> },
    now: Date,
    result: PollResult,
  ) => {
    const fleets: EldTruck[][] = [];
    for (const service of entry.services.values()) {
      result.services += 1;
      const fleet = await fleetOf(service, now);
      if (fleet) fleets.push(fleet);
      else result.failed += 1;
    }
    for (const tour of entry.tours.values()) {
      result.tours += 1;
      const truck = fleets
        .flat()
        .find((candidate) => sameTruckName(candidate.name, tour.truckName));
      if (!truck) {
        result.missing += 1;
        continue;
      }
      if (!isObservedTimeInWindow(Date.parse(truck.updatedAt), now.getTime())) {
        result.outOfRange += 1;
        logger.warn(
          {
            tourId: tour.tourId,
            truck: truck.name,
            reportedAt: truck.updatedAt,
            now: now.toISOString(),
          },
          'ELD position dropped: dated outside the last 7 days and the next 5 minutes',
        );
        continue;
      }
      const last = await lastPositionOf(tour.tourId);
      if (
        last &&
        (truck.updatedAt <= last.recordedAt || distanceMeters(last, truck) < UNCHANGED_METERS)
      ) {
        result.unchanged += 1;
        continue;
      }
      try {
        await marketplace.recordPositions(
          null,
          tour.tourId,
          [
            {
              latitude: truck.latitude,
              longitude: truck.longitude,
              speed: truck.speed,
              heading: truck.heading,
              accuracy: null,
              recordedAt: truck.updatedAt,
            },
          ],
          now.toISOString(),
        );
        lastPositions.set(tour.tourId, {
          recordedAt: truck.updatedAt,
          latitude: truck.latitude,
          longitude: truck.longitude,
        });
        result.recorded += 1;
      } catch (error) {
        // The tour moved on (delivered, cancelled) since the read model was read: nothing to record.
        logger.warn({ err: error, tourId: tour.tourId }, 'could not record an ELD position');
      }
    }
  };

  const pass = async (now = new Date()): Promise<PollResult> => {
    const result: PollResult = {
      services: 0,
      tours: 0,
      recorded: 0,
      unchanged: 0,
      missing: 0,
      failed: 0,
      outOfRange: 0,
    };
    const organizations = [...(await trackedTours()).values()];
    const queue = [...organizations];
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
        for (let entry = queue.shift(); entry; entry = queue.shift())
          await pollOrganization(entry, now, result);
      }),
    );
    // Forget the tours that are no longer tracked.
    const tracked = new Set(organizations.flatMap((entry) => [...entry.tours.keys()]));
    for (const tourId of lastPositions.keys())
      if (!tracked.has(tourId)) lastPositions.delete(tourId);
    return result;
  };

  /** Passes never overlap, whether the timer or a caller started them. */
  const serialized = (now?: Date) => {
    const next = running.then(() => pass(now));
    running = next.catch(() => undefined);
    return next;
  };

  const tick = async () => {
    if (stopped) return;
    try {
      if (!(await leadership.holds('scheduler:eldPoller'))) return;
      const result = await serialized();
      if (result.recorded > 0 || result.failed > 0) logger.info(result, 'ELD positions polled');
    } catch (error) {
      logger.warn({ err: error }, 'ELD poll pass failed');
      await leadership.reset();
    }
  };

  let timer: NodeJS.Timeout | null = null;
  if (options.background !== false) {
    timer = setInterval(() => void tick(), intervalMs);
    timer.unref();
  }

  return {
    pass: serialized,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running.catch(() => undefined);
    },
  };
}
