/**
 * Events of a tour for read model specs: opened on an acceptance, confirmed, assigned to a driver,
 * on the road (positions, chat, timeline), delivered, rated, shared with the receiver.
 */
import { LocationType, type TourStatusId } from '../../domain/catalog.ts';
import {
  tourChatStream,
  tourPositionsStream,
  tourStream,
  type CarrierConfirmed,
  type MessagePosted,
  type PositionRecorded,
  type PositionsRecorded,
  type TourAssigned,
  type TourCanceled,
  type TourEventAdded,
  type TourEventType,
  type TourOpened,
  type TourPosition,
  type TourRated,
  type TourShared,
  type TourShareRevoked,
  type TourStatusChanged,
} from '../../domain/tours/tour.types.ts';
import { carrier, carrierUser, chicago, driver, indianapolis, on, shipper } from './trade.ts';

type At = { at: string };

export const tourOpened = (
  tourId: string,
  {
    at,
    loadId,
    proposalId: offerId,
    price,
  }: At & { loadId: string; proposalId: string; price: number },
) =>
  on<TourOpened>(tourStream(tourId), {
    type: 'TourOpened',
    data: {
      tourId,
      loadId,
      loadGuid: 'L-000001',
      proposalId: offerId,
      shipperOrganizationId: shipper,
      carrierOrganizationId: carrier,
      price,
      eldTruckName: null,
      stops: [
        {
          id: '10000000-0000-4000-8000-000000000001',
          locationType: LocationType.Pickup,
          name: 'Chicago warehouse',
          address: 'Chicago, IL',
          ...chicago,
        },
        {
          id: '10000000-0000-4000-8000-000000000002',
          locationType: LocationType.Dropoff,
          name: 'Indianapolis warehouse',
          address: 'Indianapolis, IN',
          ...indianapolis,
        },
      ],
      openedAt: at,
    },
  });

export const carrierConfirmed = (
  tourId: string,
  { at, contractFileId }: At & { contractFileId: string },
) =>
  on<CarrierConfirmed>(tourStream(tourId), {
    type: 'CarrierConfirmed',
    data: { tourId, contractFileId, confirmedAt: at },
  });

export const driverAssigned = (
  tourId: string,
  { at, assigneeId = driver, name = 'Dana Driver' }: At & { assigneeId?: string; name?: string },
) =>
  on<TourAssigned>(tourStream(tourId), {
    type: 'TourAssigned',
    data: {
      tourId,
      assigneeId,
      assigneeName: name,
      previousAssigneeId: null,
      assignedBy: carrierUser,
      assignedAt: at,
    },
  });

export const tourMoved = (
  tourId: string,
  { at, from, to }: At & { from: TourStatusId; to: TourStatusId },
) =>
  on<TourStatusChanged>(tourStream(tourId), {
    type: 'TourStatusChanged',
    data: { tourId, from, to, message: '', changedBy: driver, party: 'driver', changedAt: at },
  });

export const tourCanceled = (tourId: string, { at, from }: At & { from: TourStatusId }) =>
  on<TourCanceled>(tourStream(tourId), {
    type: 'TourCanceled',
    data: {
      tourId,
      from,
      message: 'Shipment called off',
      party: 'shipper',
      canceledBy: null,
      canceledAt: at,
    },
  });

export const timelineEntry = (
  tourId: string,
  {
    at,
    eventId,
    type = 'note',
    message,
  }: At & { eventId: string; type?: TourEventType; message: string },
) =>
  on<TourEventAdded>(tourStream(tourId), {
    type: 'TourEventAdded',
    data: { tourId, eventId, type, message, stopId: null, addedBy: driver, at },
  });

/** `side` rated the other side's organization, one rating per criterion id. */
export const tourRated = (
  tourId: string,
  { at, side, ratings }: At & { side: 'shipper' | 'carrier'; ratings: Record<number, number> },
) =>
  on<TourRated>(tourStream(tourId), {
    type: 'TourRated',
    data: {
      tourId,
      side,
      ratedOrganizationId: side === 'shipper' ? carrier : shipper,
      ratings: Object.entries(ratings).map(([criteria, rating]) => ({
        criteria: Number(criteria),
        rating,
      })),
      ratedBy: carrierUser,
      ratedAt: at,
    },
  });

export const position = (
  recordedAt: string,
  latitude: number,
  longitude: number,
  speed: number | null = 55,
): TourPosition => ({ latitude, longitude, speed, heading: 90, accuracy: 5, recordedAt });

export const positionRecorded = (
  tourId: string,
  at: TourPosition,
  source: 'driver' | 'eld' = 'driver',
) =>
  on<PositionRecorded>(tourPositionsStream(tourId), {
    type: 'PositionRecorded',
    data: { tourId, source, ...at },
  });

export const positionsRecorded = (
  tourId: string,
  positions: TourPosition[],
  source: 'driver' | 'eld' = 'eld',
) =>
  on<PositionsRecorded>(tourPositionsStream(tourId), {
    type: 'PositionsRecorded',
    data: { tourId, source, positions },
  });

export const messagePosted = (
  tourId: string,
  {
    at,
    messageId,
    text,
    userName = 'Dana Driver',
  }: At & {
    messageId: string;
    text: string;
    userName?: string;
  },
) =>
  on<MessagePosted>(tourChatStream(tourId), {
    type: 'MessagePosted',
    data: {
      tourId,
      messageId,
      userId: driver,
      userName,
      organizationId: carrier,
      text,
      postedAt: at,
    },
  });

export const tourShared = (
  tourId: string,
  { at, shareId, expiresAt }: At & { shareId: string; expiresAt: string },
) =>
  on<TourShared>(tourStream(tourId), {
    type: 'TourShared',
    data: {
      tourId,
      shareId,
      tokenHash: `hash-of-${shareId}`,
      organizationId: shipper,
      sharedBy: carrierUser,
      expiresAt,
      sharedAt: at,
    },
  });

export const shareRevoked = (tourId: string, { at, shareId }: At & { shareId: string }) =>
  on<TourShareRevoked>(tourStream(tourId), {
    type: 'TourShareRevoked',
    data: { tourId, shareId, revokedBy: carrierUser, revokedAt: at },
  });
