/**
 * A year of delivered shipments behind the lane-rate charts: on a fresh demo, Gulf Coast Chemicals
 * (shipper2) books loads on a handful of lanes with the third demo carrier (carrier3) every month of
 * the past twelve, five a month on the main lanes, through the same command handlers people's
 * requests use. Each command is given the time it happened (an event's data carries its own time;
 * the log records when it was written), so the acceptances fall in their months. Prices follow the
 * lane's miles at a rate per mile that moves with the seasons, with a little spread per load. Only
 * shipper2, carrier3 and its drivers take part: the accounts the browser journeys use keep the
 * demo's own shipments. Loads are booked six at a time, so the read models take them by the page.
 */
import { GenericStatus, TourStatus, type TimeZoneId } from '../../domain/catalog.ts';
import { routeMiles } from '../../domain/loads/route.ts';
import { loadBodySchema } from '../../domain/schemas/load.schema.ts';
import { ROAD_FACTOR } from '../../domain/tours/geo.ts';
import type { Caller } from '../commands/marketplace.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { latest } from '../eventstore/eventStore.ts';
import { createFileStore } from '../integrations/files/files.ts';
import type { Platform } from '../platform.ts';
import { demoContractPdf } from './contractPdf.ts';
import { type HistoryLane, historyLanes } from './historyLanes.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** How many history loads are booked at once. */
const HISTORY_CONCURRENCY = 6;

const zoneOf = (state: string): TimeZoneId =>
  ['GA', 'MI', 'OH', 'IN', 'KY', 'NY', 'NJ', 'PA', 'FL'].includes(state)
    ? 'America/New_York'
    : 'America/Chicago';
const iso = (at: number) => new Date(at).toISOString();

/** A repeatable spread in [-1, 1] for the n-th load (no randomness: every fresh demo shows the same charts). */
const spread = (n: number) => Math.sin(n * 12.9898) * 0.5 + Math.sin(n * 4.1414) * 0.5;

/** The agreed price of the n-th load of a lane in a month (0 = January): a summer and December peak, a few percent either way. */
export const historyPrice = (lane: HistoryLane, month: number, n: number): number => {
  const miles = routeMiles([lane.from, lane.to]) * ROAD_FACTOR;
  const season = 1 + 0.07 * Math.sin(((month - 3) / 12) * 2 * Math.PI) + (month === 11 ? 0.06 : 0);
  return Math.round((miles * lane.ratePerMile * season * (1 + 0.06 * spread(n))) / 5) * 5;
};

export type HistoryUsers = {
  shipper: Caller;
  carrier: Caller;
  drivers: Caller[];
  shipperName: string;
  carrierName: string;
  signer: string;
};

