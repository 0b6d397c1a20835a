/**
 * What the demo marketplace holds: the facilities of the two demo shippers and their customers, and
 * one shipment per status a shipper's table can show, on real US lanes with plausible commodities,
 * weights and rates (about $2 to $3.50 a mile, more for reefers and short hauls). The accounts are
 * those of `seedDemo` (server/identity/bootstrap.ts).
 */
export type DemoUserKey =
  | 'shipper1'
  | 'shipper2'
  | 'shipper3'
  | 'carrier1'
  | 'carrier2'
  | 'carrier3'
  | 'carrier1.driver1'
  | 'carrier1.driver2'
  | 'carrier2.driver1'
  | 'carrier2.driver2'
  | 'carrier3.driver1'
  | 'carrier3.driver2';
export type DemoCarrier = 'carrier1' | 'carrier2' | 'carrier3';
export const demoEmail = (key: DemoUserKey) => `${key}@demo.freight.local`;

export type Facility = {
  name: string;
  address: string;
  city: string;
  state: string;
  latitude: number;
  longitude: number;
  contactName: string;
  contactPhone: string;
  /** Offered again in the shipper's load form. */
  save?: boolean;
};

const facility = (
  name: string,
  address: string,
  city: string,
  state: string,
  latitude: number,
  longitude: number,
  contactName: string,
  contactPhone: string,
  save = false,
): Facility => ({
  name,
  address,
  city,
  state,
  latitude,
  longitude,
  contactName,
  contactPhone,
  save,
});

export const places = {
  prairieChicago: facility(
    'Prairie Foods Chicago DC',
    '4500 S Pulaski Rd, Chicago, IL 60632',
    'Chicago',
    'IL',
    41.8117,
    -87.724,
    'Tom Kowalski',
    '(312) 555-0143',
    true,
  ),
  prairieStLouis: facility(
    'Prairie Foods St. Louis Plant',
    '2200 N Broadway, St. Louis, MO 63102',
    'St. Louis',
    'MO',
    38.649,
    -90.188,
    'Renee Adams',
    '(314) 555-0162',
    true,
  ),
  loneStarDallas: facility(
    'Lone Star Cold Storage',
    '3800 Irving Blvd, Dallas, TX 75247',
    'Dallas',
    'TX',
    32.809,
    -96.863,
    'Carlos Mendez',
    '(214) 555-0187',
  ),
  northLoopMinneapolis: facility(
    'North Loop Grocers DC',
    '800 Washington Ave N, Minneapolis, MN 55401',
    'Minneapolis',
    'MN',
    44.9866,
    -93.276,
    'Anna Berg',
    '(612) 555-0120',
  ),
  peachStateAtlanta: facility(
    'Peach State Foods',
    '1000 Fulton Industrial Blvd SW, Atlanta, GA 30336',
    'Atlanta',
    'GA',
    33.768,
    -84.558,
    'Keisha Grant',
    '(404) 555-0178',
  ),
  motorCityDetroit: facility(
    'Motor City Markets',
    '7000 E Nevada St, Detroit, MI 48234',
    'Detroit',
    'MI',
    42.427,
    -83.02,
    'Ray Jablonski',
    '(313) 555-0109',
  ),
  frontRangeDenver: facility(
    'Front Range Grocery Supply',
    '5100 Race St, Denver, CO 80216',
    'Denver',
    'CO',
    39.785,
    -104.963,
    'Megan Ortiz',
    '(303) 555-0154',
  ),
  musicCityNashville: facility(
    'Music City Distribution',
    '600 Massman Dr, Nashville, TN 37210',
    'Nashville',
    'TN',
    36.136,
    -86.725,
    'Darnell Hayes',
    '(615) 555-0131',
  ),
  buckeyeColumbus: facility(
    'Buckeye Fresh Markets',
    '3000 Alum Creek Dr, Columbus, OH 43207',
    'Columbus',
    'OH',
    39.92,
    -82.955,
    'Lisa Novak',
    '(614) 555-0116',
  ),
  heartlandKansasCity: facility(
    'Heartland Cold Storage',
    '2000 Guinotte Ave, Kansas City, MO 64120',
    'Kansas City',
    'MO',
    39.115,
    -94.55,
    'Greg Peters',
    '(816) 555-0192',
  ),
  bluegrassLouisville: facility(
    'Bluegrass Wholesale',
    '4400 Poplar Level Rd, Louisville, KY 40213',
    'Louisville',
    'KY',
    38.19,
    -85.712,
    'Holly Mason',
    '(502) 555-0138',
  ),
  lakefrontMilwaukee: facility(
    'Lakefront Dairy Co-op',
    '1500 S 1st St, Milwaukee, WI 53204',
    'Milwaukee',
    'WI',
    43.013,
    -87.911,
    'Jens Olsen',
    '(414) 555-0127',
  ),
  crossroadsIndianapolis: facility(
    'Crossroads Food Service',
    '5200 W 96th St, Indianapolis, IN 46268',
    'Indianapolis',
    'IN',
    39.926,
    -86.245,
    'Priya Shah',
    '(317) 555-0145',
  ),
  westMichiganGrandRapids: facility(
    'West Michigan Grocers',
    '3500 Roger B Chaffee Blvd SE, Grand Rapids, MI 49548',
    'Grand Rapids',
    'MI',
    42.895,
    -85.662,
    'Mark DeVries',
    '(616) 555-0171',
  ),
  gulfCoastPasadena: facility(
    'Gulf Coast Chemicals Pasadena Plant',
    '5000 Red Bluff Rd, Pasadena, TX 77503',
    'Pasadena',
    'TX',
    29.692,
    -95.152,
    'Luis Ortega',
    '(713) 555-0190',
    true,
  ),
  crescentNewOrleans: facility(
    'Crescent City Packaging',
    '4000 Chef Menteur Hwy, New Orleans, LA 70126',
    'New Orleans',
    'LA',
    30.018,
    -90.018,
    'Andre Broussard',
    '(504) 555-0113',
  ),
  soonerOklahomaCity: facility(
    'Sooner Plastics',
    '4700 SW 29th St, Oklahoma City, OK 73179',
    'Oklahoma City',
    'OK',
    35.437,
    -97.61,
    'Brandy Hale',
    '(405) 555-0166',
  ),
} satisfies Record<string, Facility>;

