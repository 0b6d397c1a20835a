/** Load bodies for tests: valid relative to now, with real US places (Chicago to Indianapolis, about 165 miles). */
export const CHICAGO = {
  address: 'Chicago, IL',
  city: 'Chicago',
  state: 'IL',
  latitude: 41.8781,
  longitude: -87.6298,
};
export const INDIANAPOLIS = {
  address: 'Indianapolis, IN',
  city: 'Indianapolis',
  state: 'IN',
  latitude: 39.7684,
  longitude: -86.1581,
};
export const GARY = {
  address: 'Gary, IN',
  city: 'Gary',
  state: 'IN',
  latitude: 41.5934,
  longitude: -87.3464,
};
export const LOS_ANGELES = {
  address: 'Los Angeles, CA',
  city: 'Los Angeles',
  state: 'CA',
  latitude: 34.0522,
  longitude: -118.2437,
};

const HOUR = 3_600_000;
export const inHours = (hours: number, from = Date.now()) =>
  new Date(from + hours * HOUR).toISOString();

type Place = typeof CHICAGO;
export const stop = (
  place: Place,
  locationType: 1 | 2 | 3 | 4,
  name: string,
  extra: Record<string, unknown> = {},
) => ({
  ...place,
  locationType,
  name,
  contactName: 'Pat Dock',
  contactPhone: '(312) 555-0101',
  number: locationType === 1 || locationType === 4 ? 'PU-1' : null,
  saveLocation: false,
  ...extra,
});

/** A body for POST loads: pickup in two days, dropoff a day later, offer open for a day. */
export const loadBody = (overrides: Record<string, unknown> = {}) => ({
  pickupTimestampStart: inHours(48),
  pickupTimezone: 'America/Chicago',
  dropOffTimestampStart: inHours(72),
  dropoffTimezone: 'America/New_York',
  expiration: inHours(24),
  expirationTimezone: 'America/Chicago',
  loadTypeId: 1,
  rate: 1,
  rateTypeId: 1,
  loadAccessories: [2],
  loadEquipment: [5],
  description: 'Palletised paper rolls, keep dry',
  weight: 42000,
  commodity: 'Paper',
  refNumber: 'PO-7781',
  locations: [stop(CHICAGO, 1, 'Acme Paper Mill'), stop(INDIANAPOLIS, 4, 'Hoosier Print Works')],
  ...overrides,
});
