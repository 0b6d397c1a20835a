/**
 * Events of the trade for read model specs: a load posted, edited, expired, cancelled; offers
 * submitted, countered, accepted (`offers.ts`); the tour that follows (`tours.ts`). Each names only what a spec varies; the
 * rest is a plausible shipment from Chicago to Indianapolis. Times are ISO instants.
 */
import { LocationType } from '../../domain/catalog.ts';
import type { LoadStop } from '../../domain/loads/load.types.ts';
import {
  loadStream,
  type LoadDetails,
  type LoadCanceled,
  type LoadCompleted,
  type LoadContractSigned,
  type LoadExpirationExtended,
  type LoadExpired,
  type LoadPosted,
  type LoadProposalAccepted,
  type LoadUpdated,
} from '../../domain/loads/load.types.ts';
import {
  savedLocationsStream,
  type LocationSaved,
  type SavedLocation,
} from '../../domain/loads/savedLocation.ts';
import type { SpecEvent } from '../testing.ts';

/** The parties of the specs' shipments. */
export const shipper = '5b0c3c1e-6a55-4b1e-9d6c-0c7f0d6f9a01';
export const carrier = 'c0ffee00-1111-4222-8333-444455556666';
export const otherCarrier = 'c0ffee00-2222-4222-8333-444455556666';
export const shipperUser = '0e9f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
export const carrierUser = '0e9f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5c';
export const driver = '0e9f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5d';

export const on = <E extends { type: string; data: object }>(
  streamId: string,
  event: E,
): E & SpecEvent => ({ ...event, streamId }) as E & SpecEvent;

const stop = (
  id: string,
  locationType: LoadStop['locationType'],
  place: { city: string; state: string; latitude: number; longitude: number },
): LoadStop => ({
  id,
  locationType,
  address: `${place.city}, ${place.state}`,
  name: `${place.city} warehouse`,
  contactName: null,
  contactPhone: null,
  number: null,
  ...place,
});

export const chicago = { city: 'Chicago', state: 'IL', latitude: 41.8781, longitude: -87.6298 };
export const indianapolis = {
  city: 'Indianapolis',
  state: 'IN',
  latitude: 39.7684,
  longitude: -86.1581,
};
export const detroit = { city: 'Detroit', state: 'MI', latitude: 42.3314, longitude: -83.0458 };

/** A load's details: from `from` to `to`, 40,000 lb of paper on a dry van (trailer type 15). */
export const details = (
  change: Partial<LoadDetails> & { from?: typeof chicago; to?: typeof chicago } = {},
): LoadDetails => {
  const { from = chicago, to = indianapolis, ...rest } = change;
  return {
    pickupStart: '2026-12-05T08:00:00.000Z',
    pickupEnd: null,
    pickupTimezone: 'America/Chicago',
    dropoffStart: '2026-12-06T15:00:00.000Z',
    dropoffEnd: null,
    dropoffTimezone: 'America/New_York',
    expiration: '2026-12-03T10:00:00.000Z',
    expirationTimezone: 'America/Chicago',
    loadTypeId: 1,
    rate: 2500,
    rateTypeId: 1,
    carriersSortingTypeId: null,
    accessories: [1],
    equipment: [15],
    description: 'Palletized paper',
    weight: 40000,
    commodity: 'Paper',
    refNumber: 'PO-1',
    stops: [
      stop('10000000-0000-4000-8000-000000000001', LocationType.Pickup, from),
      stop('10000000-0000-4000-8000-000000000002', LocationType.Dropoff, to),
    ],
    ...rest,
  };
};

type At = { at: string };

export const loadPosted = (
  loadId: string,
  { at, guid = 'L-000001', ...change }: At & { guid?: string } & Parameters<typeof details>[0],
) =>
  on<LoadPosted>(loadStream(loadId), {
    type: 'LoadPosted',
    data: {
      loadId,
      guid,
      shipperOrganizationId: shipper,
      postedBy: shipperUser,
      details: details(change),
      postedAt: at,
    },
  });

export const loadEdited = (loadId: string, { at, ...change }: At & Parameters<typeof details>[0]) =>
  on<LoadUpdated>(loadStream(loadId), {
    type: 'LoadUpdated',
    data: { loadId, details: details(change), updatedBy: shipperUser, updatedAt: at },
  });

export const loadExtended = (
  loadId: string,
  { at, expiration, reopened }: At & { expiration: string; reopened: boolean },
) =>
  on<LoadExpirationExtended>(loadStream(loadId), {
    type: 'LoadExpirationExtended',
    data: {
      loadId,
      expiration,
      expirationTimezone: 'America/Chicago',
      reopened,
      extendedAt: at,
    },
  });

export const loadExpired = (loadId: string, { at }: At) =>
  on<LoadExpired>(loadStream(loadId), { type: 'LoadExpired', data: { loadId, expiredAt: at } });

export const loadCanceled = (
  loadId: string,
  { at, message = 'No longer needed' }: At & { message?: string },
) =>
  on<LoadCanceled>(loadStream(loadId), {
    type: 'LoadCanceled',
    data: { loadId, message, previousStatus: 4, canceledAt: at },
  });

/** The load's side of an acceptance: the offer's carrier and price, and the tour it opens. */
export const loadAccepted = (
  loadId: string,
  {
    at,
    proposalId: offerId,
    tourId,
    price,
    by = carrier,
  }: At & {
    proposalId: string;
    tourId: string;
    price: number;
    by?: string;
  },
) =>
  on<LoadProposalAccepted>(loadStream(loadId), {
    type: 'LoadProposalAccepted',
    data: { loadId, proposalId: offerId, carrierOrganizationId: by, price, tourId, acceptedAt: at },
  });

export const contractSigned = (
  loadId: string,
  { at, proposalId: offerId, contractFileId }: At & { proposalId: string; contractFileId: string },
) =>
  on<LoadContractSigned>(loadStream(loadId), {
    type: 'LoadContractSigned',
    data: { loadId, proposalId: offerId, contractFileId, signedAt: at },
  });

export const loadCompleted = (loadId: string, { at, tourId }: At & { tourId: string }) =>
  on<LoadCompleted>(loadStream(loadId), {
    type: 'LoadCompleted',
    data: { loadId, tourId, completedAt: at },
  });

export const locationSaved = (
  location: Partial<SavedLocation> & { id: string },
  { at, organizationId = shipper }: At & { organizationId?: string },
) =>
  on<LocationSaved>(savedLocationsStream(organizationId), {
    type: 'LocationSaved',
    data: {
      organizationId,
      location: {
        name: 'Chicago warehouse',
        address: 'Chicago, IL',
        city: 'Chicago',
        state: 'IL',
        latitude: chicago.latitude,
        longitude: chicago.longitude,
        contactName: null,
        contactPhone: null,
        number: null,
        locationType: LocationType.Pickup,
        ...location,
      },
      savedBy: shipperUser,
      savedAt: at,
    },
  });