/** How far a shipment got: one per status of the shipper's table. */
export type Stage =
  | 'open'
  | 'paused'
  | 'canceled'
  | 'accepted'
  | 'signed'
  | 'readyForPickup'
  | 'dispatched'
  | 'inTransit'
  | 'pendingDelivery'
  | 'delivered';

export type Offer = { carrier: DemoCarrier; price: number; message: string; eldTruckName?: string };
export type Who = 'shipper' | 'carrier' | 'driver';

export type Scenario = {
  /** shipper3 joined the demo later: its loads are posted only where its account exists. */
  shipper: 'shipper1' | 'shipper2' | 'shipper3';
  stage: Stage;
  refNumber: string;
  commodity: string;
  description: string;
  weight: number;
  equipment: number[];
  accessories: number[];
  /** Pickup, then any stops on the way, then the dropoff. */
  stops: Facility[];
  /** Hours from now to the pickup; 0: shipments on the road, picked up as the demo starts (in a few minutes). */
  pickupInHours: number;
  /** Hours from now until the offer closes (at most the pickup); 0: a few minutes, long enough to book it. */
  expiresInHours: number;
  offers: Offer[];
  /** The shipper counters this carrier's offer; `accepted`: the carrier takes the counter. */
  counter?: { carrier: DemoCarrier; price: number; message: string; accepted: boolean };
  /** The carrier whose offer the shipper accepts. */
  winner?: DemoCarrier;
  driver?: DemoUserKey;
  /** The tractor (and trailer) the carrier names with the driver: the dock checks it at pickup. */
  truck?: { tractorNumber: string; trailerNumber: string | null };
  /** The shipper's dock released the pickup on the driver's release code (the load reads Protected). */
  releasedAtDock?: boolean;
  cancelMessage?: string;
  notes?: { who: Who; type: 'note' | 'delay' | 'issue'; text: string }[];
  chat?: { who: Who; text: string }[];
  /** Delivered shipments: who has rated the other side. */
  rated?: { shipper: boolean; carrier: boolean };
};