/** Books and delivers the history loads; answers how many were delivered and the last position written. */
export async function seedLaneHistory(
  platform: Platform,
  users: HistoryUsers,
  now = Date.now(),
): Promise<{ delivered: number; last: LogPosition | null }> {
  const { marketplace, logger } = platform;
  const files = createFileStore(platform.database.db);
  const today = new Date(now);
  let last: LogPosition | null = null;
  let delivered = 0;
  let n = 0;
  const jobs: (() => Promise<void>)[] = [];
  for (const lane of historyLanes) {
    const miles = routeMiles([lane.from, lane.to]) * ROAD_FACTOR;
    for (const [index, count] of lane.perMonth.entries()) {
      const back = lane.perMonth.length - 1 - index;
      for (let k = 0; k < count; k++) {
        const number = ++n;
        // Spread over the month; in the current month only days that have passed (a few days back, so the trip is over).
        const at = Math.min(
          Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back, 2 + k * 6, 13),
          now - (4 + k) * DAY,
        );
        const price = historyPrice(lane, new Date(at).getUTCMonth(), number);
        jobs.push(async () => {
          try {
            last = latest(last, await deliverOne(lane, at, miles, price, number));
            delivered++;
          } catch (error) {
            // The expiry sweep may pause a load between its posting and its acceptance (its offer window is in the past): skip it.
            logger.warn({ err: error }, 'a demo history load was left out');
          }
        });
      }
    }
  }
  // Several loads at a time: their streams are independent, and the read models then take the events a page at a time.
  const workers = Array.from({ length: HISTORY_CONCURRENCY }, async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) await job();
  });
  await Promise.all(workers);
  return { delivered, last };

  /**
   * The truck's arrival and departure at a stop, as the geofence records them: from 20 minutes early
   * to 40 late, and 35 minutes to under two hours on site (within the free time: no detention), so
   * the facilities' pages have their figures.
   */
  async function stay(
    tourId: string,
    stopIndex: number,
    appointment: number,
    n: number,
  ): Promise<LogPosition | null> {
    const tour = await marketplace.loadTour(tourId);
    const stop = tour?.stops[stopIndex];
    if (!stop) return null;
    const arrived = appointment + Math.round(10 + 30 * spread(n)) * MINUTE;
    const departed = arrived + Math.round(75 + 40 * spread(n + 3)) * MINUTE;
    let position: LogPosition | null = null;
    for (const [type, at] of [
      ['arrived', arrived],
      ['departed', departed],
    ] as const)
      position = latest(
        position,
        (
          await marketplace.addSystemTourEvent(
            tourId,
            { type, message: '', stopId: stop.id },
            'geofence',
            iso(at),
          )
        ).position,
      );
    return position;
  }

  async function deliverOne(
    lane: HistoryLane,
    at: number,
    miles: number,
    price: number,
    n: number,
  ): Promise<LogPosition | null> {
    const pickup = at + DAY;
    const dropoff = Math.ceil((pickup + (miles / 50 + 2) * HOUR) / HOUR) * HOUR;
    const body = loadBodySchema(iso(at)).parse({
      pickupTimestampStart: iso(pickup),
      pickupTimezone: zoneOf(lane.from.state),
      dropOffTimestampStart: iso(dropoff),
      dropoffTimezone: zoneOf(lane.to.state),
      expiration: iso(at + 12 * HOUR),
      expirationTimezone: zoneOf(lane.from.state),
      loadTypeId: 1,
      rate: 1,
      rateTypeId: 1,
      loadAccessories: [10],
      loadEquipment: lane.equipment,
      description: 'Regular shipment on this lane.',
      weight: lane.weight,
      commodity: lane.commodity,
      refNumber: `GC-H${String(n).padStart(4, '0')}`,
      locations: [lane.from, lane.to].map((stop, index) => ({
        locationType: index === 0 ? 1 : 4,
        address: stop.address,
        city: stop.city,
        state: stop.state,
        latitude: stop.latitude,
        longitude: stop.longitude,
        name: stop.name,
        contactName: stop.contactName,
        contactPhone: stop.contactPhone,
        number: `GC-H${n}-${index + 1}`,
        saveLocation: false,
      })),
    });
    const posted = await marketplace.postLoad(users.shipper, body, iso(at));
    const offer = await marketplace.submitOffer(
      users.carrier,
      posted.id,
      { price, message: 'Regular lane, truck available.', eldTruckName: null },
      iso(at + HOUR),
    );
    // The only offer: acceptance has no other to decline, so it need not wait for the read model.
    let position = latest(
      offer.position,
      await marketplace.changeOffer(
        users.shipper,
        offer.id,
        { status: GenericStatus.Accepted, message: '', price: null },
        iso(at + 2 * HOUR),
      ),
    );
    const load = (await marketplace.loadLoad(posted.id))!;
    const signedAt = iso(at + 3 * HOUR);
    const pdf = await demoContractPdf({
      guid: load.guid,
      lane: `${lane.from.city}, ${lane.from.state} to ${lane.to.city}, ${lane.to.state}`,
      commodity: lane.commodity,
      price,
      carrier: users.carrierName,
      shipper: users.shipperName,
      signedBy: users.signer,
      signedAt,
    });
    const contractFileId = await files.save({
      organizationId: users.carrier.actor.organizationId!,
      kind: 'contract',
      loadId: posted.id,
      mime: 'application/pdf',
      data: pdf,
    });
    position = latest(
      position,
      (await marketplace.uploadContract(users.carrier, posted.id, contractFileId, signedAt))
        .position,
    );
    const tourId = load.tourId!;
    const driver = users.drivers[n % users.drivers.length]!;
    position = latest(
      position,
      await marketplace.assignTour(users.carrier, tourId, driver.actor.userId, iso(at + 4 * HOUR), {
        tractorNumber: `NS-${318 + (n % users.drivers.length) * 4}`,
        trailerNumber: null,
      }),
    );
    position = latest(
      position,
      await marketplace.changeTourStatus(
        driver,
        tourId,
        TourStatus.Dispatched,
        'Heading to the shipper',
        iso(pickup - 2 * HOUR),
      ),
    );
    position = latest(position, await stay(tourId, 0, pickup, n));
    position = latest(
      position,
      await marketplace.changeTourStatus(
        driver,
        tourId,
        TourStatus.InTransit,
        'Loaded and rolling',
        iso(pickup + HOUR),
      ),
    );
    position = latest(position, await stay(tourId, 1, dropoff, n + 7));
    position = latest(
      position,
      await marketplace.changeTourStatus(
        driver,
        tourId,
        TourStatus.PendingDeliveryConfirmation,
        'Unloaded, POD signed',
        iso(dropoff),
      ),
    );
    position = latest(
      position,
      await marketplace.changeTourStatus(
        users.shipper,
        tourId,
        TourStatus.Delivered,
        'Received in good order',
        iso(dropoff + 2 * HOUR),
      ),
    );
    return position;
  }
}
