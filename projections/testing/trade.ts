/**
 * Events of the trade for read model specs: a load posted, edited, expired, cancelled; offers
 * submitted, countered, accepted; the tour that follows. Each names only what a spec varies; the
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
import {
  proposalStream,
  type ContractUploaded,
  type CounterAccepted,
  type ProposalAccepted,
  type ProposalCanceled,
  type ProposalCountered,
  type ProposalDeclined,
  type ProposalRevised,
  type ProposalSubmitted,
} from '../../domain/proposals/proposal.types.ts';
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
    proposalId,
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
    data: { loadId, proposalId, carrierOrganizationId: by, price, tourId, acceptedAt: at },
  });

export const contractSigned = (
  loadId: string,
  { at, proposalId, contractFileId }: At & { proposalId: string; contractFileId: string },
) =>
  on<LoadContractSigned>(loadStream(loadId), {
    type: 'LoadContractSigned',
    data: { loadId, proposalId, contractFileId, signedAt: at },
  });

export const loadCompleted = (loadId: string, { at, tourId }: At & { tourId: string }) =>
  on<LoadCompleted>(loadStream(loadId), {
    type: 'LoadCompleted',
    data: { loadId, tourId, completedAt: at },
  });

export const offerSubmitted = (
  proposalId: string,
  {
    at,
    loadId,
    price,
    by = carrier,
    message = 'Can pick up on time',
  }: At & { loadId: string; price: number; by?: string; message?: string },
) =>
  on<ProposalSubmitted>(proposalStream(proposalId), {
    type: 'ProposalSubmitted',
    data: {
      proposalId,
      loadId,
      loadGuid: 'L-000001',
      shipperOrganizationId: shipper,
      carrierOrganizationId: by,
      submittedBy: carrierUser,
      price,
      message,
      eldTruckName: null,
      submittedAt: at,
    },
  });

export const offerRevised = (
  proposalId: string,
  { at, price, message = 'Revised' }: At & { price: number; message?: string },
) =>
  on<ProposalRevised>(proposalStream(proposalId), {
    type: 'ProposalRevised',
    data: {
      proposalId,
      price,
      message,
      eldTruckName: 'Truck 7',
      revisedBy: carrierUser,
      revisedAt: at,
    },
  });

export const offerCountered = (proposalId: string, { at, price }: At & { price: number }) =>
  on<ProposalCountered>(proposalStream(proposalId), {
    type: 'ProposalCountered',
    data: {
      proposalId,
      price,
      message: 'Can you do this?',
      counteredBy: shipperUser,
      counteredAt: at,
    },
  });

export const counterAccepted = (proposalId: string, { at, price }: At & { price: number }) =>
  on<CounterAccepted>(proposalStream(proposalId), {
    type: 'CounterAccepted',
    data: { proposalId, price, acceptedBy: carrierUser, acceptedAt: at },
  });

export const offerAccepted = (
  proposalId: string,
  { at, loadId, tourId, price }: At & { loadId: string; tourId: string; price: number },
) =>
  on<ProposalAccepted>(proposalStream(proposalId), {
    type: 'ProposalAccepted',
    data: { proposalId, loadId, tourId, price, acceptedBy: shipperUser, acceptedAt: at },
  });

export const offerDeclined = (proposalId: string, { at }: At) =>
  on<ProposalDeclined>(proposalStream(proposalId), {
    type: 'ProposalDeclined',
    data: { proposalId, reason: 'shipper', message: '', declinedBy: shipperUser, declinedAt: at },
  });

export const offerCanceled = (proposalId: string, { at }: At) =>
  on<ProposalCanceled>(proposalStream(proposalId), {
    type: 'ProposalCanceled',
    data: { proposalId, message: 'Truck broke down', canceledBy: carrierUser, canceledAt: at },
  });

export const contractUploaded = (
  proposalId: string,
  { at, loadId, contractFileId }: At & { loadId: string; contractFileId: string },
) =>
  on<ContractUploaded>(proposalStream(proposalId), {
    type: 'ContractUploaded',
    data: { proposalId, loadId, contractFileId, uploadedBy: carrierUser, uploadedAt: at },
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
