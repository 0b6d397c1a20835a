/** A tour's course: opening it, the signed contract, the driver, the status moves, and calling it off. */
import { TourStatus, type TourStatusId } from '../catalog.ts';
import {
  ConflictError,
  ForbiddenError,
  IllegalStateError,
  ValidationError,
} from '../shared/errors.ts';
import type {
  AssignTour,
  CancelTour,
  ChangeTourStatus,
  ConfirmCarrier,
  OpenedTour,
  OpenTour,
  Tour,
  TourEvent,
} from './tour.types.ts';
import { tourStatusName } from './tour.evolve.ts';
import { statusChange, timelineEntry, type Party } from './tour.timeline.ts';

export const openTour = ({ data }: OpenTour, state: Tour): TourEvent[] => {
  if (state.exists) throw new ConflictError('Tour already exists');
  const { now, ...opening } = data;
  return [{ type: 'TourOpened', data: { ...opening, openedAt: now } }];
};

/** The signed contract; it may be replaced until a driver is assigned. */
export const confirmCarrier = ({ data }: ConfirmCarrier, tour: OpenedTour): TourEvent[] => {
  if (tour.status !== TourStatus.BidAccepted && tour.status !== TourStatus.CarrierConfirmed) {
    throw new IllegalStateError(
      `A tour that is ${tourStatusName(tour.status)} cannot take a new contract`,
    );
  }
  if (data.contractFileId.trim() === '')
    throw ValidationError.field('contractFileId', 'A file is required');
  return [
    {
      type: 'CarrierConfirmed',
      data: { tourId: tour.tourId, contractFileId: data.contractFileId, confirmedAt: data.now },
    },
  ];
};

export const assignTour = ({ data }: AssignTour, tour: OpenedTour): TourEvent[] => {
  const { actor } = data;
  if (actor.party !== 'carrier' && actor.party !== 'admin')
    throw new ForbiddenError('Only the carrier can assign a driver');
  const assigned: TourEvent = {
    type: 'TourAssigned',
    data: {
      tourId: tour.tourId,
      assigneeId: data.assigneeId,
      assigneeName: data.assigneeName,
      previousAssigneeId: tour.assigneeId,
      assignedBy: actor.userId,
      assignedAt: data.now,
      ...(data.tractorNumber !== undefined
        ? { tractorNumber: data.tractorNumber, trailerNumber: data.trailerNumber ?? null }
        : {}),
      ...(data.sealedReleaseSecret ? { sealedReleaseSecret: data.sealedReleaseSecret } : {}),
    },
  };
  switch (tour.status) {
    case TourStatus.BidAccepted:
      throw new IllegalStateError('Upload the signed contract before assigning a driver');
    case TourStatus.CarrierConfirmed:
      return [
        assigned,
        ...statusChange(tour, {
          to: TourStatus.ReadyForPickup,
          message: `Assigned to ${data.assigneeName}`,
          by: actor.userId,
          party: actor.party,
          at: data.now,
        }),
      ];
    case TourStatus.ReadyForPickup:
    case TourStatus.Dispatched:
      // The same driver again changes nothing, unless the truck named with it changed.
      return data.assigneeId === tour.assigneeId &&
        (data.tractorNumber === undefined ||
          (data.tractorNumber === (tour.tractorNumber ?? null) &&
            (data.trailerNumber ?? null) === (tour.trailerNumber ?? null)))
        ? []
        : [assigned];
    default:
      throw new IllegalStateError(
        `A tour that is ${tourStatusName(tour.status)} cannot be assigned to another driver`,
      );
  }
};

const driverSide: Party[] = ['driver', 'carrier', 'admin'];
const driverSideWho = 'the driver, the carrier or an administrator';
/** The moves of ChangeTourStatus, by current status; the others come from assigning, cancelling and the geofence. */
const statusMoves: Partial<
  Record<TourStatusId, { to: TourStatusId; parties: Party[]; who: string }>
> = {
  [TourStatus.ReadyForPickup]: {
    to: TourStatus.Dispatched,
    parties: driverSide,
    who: driverSideWho,
  },
  [TourStatus.Dispatched]: { to: TourStatus.InTransit, parties: driverSide, who: driverSideWho },
  [TourStatus.InTransit]: {
    to: TourStatus.PendingDeliveryConfirmation,
    parties: driverSide,
    who: driverSideWho,
  },
  [TourStatus.PendingDeliveryConfirmation]: {
    to: TourStatus.Delivered,
    parties: ['shipper', 'admin'],
    who: 'the shipper or an administrator',
  },
};

export const changeTourStatus = ({ data }: ChangeTourStatus, tour: OpenedTour): TourEvent[] => {
  const current = tourStatusName(tour.status);
  if (data.to === TourStatus.Canceled)
    throw new IllegalStateError(
      `A tour that is ${current} is canceled with a message, not moved to Canceled`,
    );
  const move = statusMoves[tour.status];
  if (!move || move.to !== data.to)
    throw new IllegalStateError(
      `A tour that is ${current} cannot move to ${tourStatusName(data.to)}`,
    );
  if (!move.parties.includes(data.actor.party))
    throw new ForbiddenError(`Only ${move.who} can move a tour to ${tourStatusName(data.to)}`);
  return statusChange(tour, {
    to: data.to,
    message: data.message.trim(),
    by: data.actor.userId,
    party: data.actor.party,
    at: data.now,
  });
};

/** A shipment can be called off until the truck is loaded and rolling. */
const cancellableStatuses: TourStatusId[] = [
  TourStatus.BidAccepted,
  TourStatus.CarrierConfirmed,
  TourStatus.ReadyForPickup,
  TourStatus.Dispatched,
];

export const cancelTour = ({ data }: CancelTour, tour: OpenedTour): TourEvent[] => {
  const { actor } = data;
  if (actor.party !== 'shipper' && actor.party !== 'carrier' && actor.party !== 'admin') {
    throw new ForbiddenError('Only the shipper or the carrier can cancel a tour');
  }
  if (!cancellableStatuses.includes(tour.status))
    throw new IllegalStateError(`A tour that is ${tourStatusName(tour.status)} cannot be canceled`);
  const message = data.message.trim();
  if (message === '') throw ValidationError.field('message', 'Please enter a message');
  return [
    {
      type: 'TourCanceled',
      data: {
        tourId: tour.tourId,
        from: tour.status,
        message,
        party: actor.party,
        canceledBy: actor.userId,
        canceledAt: data.now,
      },
    },
    timelineEntry(
      tour,
      { type: 'status', message, stopId: null, addedBy: actor.userId, at: data.now },
      String(TourStatus.Canceled),
    ),
  ];
};
