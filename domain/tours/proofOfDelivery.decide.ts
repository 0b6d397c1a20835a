/** The proof of delivery: who may record it at the last stop, and its timeline entry. */
import { TourStatus } from '../catalog.ts';
import {
  ConflictError,
  ForbiddenError,
  IllegalStateError,
  ValidationError,
} from '../shared/errors.ts';
import type {
  ConfirmDelivery,
  RecordProofOfDelivery,
  OpenedTour,
  TourActor,
  TourEvent,
  TourStop,
} from './tour.types.ts';
import { statusChange, timelineEntry } from './tour.timeline.ts';

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

export const recordProofOfDelivery = (
  { data }: RecordProofOfDelivery,
  tour: OpenedTour,
): TourEvent[] => {
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

export const DELIVERY_ALREADY_CONFIRMED = 'The delivery of this tour is already confirmed';
export const DELIVERY_NEEDS_PROOF =
  'The delivery is confirmed once the driver has recorded a proof of delivery';

/**
 * The shipper (or an administrator) confirms the delivery on the recorded proof: once per tour,
 * only with a proof of delivery, never on a canceled tour. A tour not yet Delivered moves there.
 */
export const confirmDelivery = ({ data }: ConfirmDelivery, tour: OpenedTour): TourEvent[] => {
  const { actor } = data;
  if (actor.party !== 'shipper' && actor.party !== 'admin')
    throw new ForbiddenError('Only the shipper confirms the delivery');
  if (tour.deliveryConfirmedAt) throw new IllegalStateError(DELIVERY_ALREADY_CONFIRMED);
  if (tour.status === TourStatus.Canceled) throw new IllegalStateError('This tour is canceled');
  const proof = (tour.proofs ?? []).at(-1);
  if (!proof) throw new IllegalStateError(DELIVERY_NEEDS_PROOF);
  const confirmed: TourEvent = {
    type: 'DeliveryConfirmed',
    data: {
      tourId: tour.tourId,
      loadId: tour.loadId,
      proofId: proof.proofId,
      shipperOrganizationId: tour.shipperOrganizationId,
      carrierOrganizationId: tour.carrierOrganizationId,
      confirmedBy: actor.userId,
      confirmedAt: data.now,
    },
  };
  if (tour.status === TourStatus.Delivered) return [confirmed];
  return [
    confirmed,
    ...statusChange(tour, {
      to: TourStatus.Delivered,
      message: 'Delivery confirmed on the proof of delivery',
      by: actor.userId,
      party: actor.party,
      at: data.now,
    }),
  ];
};
