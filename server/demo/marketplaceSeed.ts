/**
 * The demo marketplace: on an empty marketplace with the demo accounts in place, one shipment per
 * status of the shipper's table, made through the same command handlers people's requests use, as
 * the demo users. Times come from now (an event log cannot be back-dated), so the shipments already
 * on the road were picked up as the demo started. See demoData.ts for what is created.
 */
import { GenericStatus, type TimeZoneId } from '../../domain/catalog.ts';
import { loadBodySchema } from '../../domain/schemas/load.schema.ts';
import { distanceMiles } from '../../domain/tours/geo.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { latest } from '../eventstore/eventStore.ts';
import { createFileStore } from '../integrations/files/files.ts';
import type { Platform } from '../platform.ts';
import { demoContractPdf } from './contractPdf.ts';
import { seedLaneHistory } from './laneHistory.ts';
import { seedDemoFacilities } from './facilitiesSeed.ts';
import {
  demoEmail,
  scenarios,
  type DemoCarrier,
  type DemoUserKey,
  type Facility,
  type Scenario,
} from './demoData.ts';
import { driveDemoTour } from './demoTour.ts';
import { seedDemoClaims } from './claimsSeed.ts';
import { seedDeliveredInvoices } from './deliveredInvoicesSeed.ts';
import { seedDemoInvoices } from './invoicesSeed.ts';
import { type DemoUser, demoUser, marketplaceIsEmpty } from './demoUsers.ts';

export { demoUser, marketplaceIsEmpty } from './demoUsers.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const VIEWS = ['marketplace', 'tourPositions', 'tourChat', 'claims'];

const zoneOf = (state: string): TimeZoneId =>
  ['GA', 'MI', 'OH', 'IN', 'KY', 'NY', 'NJ', 'PA', 'FL'].includes(state)
    ? 'America/New_York'
    : state === 'CO'
      ? 'America/Phoenix'
      : 'America/Chicago';

const iso = (at: number) => new Date(at).toISOString();

/** The POST loads body of a scenario, checked by the same schema as a request. */
function loadBodyOf(scenario: Scenario, now: number) {
  const pickup = now + (scenario.pickupInHours === 0 ? 5 * MINUTE : scenario.pickupInHours * HOUR);
  const expiration =
    scenario.stage === 'paused'
      ? now + 2_000
      : Math.min(
          pickup,
          now + (scenario.expiresInHours === 0 ? 5 * MINUTE : scenario.expiresInHours * HOUR),
        );
  let miles = 0;
  for (let index = 1; index < scenario.stops.length; index++)
    miles += distanceMiles(scenario.stops[index - 1]!, scenario.stops[index]!) * 1.2;
  const dropoff = Math.ceil((pickup + (miles / 50 + 2) * HOUR) / HOUR) * HOUR;
  const first = scenario.stops[0]!;
  const last = scenario.stops.at(-1)!;
  const location = (stop: Facility, index: number) => {
    const locationType = index === 0 ? 1 : index === scenario.stops.length - 1 ? 4 : 2;
    return {
      locationType,
      address: stop.address,
      city: stop.city,
      state: stop.state,
      latitude: stop.latitude,
      longitude: stop.longitude,
      name: stop.name,
      contactName: stop.contactName,
      contactPhone: stop.contactPhone,
      number:
        locationType === 1 || locationType === 4 ? `${scenario.refNumber}-${index + 1}` : null,
      saveLocation: stop.save ?? false,
    };
  };
  const raw = {
    pickupTimestampStart: iso(pickup),
    pickupTimezone: zoneOf(first.state),
    dropOffTimestampStart: iso(dropoff),
    dropoffTimezone: zoneOf(last.state),
    expiration: iso(expiration),
    expirationTimezone: zoneOf(first.state),
    loadTypeId: 1,
    rate: 1,
    rateTypeId: 1,
    loadAccessories: scenario.accessories,
    loadEquipment: scenario.equipment,
    description: scenario.description,
    weight: scenario.weight,
    commodity: scenario.commodity,
    refNumber: scenario.refNumber,
    locations: scenario.stops.map(location),
  };
  return loadBodySchema(iso(now)).parse(raw);
}
/**
 * Seeds the demo marketplace once. Answers false, touching nothing, when a load was ever posted or
 * the demo accounts are missing (DEMO was off when the database was first started).
 */
