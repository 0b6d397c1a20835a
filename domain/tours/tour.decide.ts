/**
 * The tour decider (docs/domain.md "Tour" and "Ratings"): from Bid Accepted through the contract, the
 * driver, the road and the delivery to the ratings, with the geofence rule for positions.
 */
import {
  LocationType,
  TourStatus,
  tourStatuses,
  type RatingSide,
  type TourStatusId,
} from '../catalog.ts';
import {
  ConflictError,
  ForbiddenError,
  IllegalStateError,
  NotFoundError,
  ValidationError,
} from '../shared/errors.ts';
import { assertNever, type Decider } from '../shared/event.ts';
import { stopAt } from './geo.ts';
import { ratingErrors } from './ratings.ts';
import {
  manualTourEventTypes,
  type AddTourEvent,
  type AssignTour,
  type RecordProofOfDelivery,
  type CancelTour,
  type ChangeTourStatus,
  type ConfirmCarrier,
  type ObservePosition,
  type OpenedTour,
  type OpenTour,
  type RateTour,
  type RevokeTourShare,
  type ShareTour,
  type Tour,
  type TourActor,
  type TourCommand,
  type TourEvent,
  type TourEventAdded,
  type TourEventType,
  type TourStop,
} from './tour.types.ts';

type Party = TourActor['party'];

export const tourStatusName = (status: TourStatusId): string =>
  tourStatuses.find((entry) => entry.id === status)?.name ?? `status ${status}`;

export const initialTour = (): Tour => ({ exists: false });

const addOnce = (ids: string[], id: string) => (ids.includes(id) ? ids : [...ids, id]);

/** Arrivals and departures, whether the geofence or a person recorded them, move the truck in or out of a stop. */
const afterStopEvent = (
  tour: OpenedTour,
  { type, stopId }: TourEventAdded['data'],
): Partial<OpenedTour> => {
  if (stopId === null) return {};
  if (type === 'arrived')
    return { insideStopId: stopId, arrivedStopIds: addOnce(tour.arrivedStopIds, stopId) };
  if (type === 'departed') {
    return {
      insideStopId: tour.insideStopId === stopId ? null : tour.insideStopId,
      departedStopIds: addOnce(tour.departedStopIds, stopId),
    };
  }
  return {};
};

export const evolveTour = (state: Tour, event: TourEvent): Tour => {
  if (event.type === 'TourOpened') {
    const {
      tourId,
      loadId,
      loadGuid,
      proposalId,
      shipperOrganizationId,
      carrierOrganizationId,
      price,
      eldTruckName,
      stops,
      openedAt,
    } = event.data;
    return {
      exists: true,
      tourId,
      loadId,
      loadGuid,
      proposalId,
      shipperOrganizationId,
      carrierOrganizationId,
      price,
      eldTruckName,
      stops,
      status: TourStatus.BidAccepted,
      assigneeId: null,
      assigneeName: null,
      contractFileId: null,
      insideStopId: null,
      arrivedStopIds: [],
      departedStopIds: [],
      ratings: { shipper: null, carrier: null },
      shares: [],
      proofs: [],
      openedAt,
      updatedAt: openedAt,
    };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case 'CarrierConfirmed':
      return {
        ...state,
        status: TourStatus.CarrierConfirmed,
        contractFileId: event.data.contractFileId,
        updatedAt: event.data.confirmedAt,
      };
    case 'TourAssigned':
      return {
        ...state,
        assigneeId: event.data.assigneeId,
        assigneeName: event.data.assigneeName,
        updatedAt: event.data.assignedAt,
      };
    case 'TourStatusChanged':
      return { ...state, status: event.data.to, updatedAt: event.data.changedAt };
    case 'TourEventAdded':
      return { ...state, ...afterStopEvent(state, event.data), updatedAt: event.data.at };
    case 'TourRated':
      return {
        ...state,
        ratings: { ...state.ratings, [event.data.side]: event.data.ratings },
        updatedAt: event.data.ratedAt,
      };
    case 'TourCanceled':
      return { ...state, status: TourStatus.Canceled, updatedAt: event.data.canceledAt };
    case 'TourShared':
      return {
        ...state,
        shares: [
          ...(state.shares ?? []),
          { shareId: event.data.shareId, organizationId: event.data.organizationId },
        ],
      };
    case 'TourShareRevoked':
      return {
        ...state,
        shares: (state.shares ?? []).filter((share) => share.shareId !== event.data.shareId),
      };
    case 'ProofOfDeliveryRecorded': {
      const { proofId, receivedBy, note, files, recordedBy, recordedAt } = event.data;
      return {
        ...state,
        proofs: [
          ...(state.proofs ?? []),
          { proofId, receivedBy, note, files, recordedBy, recordedAt },
        ],
        updatedAt: recordedAt,
      };
    }
    default:
      return assertNever(event);
  }
};