/** The reference of the live shipment whose truck the position ticker drives. */
export const LIVE_REF_NUMBER = 'PO-77120';

export const scenarios: Scenario[] = [
  {
    shipper: 'shipper1',
    stage: 'open',
    refNumber: 'PO-77101',
    commodity: 'Bagged flour',
    description: '40 lb sacks on 24 pallets, floor-loaded is fine. Keep dry.',
    weight: 42000,
    equipment: [6],
    accessories: [10],
    stops: [places.prairieChicago, places.northLoopMinneapolis],
    pickupInHours: 72,
    expiresInHours: 48,
    offers: [],
  },
  {
    shipper: 'shipper1',
    stage: 'open',
    refNumber: 'PO-77104',
    commodity: 'Frozen pizza',
    description: 'Continuous -10°F, 26 pallets, driver must sign for seal.',
    weight: 38500,
    equipment: [15],
    accessories: [7],
    stops: [places.prairieChicago, places.peachStateAtlanta],
    pickupInHours: 96,
    expiresInHours: 60,
    offers: [
      {
        carrier: 'carrier1',
        price: 2850,
        message: 'Reefer empty in Gary tomorrow, team drivers available.',
        eldTruckName: 'Truck 12',
      },
      { carrier: 'carrier2', price: 2980, message: 'Can pick up early if the dock allows.' },
      {
        carrier: 'carrier3',
        price: 2720,
        message: 'Backhaul rate, single driver, two days transit.',
        eldTruckName: 'NS-204',
      },
    ],
    counter: {
      carrier: 'carrier2',
      price: 2800,
      message: 'Can you do $2,800? That is our budget on this lane.',
      accepted: false,
    },
  },
  {
    shipper: 'shipper1',
    stage: 'paused',
    refNumber: 'PO-77097',
    commodity: 'Snack chips',
    description: 'Light, bulky freight: 30 pallets, do not stack.',
    weight: 14200,
    equipment: [6],
    accessories: [10],
    stops: [places.prairieChicago, places.motorCityDetroit],
    pickupInHours: 40,
    expiresInHours: 0,
    offers: [],
  },
  {
    shipper: 'shipper1',
    stage: 'canceled',
    refNumber: 'PO-77093',
    commodity: 'Canned vegetables',
    description: '22 pallets, shrink-wrapped.',
    weight: 43800,
    equipment: [5],
    accessories: [10],
    stops: [places.prairieChicago, places.frontRangeDenver],
    pickupInHours: 54,
    expiresInHours: 30,
    offers: [
      { carrier: 'carrier2', price: 2950, message: 'Headed to Denver anyway, can load Thursday.' },
    ],
    cancelMessage: 'The customer moved this order to rail.',
  },
  {
    shipper: 'shipper1',
    stage: 'accepted',
    refNumber: 'PO-77108',
    commodity: 'Breakfast cereal',
    description: '24 pallets, light but high cube.',
    weight: 19600,
    equipment: [6],
    accessories: [2],
    stops: [places.prairieChicago, places.musicCityNashville],
    pickupInHours: 30,
    expiresInHours: 20,
    offers: [
      { carrier: 'carrier1', price: 1520, message: 'Available Wednesday morning.' },
      { carrier: 'carrier3', price: 1450, message: 'On time or it is on us.' },
    ],
    winner: 'carrier3',
  },
  {
    shipper: 'shipper1',
    stage: 'signed',
    refNumber: 'PO-77110',
    commodity: 'Bottled sauces',
    description: 'Glass jars, 20 pallets; load locks required.',
    weight: 36400,
    equipment: [5],
    accessories: [10],
    stops: [places.prairieChicago, places.buckeyeColumbus],
    pickupInHours: 26,
    expiresInHours: 18,
    offers: [
      { carrier: 'carrier2', price: 1150, message: 'Air-ride van, we handle glass every week.' },
    ],
    winner: 'carrier2',
  },
  {
    shipper: 'shipper1',
    stage: 'readyForPickup',
    refNumber: 'PO-77112',
    commodity: 'Frozen vegetables',
    description: 'Set reefer to 0°F, pre-cool before arrival. 22 pallets.',
    weight: 40100,
    equipment: [15],
    accessories: [7],
    stops: [places.prairieChicago, places.heartlandKansasCity],
    pickupInHours: 20,
    expiresInHours: 12,
    offers: [
      { carrier: 'carrier1', price: 1680, message: 'Reefer pre-cooled, Jordan will take it.' },
    ],
    winner: 'carrier1',
    driver: 'carrier1.driver2',
    // Assigned without a tractor number (as older callers did): the load reads Flagged until one is named.
    chat: [
      { who: 'carrier', text: 'Jordan Lee will pick this up tomorrow at 7 am.' },
      { who: 'shipper', text: 'Great, ask for door 6 at the gate.' },
    ],
  },
  {
    shipper: 'shipper1',
    stage: 'dispatched',
    refNumber: 'PO-77115',
    commodity: 'Paper packaging',
    description: 'Corrugated boxes, flat, 26 pallets.',
    weight: 21800,
    equipment: [6],
    accessories: [10],
    stops: [places.prairieChicago, places.bluegrassLouisville],
    pickupInHours: 0.5,
    expiresInHours: 0,
    offers: [{ carrier: 'carrier3', price: 980, message: 'Driver is 30 minutes out.' }],
    winner: 'carrier3',
    driver: 'carrier3.driver1',
    // Its pickup is half an hour out: the driver's release code shows, and a dock link can be tried.
    truck: { tractorNumber: 'NS-318', trailerNumber: 'TR-5521' },
    notes: [{ who: 'driver', type: 'note', text: 'On my way to the shipper, 20 minutes out.' }],
  },
  {
    shipper: 'shipper1',
    stage: 'inTransit',
    refNumber: LIVE_REF_NUMBER,
    commodity: 'Frozen poultry',
    description: 'Continuous -10°F. 18 pallets from Chicago, 6 more at our St. Louis plant.',
    weight: 41200,
    equipment: [15],
    accessories: [7, 2],
    stops: [places.prairieChicago, places.prairieStLouis, places.loneStarDallas],
    pickupInHours: 0,
    expiresInHours: 0,
    offers: [
      { carrier: 'carrier1', price: 2600, message: 'Reefer ready in Chicago today, Alex drives.' },
      { carrier: 'carrier2', price: 2790, message: 'Can do it with a team.' },
    ],
    counter: {
      carrier: 'carrier1',
      price: 2450,
      message: 'We can go to $2,450 with the St. Louis stop included.',
      accepted: true,
    },
    winner: 'carrier1',
    driver: 'carrier1.driver1',
    truck: { tractorNumber: 'RT-1184', trailerNumber: 'RF-0416' },
    // Released at the dock on Alex's release code before rolling: the load reads Protected.
    releasedAtDock: true,
    notes: [{ who: 'driver', type: 'note', text: 'Reefer at -10°F, seal 448120 applied.' }],
    chat: [
      { who: 'driver', text: 'Loaded 18 pallets, seal 448120. Rolling to St. Louis.' },
      { who: 'shipper', text: 'Thanks Alex! St. Louis has 6 more pallets ready at door 3.' },
      {
        who: 'carrier',
        text: 'Fuel stop planned in Rolla after St. Louis. On schedule for Dallas.',
      },
    ],
  },
  {
    shipper: 'shipper1',
    stage: 'pendingDelivery',
    refNumber: 'PO-77089',
    commodity: 'Cheese blocks',
    description: '34°F to 38°F, 16 pallets.',
    weight: 33500,
    equipment: [15],
    accessories: [7],
    stops: [places.prairieChicago, places.lakefrontMilwaukee],
    pickupInHours: 0,
    expiresInHours: 0,
    offers: [{ carrier: 'carrier3', price: 560, message: 'Short haul, same day delivery.' }],
    winner: 'carrier3',
    driver: 'carrier3.driver2',
    truck: { tractorNumber: 'NS-322', trailerNumber: null },
    notes: [{ who: 'driver', type: 'delay', text: 'Waited 40 minutes at the receiver gate.' }],
    chat: [{ who: 'driver', text: 'Unloaded 16 pallets, the receiver signed the POD.' }],
  },
  {
    shipper: 'shipper1',
    stage: 'delivered',
    refNumber: 'PO-77081',
    commodity: 'Snack crackers',
    description: '28 pallets, floor stack allowed.',
    weight: 23900,
    equipment: [6],
    accessories: [10],
    stops: [places.prairieChicago, places.crossroadsIndianapolis],
    pickupInHours: 0,
    expiresInHours: 0,
    offers: [
      { carrier: 'carrier2', price: 650, message: 'Quick turn, delivered by noon.' },
      { carrier: 'carrier1', price: 690, message: 'Available today.' },
    ],
    winner: 'carrier2',
    driver: 'carrier2.driver1',
    truck: { tractorNumber: 'BR-2204', trailerNumber: 'VN-105' },
    rated: { shipper: true, carrier: true },
    chat: [
      { who: 'driver', text: 'Delivered, no damage.' },
      { who: 'shipper', text: 'Received in good order, thank you.' },
    ],
  },
  {
    shipper: 'shipper1',
    stage: 'delivered',
    refNumber: 'PO-77084',
    commodity: 'Paper towels',
    description: 'Bulky, 30 pallets.',
    weight: 16800,
    equipment: [6],
    accessories: [10],
    stops: [places.prairieChicago, places.westMichiganGrandRapids],
    pickupInHours: 0,
    expiresInHours: 0,
    offers: [{ carrier: 'carrier2', price: 640, message: 'We run Grand Rapids daily.' }],
    winner: 'carrier2',
    driver: 'carrier2.driver2',
    truck: { tractorNumber: 'BR-2210', trailerNumber: 'VN-118' },
    rated: { shipper: false, carrier: true },
  },
  {
    shipper: 'shipper2',
    stage: 'open',
    refNumber: 'GC-5521',
    commodity: 'Food-grade glycerin in drums',
    description: '80 drums on 20 pallets, non-hazardous.',
    weight: 39000,
    equipment: [5],
    accessories: [1],
    stops: [places.gulfCoastPasadena, places.crescentNewOrleans],
    pickupInHours: 50,
    expiresInHours: 36,
    offers: [{ carrier: 'carrier1', price: 1120, message: 'Empty in Houston Friday.' }],
  },
  {
    shipper: 'shipper2',
    stage: 'open',
    refNumber: 'GC-5524',
    commodity: 'Plastic resin pellets',
    description: 'Bagged on 20 pallets, 2,200 lb each.',
    weight: 44000,
    equipment: [5, 6],
    accessories: [10],
    stops: [places.gulfCoastPasadena, places.soonerOklahomaCity],
    pickupInHours: 80,
    expiresInHours: 60,
    offers: [],
  },
  {
    shipper: 'shipper3',
    stage: 'open',
    refNumber: 'LD-3107',
    commodity: 'Cheddar cheese in cases',
    description: '20 pallets, keep at 36 °F.',
    weight: 38000,
    equipment: [15],
    accessories: [10],
    stops: [places.lakefrontMilwaukee, places.crossroadsIndianapolis],
    pickupInHours: 60,
    expiresInHours: 44,
    offers: [],
  },
];
