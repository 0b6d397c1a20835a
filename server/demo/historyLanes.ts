/** The places and lanes of the demo's year of delivered shipments (see laneHistory.ts). */
import { places, type Facility } from './demoData.ts';

const facility = (
  name: string,
  address: string,
  city: string,
  state: string,
  latitude: number,
  longitude: number,
  contactName: string,
  contactPhone: string,
): Facility => ({ name, address, city, state, latitude, longitude, contactName, contactPhone });

/** Where shipper2's history loads start and end, besides the demo's places. */
export const historyPlaces = {
  jolietTerminal: facility(
    'Gulf Coast Chemicals Joliet Terminal',
    '2500 Channahon Rd, Joliet, IL 60436',
    'Joliet',
    'IL',
    41.5,
    -88.12,
    'Dana Price',
    '(815) 555-0148',
  ),
  southernCoatingsAtlanta: facility(
    'Southern Coatings Supply',
    '1500 Marietta Blvd NW, Atlanta, GA 30318',
    'Atlanta',
    'GA',
    33.801,
    -84.431,
    'Tasha Reid',
    '(404) 555-0165',
  ),
  bayouPlasticsBatonRouge: facility(
    'Bayou Plastics',
    '8000 Airline Hwy, Baton Rouge, LA 70815',
    'Baton Rouge',
    'LA',
    30.47,
    -91.07,
    'Remy Landry',
    '(225) 555-0104',
  ),
  metroplexPackagingDallas: facility(
    'Metroplex Packaging',
    '2900 Singleton Blvd, Dallas, TX 75212',
    'Dallas',
    'TX',
    32.782,
    -96.87,
    'Cole Whitaker',
    '(214) 555-0139',
  ),
} satisfies Record<string, Facility>;

export type HistoryLane = {
  from: Facility;
  to: Facility;
  equipment: number[];
  commodity: string;
  weight: number;
  /** Dollars per road mile at the year's average. */
  ratePerMile: number;
  /** Loads per month, oldest month first (twelve entries, the last is the current month). */
  perMonth: number[];
};

/**
 * The lanes: two main ones with five loads every month (figures every month: a figure needs five
 * agreed prices), one with one or two a month (figures for the year, none per month) and two every
 * other month (six a year: just listed among the busiest). Chicago (Joliet) to Atlanta on 53 ft dry
 * vans is the one a shipper1 load from its Chicago DC to Atlanta finds.
 */
export const historyLanes: HistoryLane[] = [
  {
    from: historyPlaces.jolietTerminal,
    to: historyPlaces.southernCoatingsAtlanta,
    equipment: [6],
    commodity: 'Latex paint base in totes',
    weight: 40000,
    ratePerMile: 2.35,
    perMonth: [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5],
  },
  {
    from: places.gulfCoastPasadena,
    to: places.crescentNewOrleans,
    equipment: [5],
    commodity: 'Food-grade glycerin in drums',
    weight: 39000,
    ratePerMile: 3.1,
    perMonth: [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5],
  },
  {
    from: places.gulfCoastPasadena,
    to: historyPlaces.metroplexPackagingDallas,
    equipment: [15],
    commodity: 'Temperature-controlled resin additives',
    weight: 36000,
    ratePerMile: 3.25,
    perMonth: [1, 2, 1, 1, 2, 1, 1, 2, 1, 1, 2, 1],
  },
  {
    from: places.gulfCoastPasadena,
    to: places.soonerOklahomaCity,
    equipment: [5],
    commodity: 'Plastic resin pellets',
    weight: 44000,
    ratePerMile: 2.6,
    perMonth: [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0],
  },
  {
    from: historyPlaces.jolietTerminal,
    to: historyPlaces.bayouPlasticsBatonRouge,
    equipment: [6],
    commodity: 'Packaging film rolls',
    weight: 30000,
    ratePerMile: 2.2,
    perMonth: [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1],
  },
];