export const decideTour = (command: TourCommand, state: Tour): TourEvent[] => {
  if (command.type === 'OpenTour') return openTour(command, state);
  const tour = opened(state);
  switch (command.type) {
    case 'ConfirmCarrier':
      return confirmCarrier(command, tour);
    case 'AssignTour':
      return assignTour(command, visibleTo(tour, command.data.actor));
    case 'ChangeTourStatus':
      return changeTourStatus(command, visibleTo(tour, command.data.actor));
    case 'AddTourEvent':
      return addTourEvent(command, visibleTo(tour, command.data.actor));
    case 'ObservePosition':
      return observePosition(command, tour);
    case 'RateTour':
      return rateTour(command, visibleTo(tour, command.data.actor));
    case 'CancelTour':
      return cancelTour(command, visibleTo(tour, command.data.actor));
    case 'ShareTour':
      return shareTour(command, visibleTo(tour, command.data.actor));
    case 'RevokeTourShare':
      return revokeTourShare(command, visibleTo(tour, command.data.actor));
    case 'RecordProofOfDelivery':
      return recordProofOfDelivery(command, visibleTo(tour, command.data.actor));
    default:
      return assertNever(command);
  }
};

export const tourDecider: Decider<Tour, TourCommand, TourEvent> = {
  initialState: initialTour,
  evolve: evolveTour,
  decide: decideTour,
};

const opened = (state: Tour): OpenedTour => {
  if (!state.exists) throw new NotFoundError('Tour not found');
  return state;
};

/** Another organization's tour, or a tour the driver is not assigned to, does not exist for the caller. */
const visibleTo = (tour: OpenedTour, { party, organizationId, userId }: TourActor): OpenedTour => {
  const visible =
    party === 'admin' ||
    party === 'system' ||
    (party === 'shipper' && organizationId === tour.shipperOrganizationId) ||
    (party === 'carrier' && organizationId === tour.carrierOrganizationId) ||
    (party === 'driver' && userId !== null && userId === tour.assigneeId);
  if (!visible) throw new NotFoundError('Tour not found');
  return tour;
};

/**
 * A timeline entry the decider writes itself. Its id comes from what it records, which happens once
 * per tour: a tour reaches each status at most once (statuses only move forward), and the geofence
 * records one arrival and one departure per stop. Replaying a stream thus gives the same ids, and
 * they never meet the ids people's entries take from their command (UUIDs).
 */
const timelineEntry = (
  tour: OpenedTour,
  entry: Omit<TourEventAdded['data'], 'tourId' | 'eventId'>,
  key: string,
): TourEventAdded => ({
  type: 'TourEventAdded',
  data: { tourId: tour.tourId, eventId: `${tour.tourId}-${entry.type}-${key}`, ...entry },
});

/** A status change and its timeline entry (whose message falls back to the status name). */
const statusChange = (
  tour: OpenedTour,
  {
    to,
    message,
    by,
    party,
    at,
  }: { to: TourStatusId; message: string; by: string | null; party: Party; at: string },
): TourEvent[] => [
  {
    type: 'TourStatusChanged',
    data: {
      tourId: tour.tourId,
      from: tour.status,
      to,
      message,
      changedBy: by,
      party,
      changedAt: at,
    },
  },
  timelineEntry(
    tour,
    { type: 'status', message: message || tourStatusName(to), stopId: null, addedBy: by, at },
    String(to),
  ),
];

const stopMessage = (type: TourEventType, stop: TourStop | null): string => {
  const verb = type === 'arrived' ? 'Arrived at' : 'Departed';
  return stop ? `${verb} ${stop.name}` : type === 'arrived' ? 'Arrived' : 'Departed';
};

const openTour = ({ data }: OpenTour, state: Tour): TourEvent[] => {
  if (state.exists) throw new ConflictError('Tour already exists');
  const { now, ...opening } = data;
  return [{ type: 'TourOpened', data: { ...opening, openedAt: now } }];
};

