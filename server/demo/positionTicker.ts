/**
 * Drives the truck of the demo's live shipment: every 10 seconds while the server runs, the assigned
 * driver "sends" the position the truck has reached on its road (demoRoute.ts), through the same
 * command handler as the driver app, so the map, the trail, the ETA and the stop geofences all
 * work as they do for a real truck. The position comes from the time elapsed since the truck left
 * the first stop (its first recorded position), so a restart picks up where the truck is now and
 * fills the gap while the server was down; at the last stop the truck parks and the ticker is idle.
 */
import { DomainError } from '../../domain/shared/errors.ts';
import { TourStatus } from '../../domain/catalog.ts';
import type { OpenedTour } from '../../domain/tours/tour.types.ts';
import { latestTourIdByRefNumber } from '../../projections/marketplace/marketplace.queries.ts';
import { positionSpan } from '../../projections/tourPositions/tourPositions.queries.ts';
import type { Caller } from '../commands/marketplace.ts';
import { permissionsFor } from '../../domain/permissions.ts';
import type { Platform } from '../platform.ts';
import {
  buildRoute,
  DEFAULT_PLAN,
  positionAt,
  tripDurationMs,
  type DemoRoute,
  type DrivingPlan,
} from './demoRoute.ts';
import { demoEmail, LIVE_REF_NUMBER } from './demoData.ts';

export const TICK_MS = 10_000;
/** After a long stop of the server, at most this many positions fill the gap in one tick. */
const MAX_BACKFILL = 120;

export type DemoTicker = {
  /** Records the positions due now; answers how many. */
  tick(): Promise<number>;
  /** Stops the timer and waits for a tick in progress. */
  stop(): Promise<void>;
};

type Trip = {
  tourId: string;
  route: DemoRoute;
  caller: Caller;
  startedAt: number;
  lastAt: number;
  finished: boolean;
};

export function startDemoTicker(
  platform: Platform,
  options: { intervalMs?: number; now?: () => number; plan?: DrivingPlan; timer?: boolean } = {},
): DemoTicker {
  const { marketplace, database, identity, runner, store, logger } = platform;
  const intervalMs = options.intervalMs ?? TICK_MS;
  const clock = options.now ?? Date.now;
  const plan = options.plan ?? DEFAULT_PLAN;
  let trip: Trip | null = null;
  /** No demo shipment on the road (DEMO on over another database, or the truck already parked). */
  let idle = false;
  let running: Promise<number> | null = null;
  let stopped = false;

  /** The live shipment of the demo shipper, while its truck is on the road. */
  async function findTrip(): Promise<Trip | null> {
    const shipperId = await identity.userIdByEmail(demoEmail('shipper1'));
    const shipper = shipperId ? await identity.loadUser(shipperId) : null;
    if (!shipper?.organizationId) return null;
    const tourId = await latestTourIdByRefNumber(
      database.db,
      shipper.organizationId,
      LIVE_REF_NUMBER,
    );
    const tour = tourId ? await marketplace.loadTour(tourId) : null;
    if (!tour || !onTheRoad(tour) || !tour.assigneeId) return null;
    const driver = await identity.loadUser(tour.assigneeId);
    if (!driver) return null;
    await runner.waitFor(['tourPositions'], await store.head(), 5_000);
    const times = await positionSpan(database.db, tour.tourId);
    const first = times.first ? Date.parse(new Date(times.first).toISOString()) : clock();
    const last = times.last ? Date.parse(new Date(times.last).toISOString()) : first - 1;
    const caller: Caller = {
      actor: {
        userId: driver.userId,
        organizationId: driver.organizationId,
        roleId: driver.roleId,
        permissions: permissionsFor(driver.roleId),
        sessionId: 'demo',
      },
      requestId: 'demo-ticker',
    };
    const route = buildRoute(tour.stops);
    return {
      tourId: tour.tourId,
      route,
      caller,
      startedAt: first,
      lastAt: last,
      finished: last >= first + tripDurationMs(route, plan),
    };
  }

  async function tick(): Promise<number> {
    if (stopped || idle) return 0;
    trip ??= await findTrip();
    if (!trip) {
      idle = true;
      logger.debug('no demo shipment on the road: the demo position ticker is idle');
      return 0;
    }
    if (trip.finished) return 0;
    const tour = await marketplace.loadTour(trip.tourId);
    if (!tour || !onTheRoad(tour) || tour.assigneeId !== trip.caller.actor.userId) {
      // Delivered, cancelled or given to another driver: the demo truck parks for good.
      logger.info(
        { tourId: trip.tourId, status: tour?.status },
        'demo truck stopped: the tour is no longer on the road with its driver',
      );
      trip.finished = true;
      return 0;
    }
    const now = clock();
    const end = trip.startedAt + tripDurationMs(trip.route, plan);
    const until = Math.min(now, end);
    if (until <= trip.lastAt) return 0;
    // One position per interval since the last one, fewer and further apart after a long stop.
    const step = Math.max(intervalMs, (until - trip.lastAt) / MAX_BACKFILL);
    const times: number[] = [];
    for (let at = trip.lastAt + step; at < until; at += step) times.push(Math.round(at));
    times.push(until);
    const positions = times.map((at) => {
      const { latitude, longitude, heading, speed } = positionAt(
        trip!.route,
        at - trip!.startedAt,
        plan,
      );
      return {
        latitude,
        longitude,
        heading,
        speed,
        accuracy: 5,
        recordedAt: new Date(at).toISOString(),
      };
    });
    try {
      const { accepted } = await marketplace.recordPositions(
        trip.caller,
        trip.tourId,
        positions,
        new Date(now).toISOString(),
      );
      trip.lastAt = until;
      if (until >= end) {
        trip.finished = true;
        logger.info({ tourId: trip.tourId }, 'demo truck arrived at its last stop');
      }
      return accepted;
    } catch (error) {
      // The tour changed between the check and the write: the demo truck parks for good.
      if (error instanceof DomainError) {
        logger.info({ tourId: trip.tourId, reason: error.message }, 'demo truck stopped');
        trip.finished = true;
        return 0;
      }
      throw error;
    }
  }

  const run = (): Promise<number> => {
    if (running) return running;
    running = tick().finally(() => {
      running = null;
    });
    return running;
  };

  const timer =
    options.timer === false
      ? null
      : setInterval(() => {
          run().catch((error: unknown) =>
            logger.warn({ err: error }, 'demo position ticker failed'),
          );
        }, intervalMs);
  timer?.unref();

  return {
    tick: run,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running?.catch(() => 0);
    },
  };
}

const onTheRoad = (tour: OpenedTour) =>
  tour.status === TourStatus.Dispatched || tour.status === TourStatus.InTransit;