export async function seedMarketplaceDemo(platform: Platform): Promise<boolean> {
  const { marketplace, runner, logger } = platform;
  if (!(await marketplaceIsEmpty(platform))) return false;
  const keys: DemoUserKey[] = [
    'shipper1',
    'shipper2',
    'carrier1',
    'carrier2',
    'carrier3',
    'carrier1.driver1',
    'carrier1.driver2',
    'carrier2.driver1',
    'carrier2.driver2',
    'carrier3.driver1',
    'carrier3.driver2',
  ];
  const users = new Map<DemoUserKey, DemoUser>();
  for (const key of keys) {
    const user = await demoUser(platform, key);
    if (!user) {
      logger.info(
        { account: demoEmail(key) },
        'demo marketplace not seeded: the demo accounts are missing',
      );
      return false;
    }
    users.set(key, user);
  }
  // shipper3 came later: a database seeded before has no such account, and its loads are left out.
  const shipper3 = await demoUser(platform, 'shipper3');
  if (shipper3) users.set('shipper3', shipper3);
  const as = (key: DemoUserKey) => users.get(key)!;
  const files = createFileStore(platform.database.db);
  const now = () => new Date().toISOString();
  let last: LogPosition | null = null;
  const paused: string[] = [];
  const delivered: string[] = [];
  let atDelivery: { tourId: string; driver: DemoUser } | null = null;

  for (const scenario of scenarios) {
    if (!users.has(scenario.shipper)) continue;
    const shipper = as(scenario.shipper);
    const posted = await marketplace.postLoad(
      shipper.caller,
      loadBodyOf(scenario, Date.now()),
      now(),
    );
    last = latest(last, posted.position);
    const loadId = posted.id;
    if (scenario.stage === 'paused') paused.push(loadId);

    const offers = new Map<DemoCarrier, string>();
    for (const offer of scenario.offers) {
      const submitted = await marketplace.submitOffer(
        as(offer.carrier).caller,
        loadId,
        { price: offer.price, message: offer.message, eldTruckName: offer.eldTruckName ?? null },
        now(),
      );
      offers.set(offer.carrier, submitted.id);
      last = latest(last, submitted.position);
    }
    if (scenario.counter) {
      const offerId = offers.get(scenario.counter.carrier)!;
      last = latest(
        last,
        await marketplace.changeOffer(
          shipper.caller,
          offerId,
          {
            status: GenericStatus.PendingAcceptance,
            message: scenario.counter.message,
            price: scenario.counter.price,
          },
          now(),
        ),
      );
      if (scenario.counter.accepted) {
        last = latest(
          last,
          await marketplace.changeOffer(
            as(scenario.counter.carrier).caller,
            offerId,
            { status: GenericStatus.SubmittedProposal, message: 'Deal.', price: null },
            now(),
          ),
        );
      }
    }
    if (scenario.stage === 'canceled') {
      last = latest(
        last,
        await marketplace.cancelLoad(
          shipper.caller,
          loadId,
          scenario.cancelMessage ?? 'No longer needed',
          now(),
        ),
      );
      continue;
    }
    if (!scenario.winner) continue;

    // Acceptance declines the other open offers it finds in the read model: let it see them all.
    await runner.waitFor(['marketplace'], last, 10_000);
    const carrier = as(scenario.winner);
    last = latest(
      last,
      await marketplace.changeOffer(
        shipper.caller,
        offers.get(scenario.winner)!,
        { status: GenericStatus.Accepted, message: '', price: null },
        now(),
      ),
    );
    const load = (await marketplace.loadLoad(loadId))!;
    const tourId = load.tourId!;
    if (scenario.stage === 'accepted') continue;

    const tour = (await marketplace.loadTour(tourId))!;
    const pdf = await demoContractPdf({
      guid: load.guid,
      lane: `${scenario.stops[0]!.city}, ${scenario.stops[0]!.state} to ${scenario.stops.at(-1)!.city}, ${scenario.stops.at(-1)!.state}`,
      commodity: scenario.commodity,
      price: tour.price,
      carrier:
        (await platform.identity.loadOrganization(carrier.organizationId))?.name ?? 'Carrier',
      shipper:
        (await platform.identity.loadOrganization(shipper.organizationId))?.name ?? 'Shipper',
      signedBy: carrier.name,
      signedAt: now(),
    });
    const contractFileId = await files.save({
      organizationId: carrier.organizationId,
      kind: 'contract',
      loadId,
      mime: 'application/pdf',
      data: pdf,
    });
    last = latest(
      last,
      (await marketplace.uploadContract(carrier.caller, loadId, contractFileId, now())).position,
    );
    if (scenario.stage === 'signed') continue;

    const driver = as(scenario.driver!);
    if (scenario.stage === 'delivered' && scenario.shipper === 'shipper1') delivered.push(tourId);
    if (scenario.stage === 'pendingDelivery') atDelivery = { tourId, driver };
    last = latest(
      last,
      await driveDemoTour(
        marketplace,
        scenario,
        { shipper, carrier, driver },
        tourId,
        tour,
        now,
        last,
      ),
    );
  }

  // The paused loads' offers closed two seconds after posting: pause them as the scheduler would.
  for (const loadId of paused) {
    const load = await marketplace.loadLoad(loadId);
    const wait = load ? Date.parse(load.details.expiration) - Date.now() + 10 : 0;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    await marketplace.expireLoad(loadId, now());
  }
  // A shipment shipper2 cancels once carrier1 confirmed it: the TONU of the demo's claims.
  const tonuScenario = scenarios.find((scenario) => scenario.stage === 'delivered')!;
  const tonuLoad = await marketplace.postLoad(
    as('shipper2').caller,
    loadBodyOf({ ...tonuScenario, shipper: 'shipper2', refNumber: 'SO-88017' }, Date.now()),
    now(),
  );
  const tonuOffer = await marketplace.submitOffer(
    as('carrier1').caller,
    tonuLoad.id,
    { price: 1450, message: 'Truck ready at the dock tomorrow', eldTruckName: null },
    now(),
  );
  await runner.waitFor(['marketplace'], latest(tonuLoad.position, tonuOffer.position), 10_000);
  await marketplace.changeOffer(
    as('shipper2').caller,
    tonuOffer.id,
    { status: GenericStatus.Accepted, message: '', price: null },
    now(),
  );
  const tonuTour = (await marketplace.loadLoad(tonuLoad.id))!.tourId!;
  const tonuContract = await files.save({
    organizationId: as('carrier1').organizationId,
    kind: 'contract',
    loadId: tonuLoad.id,
    mime: 'application/pdf',
    data: await demoContractPdf({
      guid: (await marketplace.loadLoad(tonuLoad.id))!.guid,
      lane: 'Demo lane',
      commodity: tonuScenario.commodity,
      price: 1450,
      carrier:
        (await platform.identity.loadOrganization(as('carrier1').organizationId))?.name ??
        'Carrier',
      shipper:
        (await platform.identity.loadOrganization(as('shipper2').organizationId))?.name ??
        'Shipper',
      signedBy: as('carrier1').name,
      signedAt: now(),
    }),
  });
  await marketplace.uploadContract(as('carrier1').caller, tonuLoad.id, tonuContract, now());
  // Claims on shipper1's delivered shipments, a lumper receipt and the TONU.
  await runner.waitFor(['marketplace'], await platform.store.committedHead(), 10_000);
  last = latest(
    last,
    await seedDemoClaims(platform, {
      delivered,
      atDelivery,
      canceled: { loadId: tonuLoad.id, tourId: tonuTour, shipper: as('shipper2') },
      shipper: as('shipper1'),
    }),
  );
  // A year of invoices: shipper1 pays fast, shipper2 slowly and late, shipper3 is new (two paid).
  last = latest(
    last,
    await seedDemoInvoices(platform, {
      fast: as('shipper1'),
      slow: as('shipper2'),
      fresh: shipper3,
      carriers: [as('carrier1'), as('carrier2'), as('carrier3')],
    }),
  );

  // The carrier's invoices of shipper1's delivered shipments: one submitted, one scheduled.
  await runner.waitFor(['claims'], await platform.store.committedHead(), 10_000);
  last = latest(
    last,
    await seedDeliveredInvoices(platform, {
      delivered,
      users: [...users.values()],
      shipper: as('shipper1'),
    }),
  );

  // A year of delivered loads on a few lanes, for the lane-rate charts.
  const history = await seedLaneHistory(platform, {
    shipper: as('shipper2').caller,
    carrier: as('carrier3').caller,
    drivers: [as('carrier3.driver1').caller, as('carrier3.driver2').caller],
    shipperName:
      (await platform.identity.loadOrganization(as('shipper2').organizationId))?.name ?? 'Shipper',
    carrierName:
      (await platform.identity.loadOrganization(as('carrier3').organizationId))?.name ?? 'Carrier',
    signer: as('carrier3').name,
  });
  last = latest(last, history.last);
  // The busy facilities of that year: the drivers' tags and the shipper's reply.
  last = latest(
    last,
    await seedDemoFacilities(
      platform,
      {
        drivers: [as('carrier3.driver1').caller, as('carrier3.driver2').caller],
        shipper: as('shipper2').caller,
      },
      now(),
    ),
  );

  await runner.waitFor(
    [...VIEWS, 'laneRates', 'payerFigures'],
    latest(last, await platform.store.head()),
    20_000,
  );
  logger.info(
    { loads: scenarios.length, history: history.delivered },
    'demo marketplace seeded: loads in every status, offers, contracts, a live tour and a year of delivered loads',
  );
  return true;
}