/** The signed contract; it may be replaced until a driver is assigned. */
const confirmCarrier = ({ data }: ConfirmCarrier, tour: OpenedTour): TourEvent[] => {
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

const assignTour = ({ data }: AssignTour, tour: OpenedTour): TourEvent[] => {
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
      return data.assigneeId === tour.assigneeId ? [] : [assigned];
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

const changeTourStatus = ({ data }: ChangeTourStatus, tour: OpenedTour): TourEvent[] => {
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

const addTourEvent = ({ data }: AddTourEvent, tour: OpenedTour): TourEvent[] => {
  if (tour.status === TourStatus.Delivered || tour.status === TourStatus.Canceled) {
    throw new IllegalStateError(
      `A tour that is ${tourStatusName(tour.status)} takes no new events`,
    );
  }
  if (!(manualTourEventTypes as readonly string[]).includes(data.type))
    throw ValidationError.field('type', 'Unknown event type');
  const stop =
    data.stopId === null ? null : tour.stops.find((candidate) => candidate.id === data.stopId);
  if (stop === undefined) throw ValidationError.field('stopId', 'Unknown stop');
  const message = data.message.trim();
  const isStopEvent = data.type === 'arrived' || data.type === 'departed';
  if (message === '' && !isStopEvent)
    throw ValidationError.field('message', 'Please enter a message');
  return [
    {
      type: 'TourEventAdded',
      data: {
        tourId: tour.tourId,
        eventId: data.eventId,
        type: data.type,
        message: message || stopMessage(data.type, stop),
        stopId: data.stopId,
        addedBy: data.actor.userId,
        at: data.now,
      },
    },
  ];
};

/** The statuses in which the truck is on the road for this tour and its positions count. */
const trackedStatuses: TourStatusId[] = [
  TourStatus.ReadyForPickup,
  TourStatus.Dispatched,
  TourStatus.InTransit,
  TourStatus.PendingDeliveryConfirmation,
];

/**
 * The geofence: entering a stop records its arrival once, leaving the stop the truck was in records
 * its departure once, and leaving the first pickup moves a Dispatched tour to In Transit. The
 * events are dated when the position was recorded, which is when it happened.
 */
const observePosition = ({ data }: ObservePosition, tour: OpenedTour): TourEvent[] => {
  if (!trackedStatuses.includes(tour.status)) return [];
  const here = stopAt(tour.stops, data);
  const insideId = tour.insideStopId;
  if ((here?.id ?? null) === insideId) return [];
  const at = data.recordedAt;
  const events: TourEvent[] = [];
  if (insideId !== null && !tour.departedStopIds.includes(insideId)) {
    const left = tour.stops.find((stop) => stop.id === insideId) ?? null;
    const message = stopMessage('departed', left);
    events.push(
      timelineEntry(
        tour,
        { type: 'departed', message, stopId: insideId, addedBy: null, at },
        insideId,
      ),
    );
    const firstPickup = tour.stops.find((stop) => stop.locationType === LocationType.Pickup);
    if (tour.status === TourStatus.Dispatched && insideId === firstPickup?.id) {
      events.push(
        ...statusChange(tour, { to: TourStatus.InTransit, message, by: null, party: 'system', at }),
      );
    }
  }
  if (here && !tour.arrivedStopIds.includes(here.id)) {
    events.push(
      timelineEntry(
        tour,
        {
          type: 'arrived',
          message: stopMessage('arrived', here),
          stopId: here.id,
          addedBy: null,
          at,
        },
        here.id,
      ),
    );
  }
  return events;
};

/** A shipper rates the carrier and a carrier the shipper; nobody else rates. */
const raterOf = ({ party, userId }: TourActor): { side: RatingSide; userId: string } => {
  if ((party !== 'shipper' && party !== 'carrier') || userId === null) {
    throw new ForbiddenError('Only the shipper and the carrier of a tour rate it');
  }
  return { side: party, userId };
};

const rateTour = ({ data }: RateTour, tour: OpenedTour): TourEvent[] => {
  const rater = raterOf(data.actor);
  if (tour.status !== TourStatus.Delivered)
    throw new IllegalStateError('Ratings open once the tour is delivered');
  if (tour.ratings[rater.side] !== null)
    throw new ConflictError('You have already rated this tour');
  const errors = ratingErrors(rater.side, data.ratings);
  if (errors.length > 0) throw new ValidationError(errors[0].message, errors);
  const ratings = data.ratings
    .map(({ criteria, rating }) => ({ criteria, rating }))
    .sort((a, b) => a.criteria - b.criteria);
  const ratedOrganizationId =
    rater.side === 'shipper' ? tour.carrierOrganizationId : tour.shipperOrganizationId;
  return [
    {
      type: 'TourRated',
      data: {
        tourId: tour.tourId,
        side: rater.side,
        ratedOrganizationId,
        ratings,
        ratedBy: rater.userId,
        ratedAt: data.now,
      },
    },
  ];
};

/** A shipment can be called off until the truck is loaded and rolling. */
const cancellableStatuses: TourStatusId[] = [
  TourStatus.BidAccepted,
  TourStatus.CarrierConfirmed,
  TourStatus.ReadyForPickup,
  TourStatus.Dispatched,
];

const cancelTour = ({ data }: CancelTour, tour: OpenedTour): TourEvent[] => {
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

/** Only the shipper's and the carrier's people share a tour: a driver works it, a Superadmin belongs to neither side. */
const shareTour = ({ data }: ShareTour, tour: OpenedTour): TourEvent[] => {
  const { actor } = data;
  if (
    (actor.party !== 'shipper' && actor.party !== 'carrier') ||
    !actor.organizationId ||
    !actor.userId
  ) {
    throw new ForbiddenError("Only the tour's shipper or carrier shares its tracking");
  }
  return [
    {
      type: 'TourShared',
      data: {
        tourId: tour.tourId,
        shareId: data.shareId,
        tokenHash: data.tokenHash,
        organizationId: actor.organizationId,
        sharedBy: actor.userId,
        expiresAt: data.expiresAt,
        sharedAt: data.now,
      },
    },
  ];
};

/** A link is revoked by its own side (shipper or carrier), once; another side's link does not exist for the caller. */
const revokeTourShare = ({ data }: RevokeTourShare, tour: OpenedTour): TourEvent[] => {
  const { actor } = data;
  if ((actor.party !== 'shipper' && actor.party !== 'carrier') || !actor.userId)
    throw new ForbiddenError("Only the tour's shipper or carrier revokes its tracking links");
  const share = (tour.shares ?? []).find((entry) => entry.shareId === data.shareId);
  if (!share || share.organizationId !== actor.organizationId)
    throw new NotFoundError('Link not found');
  return [
    {
      type: 'TourShareRevoked',
      data: {
        tourId: tour.tourId,
        shareId: data.shareId,
        revokedBy: actor.userId,
        revokedAt: data.now,
      },
    },
  ];
};

/** The stop where the goods are handed over: the tour's last. */
export const lastStopOf = (tour: OpenedTour): TourStop | null => tour.stops.at(-1) ?? null;

/** A proof already recorded under this id (a retry of the same proof). */
export const recordedProof = (tour: OpenedTour, proofId: string) =>
  (tour.proofs ?? []).find((proof) => proof.proofId === proofId) ?? null;

/**
 * Who records a proof of delivery and when: only the driver assigned to the tour, from the arrival
 * at the last stop until the tour is Delivered. Throws the refusal (403 for anyone else, 409 out of
 * that window); the route asks before it reads the upload, the decider again when it decides.
 */
export const assertMayRecordProof = (tour: OpenedTour, actor: TourActor): void => {
  if (actor.party !== 'driver' || actor.userId === null || actor.userId !== tour.assigneeId) {
    throw new ForbiddenError('Only the driver assigned to this tour records its proof of delivery');
  }
  if (tour.status === TourStatus.Delivered)
    throw new IllegalStateError(
      'This tour is already delivered: its proof of delivery can no longer change',
    );
  if (tour.status === TourStatus.Canceled) throw new IllegalStateError('This tour is canceled');
  const last = lastStopOf(tour);
  const arrived = last !== null && tour.arrivedStopIds.includes(last.id);
  if (
    !arrived ||
    !(
      tour.status === TourStatus.InTransit || tour.status === TourStatus.PendingDeliveryConfirmation
    )
  ) {
    throw new IllegalStateError(
      'A proof of delivery is recorded once the truck has arrived at the last stop',
    );
  }
};

const recordProofOfDelivery = ({ data }: RecordProofOfDelivery, tour: OpenedTour): TourEvent[] => {
  const { actor } = data;
  const already = recordedProof(tour, data.proofId);
  if (already) {
    // The same proof sent again by the same driver: recorded once. Another use of its id is a conflict.
    if (already.recordedBy === actor.userId) return [];
    throw new ConflictError('This proof of delivery id is already used');
  }
  assertMayRecordProof(tour, actor);
  const receivedBy = data.receivedBy.trim();
  if (receivedBy === '')
    throw ValidationError.field('receivedBy', 'Please enter who received the goods');
  if (data.files.length === 0)
    throw ValidationError.field('photo', 'Add at least one photo or the signature');
  const note = data.note?.trim() || null;
  // Its line in the tour's timeline, at the last stop: the tour's parties watching it hear of the proof at once.
  const entry = timelineEntry(
    tour,
    {
      type: 'note',
      message: `Proof of delivery, received by ${receivedBy}`,
      stopId: lastStopOf(tour)?.id ?? null,
      addedBy: actor.userId,
      at: data.now,
    },
    `pod-${data.proofId}`,
  );
  return [
    {
      type: 'ProofOfDeliveryRecorded',
      data: {
        tourId: tour.tourId,
        proofId: data.proofId,
        receivedBy,
        note,
        files: data.files,
        recordedBy: actor.userId!,
        recordedAt: data.now,
      },
    },
    entry,
  ];
};
