/**
 * The demo shipments from the driver's assignment on: chat, dispatch, positions, stops, delivery
 * and ratings, as far as the scenario's stage.
 */
import { TourStatus } from '../../domain/catalog.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { latest } from '../eventstore/eventStore.ts';
import type { Platform } from '../platform.ts';
import type { DemoUser } from './demoUsers.ts';
import type { Scenario, Who } from './demoData.ts';

type Tour = NonNullable<Awaited<ReturnType<Platform['marketplace']['loadTour']>>>;

const ratingsBy = (side: 'shipper' | 'carrier') =>
  side === 'shipper'
    ? [
        { criteria: 1, rating: 5 },
        { criteria: 2, rating: 4.5 },
        { criteria: 3, rating: 5 },
        { criteria: 4, rating: 5 },
      ]
    : [
        { criteria: 5, rating: 4.5 },
        { criteria: 6, rating: 5 },
        { criteria: 7, rating: 4 },
        { criteria: 8, rating: 5 },
      ];

/** Drives a signed shipment's tour as far as its scenario's stage; answers the last position written. */
export async function driveDemoTour(
  marketplace: Platform['marketplace'],
  scenario: Scenario,
  people: { shipper: DemoUser; carrier: DemoUser; driver: DemoUser },
  tourId: string,
  tour: Tour,
  now: () => string,
  last: LogPosition | null,
): Promise<LogPosition | null> {
  const { shipper, carrier, driver } = people;
  const party = (who: Who) => (who === 'shipper' ? shipper : who === 'carrier' ? carrier : driver);
  last = latest(
    last,
    await marketplace.assignTour(
      carrier.caller,
      tourId,
      driver.caller.actor.userId,
      now(),
      scenario.truck,
    ),
  );
  for (const message of scenario.chat ?? []) {
    last = latest(
      last,
      (
        await marketplace.postChatMessage(
          party(message.who).caller,
          tourId,
          message.text,
          party(message.who).name,
          now(),
        )
      ).position,
    );
  }
  if (scenario.stage === 'readyForPickup') return last;

  last = latest(
    last,
    await marketplace.changeTourStatus(
      driver.caller,
      tourId,
      TourStatus.Dispatched,
      'Heading to the shipper',
      now(),
    ),
  );
  for (const note of scenario.notes ?? []) {
    last = latest(
      last,
      (
        await marketplace.addTourEvent(
          party(note.who).caller,
          tourId,
          { type: note.type, message: note.text, stopId: null },
          now(),
        )
      ).position,
    );
  }
  const [pickup, ...rest] = tour.stops;
  const dropoff = tour.stops.at(-1)!;
  if (scenario.stage === 'dispatched') {
    // On the way to the shipper, a few miles out.
    const position = {
      latitude: pickup!.latitude + 0.06,
      longitude: pickup!.longitude - 0.05,
      speed: 38,
      heading: 120,
      accuracy: 8,
      recordedAt: now(),
    };
    last = latest(
      last,
      (await marketplace.recordPositions(driver.caller, tourId, [position], now())).position,
    );
    return last;
  }
  if (scenario.stage === 'inTransit') {
    // At the shipper's dock: the geofence records the arrival, and the position ticker takes it from here.
    const atDock = {
      latitude: pickup!.latitude,
      longitude: pickup!.longitude,
      speed: 0,
      heading: null,
      accuracy: 5,
      recordedAt: now(),
    };
    last = latest(
      last,
      (await marketplace.recordPositions(driver.caller, tourId, [atDock], now())).position,
    );
    if (scenario.releasedAtDock)
      last = latest(last, await releaseAtDock(marketplace, people, tourId));
    last = latest(
      last,
      await marketplace.changeTourStatus(
        driver.caller,
        tourId,
        TourStatus.InTransit,
        'Loaded and rolling',
        now(),
      ),
    );
    return last;
  }
  // Shipments that already arrived: the driver recorded the stops by hand.
  for (const stop of [pickup!, ...rest]) {
    last = latest(
      last,
      (
        await marketplace.addTourEvent(
          driver.caller,
          tourId,
          { type: 'arrived', message: '', stopId: stop.id },
          now(),
        )
      ).position,
    );
    if (stop !== dropoff)
      last = latest(
        last,
        (
          await marketplace.addTourEvent(
            driver.caller,
            tourId,
            { type: 'departed', message: '', stopId: stop.id },
            now(),
          )
        ).position,
      );
    if (stop === pickup)
      last = latest(
        last,
        await marketplace.changeTourStatus(
          driver.caller,
          tourId,
          TourStatus.InTransit,
          'Loaded and rolling',
          now(),
        ),
      );
  }
  last = latest(
    last,
    await marketplace.changeTourStatus(
      driver.caller,
      tourId,
      TourStatus.PendingDeliveryConfirmation,
      'Unloaded, POD signed',
      now(),
    ),
  );
  if (scenario.stage === 'pendingDelivery') return last;

  last = latest(
    last,
    await marketplace.changeTourStatus(
      shipper.caller,
      tourId,
      TourStatus.Delivered,
      'Received in good order',
      now(),
    ),
  );
  if (scenario.rated?.shipper)
    last = latest(
      last,
      await marketplace.rateTour(shipper.caller, tourId, ratingsBy('shipper'), now()),
    );
  if (scenario.rated?.carrier)
    last = latest(
      last,
      await marketplace.rateTour(carrier.caller, tourId, ratingsBy('carrier'), now()),
    );
  return last;
}

/**
 * The shipper's dock releases the pickup as a dock would: a dock link, the driver's release code of
 * the moment and the tractor the dock sees (the truck stands at the dock: its position is there).
 */
async function releaseAtDock(
  marketplace: Platform['marketplace'],
  people: { shipper: DemoUser; driver: DemoUser },
  tourId: string,
): Promise<LogPosition | null> {
  const link = await marketplace.createDockLink(
    people.shipper.caller,
    tourId,
    new Date().toISOString(),
  );
  const { code } = await marketplace.releaseCode(people.driver.caller, tourId, new Date());
  const tour = (await marketplace.loadTour(tourId))!;
  const result = await marketplace.recordDockRelease(
    tour,
    link.linkId,
    {
      code,
      tractorNumber: tour.tractorNumber ?? null,
      eldDistanceMiles: 0,
      eldPositionAt: new Date().toISOString(),
    },
    new Date(),
  );
  return latest(link.position, result.position);
}
